import Foundation
import IPACheckArchive
import IPACheckPlist
import IPACheckTestSupport
import Testing

/// The streaming XML reader must read every property list as libplist does (``PlistParser`` is the reference),
/// and refuse what is not one.
struct XMLPlistReaderTests {
    static func read(_ xml: String) throws -> PlistValue {
        var reader = try XMLPlistReader(Array(xml.utf8))
        let value = try reader.readValue()
        try reader.finish()
        return value
    }

    /// Every XML plist of the corpus (CodeResources, Info.plists, entitlements, decoded profiles) and every XML
    /// plist inside its ipas and the samples.
    static func corpusXMLPlists() -> [(name: String, bytes: [UInt8])] {
        var found: [(String, [UInt8])] = []
        let fileManager = FileManager.default
        for folder in ["macho", "entitlements", "mobileprovision", "ipa"] {
            let directory = Corpus.url(folder)
            for name in (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? [] {
                let path = directory.appendingPathComponent(name).path
                if name.hasSuffix(".ipa") {
                    // Some corpus ipas are broken on purpose; they hold no plist to compare.
                    guard let archive = try? ZipArchive(path: path) else { continue }
                    for entry in archive.entries
                    where entry.name.hasSuffix(".plist") || entry.name.hasSuffix("CodeResources") {
                        guard let bytes = try? archive.read(entry) else { continue }
                        if XMLPlistReader.looksLikeXML(bytes) { found.append(("\(name)/\(entry.name)", bytes)) }
                    }
                } else if let bytes = fileManager.contents(atPath: path).map(Array.init),
                    XMLPlistReader.looksLikeXML(bytes), bytes.count < 4_000_000,
                    String(decoding: bytes.prefix(200), as: UTF8.self).contains("plist")
                {
                    found.append((name, bytes))
                }
            }
        }
        return found
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus (or $IPACHECK_CORPUS)"))
    func readsEveryCorpusPlistAsLibplistDoes() throws {
        let plists = Self.corpusXMLPlists()
        #expect(plists.count >= 10, "the corpus holds XML plists: \(plists.count)")
        #expect(plists.contains { $0.name.hasSuffix("CodeResources") })
        for (name, bytes) in plists {
            // A few fixtures are broken on purpose; libplist, the reference, reads nothing from them.
            guard let expected = try? PlistParser.parse(bytes) else { continue }
            var reader = try XMLPlistReader(bytes)
            #expect(try reader.readValue() == expected, "\(name)")
            #expect(throws: Never.self, "\(name)") { try reader.finish() }
        }
    }

    /// A reader over `bytes` pulled `chunk` bytes at a time, as a CodeResources streams out of an archive.
    static func streamed(_ bytes: [UInt8], chunk: Int) throws -> XMLPlistReader {
        var offset = 0
        return try XMLPlistReader(pulling: {
            let piece = Array(bytes[offset..<min(offset + chunk, bytes.count)])
            offset += piece.count
            return .bytes(piece)
        })
    }

    /// Read a chunk at a time, from one byte to more than the document, every corpus plist reads as libplist reads
    /// it whole (chunks split every tag, entity and base64 run somewhere).
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus (or $IPACHECK_CORPUS)"))
    func readsEveryCorpusPlistStreamedAsLibplistDoes() throws {
        let plists = Self.corpusXMLPlists()
        #expect(plists.count >= 10, "the corpus holds XML plists: \(plists.count)")
        for (name, bytes) in plists {
            guard let expected = try? PlistParser.parse(bytes) else { continue }
            for chunk in [1, 3, 7, 4096, bytes.count + 1] where bytes.count < 300_000 || chunk >= 4096 {
                var reader = try Self.streamed(bytes, chunk: chunk)
                #expect(try reader.readValue() == expected, "\(name), \(chunk)-byte chunks")
                #expect(throws: Never.self, "\(name)") { try reader.finish() }
                #expect(reader.inputFailure == nil)
            }
        }
    }

    /// A NUL byte ends a streamed document where it stands and is the error, at the byte the whole reading names;
    /// a stream that fails is its own error.
    @Test func aStreamedNULOrReadFailureIsTheError() throws {
        let bytes = Array("<plist><dict><key>a</key><string>x\u{0}y</string></dict></plist>".utf8)
        let whole = #expect(throws: PlistError.self) { _ = try XMLPlistReader(bytes) }
        var reader = try Self.streamed(bytes, chunk: 5)
        #expect(throws: PlistError.self) { _ = try reader.readValue() }
        #expect(reader.inputFailure?.reason == whole?.reason)
        #expect(whole?.reason.contains("at byte 34: a NUL byte") == true)

        // A NUL after a whole value: the value reads, and the document is still refused, as it is read whole.
        let trailing = Array("<dict/>\u{0}".utf8)
        #expect(throws: PlistError.self) { _ = try XMLPlistReader(trailing) }
        var afterValue = try Self.streamed(trailing, chunk: 3)
        #expect(try afterValue.readValue() == .dictionary([:]))
        #expect(throws: PlistError.self) { try afterValue.finish() }

        var failing = try XMLPlistReader(pulling: { .failed("the disk went away") })
        #expect(throws: PlistError.self) { _ = try failing.readValue() }
        #expect(failing.inputFailure?.reason == "the disk went away")
    }

    @Test func readsEveryValueTypeAndTheMarkupAroundThem() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>s</key><string>caf\u{e9} &amp; &lt;co&gt; &#65;&#x42; <![CDATA[<raw> & ]]></string>
            <key>i</key><integer> -42 </integer>
            <key>h</key><integer>0x10</integer>
            <key>r</key><real>1.5</real>
            <key>t</key><true/>
            <key>f</key><false></false>
            <key>d</key><date>2001-01-01T00:00:10Z</date>
            <key>b</key><data>
                AAEC
                AwQ=
            </data>
            <key>a</key><array><string>x</string><!-- inside --><integer>1</integer><array/></array>
            <key>n</key><dict/>
            <key>e</key><string/>
            </dict></plist>
            """
        let value = try Self.read(xml)
        #expect(value["s"] == .string("caf\u{e9} & <co> AB <raw> & "))
        #expect(value["i"] == .integer(-42))
        #expect(value["h"] == .integer(16))
        #expect(value["r"] == .real(1.5))
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["d"] == .date(Date(timeIntervalSinceReferenceDate: 10)))
        #expect(value["b"] == .data([0, 1, 2, 3, 4]))
        #expect(value["a"] == .array([.string("x"), .integer(1), .array([])]))
        #expect(value["n"] == .dictionary([:]))
        #expect(value["e"] == .string(""))
    }

    /// Integers above `Int64.max` are kept as written (plists hold unsigned 64-bit values, as libplist does), not
    /// wrapped to negative numbers (`18446744073709551615` printed as -1); XML and JSON write them back.
    @Test func keepsUnsigned64BitIntegersAsWritten() throws {
        let value = try Self.read(
            "<plist><array><integer>18446744073709551615</integer><integer>9223372036854775808</integer>"
                + "<integer>0xFFFFFFFFFFFFFFFF</integer><integer>-9223372036854775808</integer></array></plist>"
        )
        #expect(
            value
                == .array([
                    .unsignedInteger(.max), .unsignedInteger(1 << 63), .unsignedInteger(.max), .integer(.min),
                ])
        )
        #expect(value.xmlDocument.contains("<integer>18446744073709551615</integer>"))
        let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        #expect(json == "[18446744073709551615,9223372036854775808,18446744073709551615,-9223372036854775808]")
        #expect(throws: (any Error).self) { try Self.read("<plist><integer>18446744073709551616</integer></plist>") }
    }

    @Test func walksADictionaryEntryByEntryAndSkipsWhatItIsNotAskedFor() throws {
        let xml =
            "<plist><dict><key>skip</key><dict><key>x</key><array><data>AA==</data></array></dict>"
            + "<key>files2</key><dict><key>a</key><dict><key>hash2</key><data>AQ==</data></dict>"
            + "<key>b</key><dict/></dict></dict></plist>"
        var reader = try XMLPlistReader(Array(xml.utf8))
        var seen: [String] = []
        try reader.forEachEntry { key, reader throws(PlistError) in
            guard key == "files2" else { return try reader.skipValue() }
            try reader.forEachEntry { path, reader throws(PlistError) in
                seen.append(path)
                _ = try reader.readValue()
            }
        }
        #expect(seen == ["a", "b"])
    }

    @Test(arguments: [
        ("", "ends where a value should be"),
        ("<plist><dict><key>a</key></dict></plist>", "expected an element"),
        ("<plist><dict><string>a</string></dict></plist>", "expected a <key>"),
        ("<plist><dict><key>a</key><string>x</dict></plist>", "expected </string>"),
        ("<plist><string>x", "ends inside <string>"),
        ("<plist><integer>x</integer></plist>", "not an integer"),
        ("<plist><string>&bogus;</string></plist>", "unknown entity"),
        ("<plist><string>&#0;</string></plist>", "not a character"),
        ("<plist><string>&#xD800;</string></plist>", "not a character"),
        ("<plist><foo/></plist>", "not a property-list element"),
        ("<!DOCTYPE plist [<!ENTITY x \"y\">]><plist><string/></plist>", "internal subset"),
        ("<plist><!-- never closed <string/></plist>", "inside a comment"),
        ("<plist><string", "ends inside <string>"),
        ("<plist><string>a</string><string>b</string></plist>", "expected </plist>"),
        ("<string>a</string><key>b</key>", "more follows"),
        ("<plist><data>QU\u{0}JD</data></plist>", "a NUL byte"),
        // A `>` in a quoted literal does not end the DOCTYPE (the Plist fuzzer's input, shortened): libplist then read
        // a different value than the one after the first `>`.
        ("<!DOCTYPE p\" \"x.dtd\"><plist version=\"1.0\"><dict><key>a</key><true/></dict></plist>", "inside a DOCTYPE"),
    ])
    func refusesMalformedDocuments(xml: String, reason: String) {
        #expect {
            _ = try Self.read(xml)
        } throws: { error in
            (error as? PlistError)?.reason.contains(reason) == true
        }
    }

    @Test func capsNesting() {
        let depth = PlistParser.maximumDepth + 1
        let xml = String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
        #expect {
            _ = try Self.read(xml)
        } throws: { error in
            (error as? PlistError)?.reason.contains("nested deeper") == true
        }
        let fine = String(repeating: "<array>", count: depth - 1) + String(repeating: "</array>", count: depth - 1)
        #expect(throws: Never.self) { _ = try Self.read(fine) }
    }

    /// `<data>` as libplist reads it (its answers recorded with libplist 2.2): what is outside the alphabet is
    /// skipped, `=` pads a group, an incomplete last group gives nothing.
    @Test(
        arguments: [
            ("AAEC", [0, 1, 2]), ("AAE", []), ("AAECA", [0, 1, 2]), ("AA==", [0]), ("AA=A", [0]), ("A!A=", []),
            ("AA EC", [0, 1, 2]), ("AAEC====", [0, 1, 2]), ("AB*CD", [0x00, 0x10, 0x83]),
            ("QUJD\nREVG", Array("ABCDEF".utf8)),
            ("QUJDREVGR", Array("ABCDEF".utf8)), ("QUJDREVGRw", Array("ABCDEF".utf8)),
        ] as [(String, [UInt8])]
    )
    func decodesDataAsLibplistDoes(base64: String, bytes: [UInt8]) throws {
        let xml = "<plist><data>\(base64)</data></plist>"
        #expect(try Self.read(xml) == .data(bytes))
        #expect(try PlistParser.parse(Array(xml.utf8)) == .data(bytes))
    }

    /// A key repeated in a dictionary: the last value wins, as libplist's tree gives it.
    @Test func repeatedKeysKeepTheLastValueAsLibplistDoes() throws {
        let xml = "<plist><dict><key>a</key><string>1</string><key>a</key><string>2</string></dict></plist>"
        #expect(try Self.read(xml)["a"] == PlistParser.parse(Array(xml.utf8))["a"])
        #expect(try Self.read(xml)["a"] == .string("2"))
    }
}
