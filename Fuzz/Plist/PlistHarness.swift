import Foundation
import IPACheckFuzzSupport
import IPACheckPlist

/// Binary and XML property lists through libplist, then rendered the two ways ipacheck prints them, and the XML
/// ipacheck writes parsed back (libplist's XML reader then sees well-formed documents with hostile contents).
///
/// XML also goes through ipacheck's own streaming reader (XMLPlistReader, which reads large resource seals), whole,
/// entry by entry and pulled in small chunks, and must read what libplist reads the same way.
enum PlistHarness {
    static func run(_ bytes: [UInt8]) {
        if XMLPlistReader.looksLikeXML(bytes) {
            if var reader = try? XMLPlistReader(bytes), let ours = try? reader.readValue(),
                (try? reader.finish()) != nil, let theirs = try? PlistParser.parse(bytes), Self.comparable(theirs),
                ours != theirs
            {
                fatalError("XMLPlistReader and libplist read this document differently")
            }
            Self.compareStreamed(bytes)
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

extension PlistHarness {
    /// Read as a seal streams out of an archive (chunks of 1 to 16 bytes, from the document's last byte), the
    /// document must read as it reads whole: the same value, or an error both ways.
    static func compareStreamed(_ bytes: [UInt8]) {
        let chunk = Int(bytes.last ?? 0) % 16 + 1
        var offset = 0
        let whole = try? { () throws(PlistError) -> PlistValue in
            var reader = try XMLPlistReader(bytes)
            let value = try reader.readValue()
            try reader.finish()
            return value
        }()
        let streamed = try? { () throws(PlistError) -> PlistValue in
            var reader = try XMLPlistReader(pulling: {
                let piece = Array(bytes[offset..<min(offset + chunk, bytes.count)])
                offset += piece.count
                return .bytes(piece)
            })
            let value = try reader.readValue()
            try reader.finish()
            return value
        }()
        if whole != streamed { fatalError("XMLPlistReader reads this document differently when it is streamed") }
    }

    /// Whether a document holds only what a resource seal holds (dictionaries, arrays, strings, data, booleans).
    ///
    /// There the streaming reader must agree with libplist exactly. Numbers and dates are left out: libplist reads
    /// malformed ones its own way (and a seal has none).
    static func comparable(_ value: PlistValue) -> Bool {
        switch value {
        case .string, .data, .bool: true
        case .integer, .unsignedInteger, .real, .date: false
        case .array(let items): items.allSatisfy(comparable)
        case .dictionary(let entries): entries.values.allSatisfy(comparable)
        }
    }
}

/// Fuzzes with libFuzzer in a fuzz build, replays the files named on the command line otherwise.
@main
enum Main {
    static func main() { FuzzMain.run(PlistHarness.run) }
}
