import Foundation
import IPACheckFuzzSupport
import IPACheckPlist

/// Binary and XML property lists through libplist, then rendered the two ways ipacheck prints them, and the XML
/// ipacheck writes parsed back (libplist's XML reader then sees well-formed documents with hostile contents).
///
/// XML also goes through ipacheck's own streaming reader (XMLPlistReader, which reads large resource seals), whole
/// and entry by entry.
enum PlistHarness {
    static func run(_ bytes: [UInt8]) {
        if XMLPlistReader.looksLikeXML(bytes) {
            if var reader = try? XMLPlistReader(bytes) { _ = try? reader.readValue() }
            if var reader = try? XMLPlistReader(bytes) {
                try? reader.forEachEntry { key, reader throws(PlistError) in
                    if key.hasPrefix("files") {
                        try reader.forEachEntry { _, reader throws(PlistError) in _ = try reader.readValue() }
                    } else {
                        try reader.skipValue()
                    }
                }
            }
        }
        guard let value = try? PlistParser.parse(bytes) else { return }
        let xml = value.xmlDocument
        _ = try? JSONEncoder().encode(value)
        _ = try? PlistParser.parse(Array(xml.utf8))
    }
}

/// Fuzzes with libFuzzer in a fuzz build, replays the files named on the command line otherwise.
@main
enum Main {
    static func main() { FuzzMain.run(PlistHarness.run) }
}
