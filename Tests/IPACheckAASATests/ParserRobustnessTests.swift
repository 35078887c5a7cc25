import IPACheckAASA
import IPACheckReport
import Testing

/// Strict JSON as Apple reads it, and no crash, trap or hang on hostile input.
@Suite("AASA parser robustness")
struct ParserRobustnessTests {
    private func parse(_ text: String) throws(AASAParseError) -> AASADocument {
        try AASADocument.parse(Array(text.utf8))
    }

    private func error(_ bytes: [UInt8]) -> AASAParseError? {
        do {
            _ = try AASADocument.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// A file people mistake for an AASA file is named in the parse error's message, by its first bytes (zip: APPNOTE
    /// 4.3.7's local header signature; Mach-O: <mach-o/loader.h>'s MH_MAGIC_64 little-endian; a plist; an HTML page
    /// a server answered with); JSON that is merely broken is not.
    @Test(
        "what a file that is not JSON is",
        arguments: [
            ([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x90], AASAParseError.Code.invalidUTF8, "a zip archive"),
            ([0xCF, 0xFA, 0xED, 0xFE, 0x0C, 0x00, 0x00, 0x01], .invalidUTF8, "a Mach-O binary"),
            (
                Array("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>".utf8), .invalidJSON,
                "a property list"
            ),
            (Array("bplist00\u{08}".utf8), .invalidJSON, "a property list"),
            (Array("\n<!DOCTYPE html><html><body>Not Found</body></html>".utf8), .invalidJSON, "an HTML page"),
        ] as [([UInt8], AASAParseError.Code, String)]
    )
    func namesWhatTheFileIs(bytes: [UInt8], code: AASAParseError.Code, what: String) throws {
        let found = try #require(error(bytes))
        #expect(found.code == code)
        #expect(found.message.contains(": the file is \(what)"), "\(found.message)")
        #expect(found.message.hasSuffix(", not JSON"), "\(found.message)")
    }

    @Test("broken JSON is only broken JSON")
    func brokenJSONNamesNothingElse() {
        let found = error(Array(#"{"applinks": {"details": [],}}"#.utf8))
        #expect(found?.code == .invalidJSON)
        #expect(found?.message.contains("the file is") == false, "\(found?.message ?? "")")
    }

    /// Positions are those Python's json module reports for the same text (line/column, 1-based; char 0-based).
    @Test(
        "syntax errors carry Python json's position",
        arguments: [
            (#"{"a": 1,}"#, 1, 9, 8),  // trailing comma: "line 1 column 9 (char 8)"
            ("{\n  \"a\": [1, 2,]\n}", 2, 14, 15),  // "Expecting value: line 2 column 14 (char 15)"
            (#"{"a": 1} x"#, 1, 10, 9),  // "Extra data: line 1 column 10 (char 9)"
            ("// c\n{}", 1, 1, 0),  // "Expecting value: line 1 column 1 (char 0)"
            (#"{"a":"\x"}"#, 1, 7, 6),  // "Invalid \escape: line 1 column 7 (char 6)"
        ]
    )
    func syntaxPosition(_ text: String, _ line: Int, _ column: Int, _ offset: Int) {
        let failure = error(Array(text.utf8))
        #expect(failure?.code == .invalidJSON)
        #expect(failure?.position == AASASourcePosition(offset: offset, line: line, column: column))
    }

    @Test(
        "junk Apple's strict parser refuses",
        arguments: [
            "{'a': 1}", "{a: 1}", "{\"a\": 01}", "{\"a\": NaN}", "{\"a\": .5}", "{\"a\": \"\u{01}\"}",
            "{\"a\": \"\\ud800\"}", "{\"a\" 1}", "{\"a\": [1 2]}", "{\"a\": tru}",
        ]
    )
    func junk(_ text: String) {
        #expect(error(Array(text.utf8))?.code == .invalidJSON)
    }

    @Test("non-object roots are refused", arguments: ["[]", "\"applinks\"", "42", "null", "true"])
    func nonObjectRoot(_ text: String) {
        #expect(error(Array(text.utf8))?.code == .rootNotObject)
    }

    @Test("empty input")
    func empty() {
        #expect(error([])?.code == .empty)
        #expect(error(Array(" \n\t".utf8))?.code == .empty)
    }

    @Test("a UTF-8 BOM is skipped and kept as a fact")
    func byteOrderMark() throws {
        let document = try AASADocument.parse(
            [0xEF, 0xBB, 0xBF] + Array(#"{"webcredentials": {"apps": []}}"#.utf8)
        )
        #expect(document.encoding.startsWithByteOrderMark)
        #expect(try !parse(#"{"webcredentials": {"apps": []}}"#).encoding.startsWithByteOrderMark)
        #expect(document.services == [.webcredentials])
    }

    @Test("duplicate keys: kept as facts, the last value wins (as NSJSONSerialization)")
    func duplicateKeys() throws {
        let text =
            #"{"applinks": {"details": [{"appID": "A1B2C3D4E5.com.a.first", "appID": "A1B2C3D4E5.com.a.second", "paths": ["*"]}]}}"#
        let document = try parse(text)
        #expect(document.encoding.duplicateKeys.map(\.key) == ["appID"])
        #expect(document.encoding.duplicateKeys.first?.objectPath == "applinks.details[0]")
        #expect(document.appIDs(for: .applinks) == ["A1B2C3D4E5.com.a.second"])
    }

    @Test("invalid UTF-8 is refused with its offset")
    func invalidUTF8() {
        let bytes = Array(#"{"a": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        let failure = error(bytes)
        #expect(failure?.code == .invalidUTF8)
        #expect(failure?.position?.offset == 8)  // the byte after the lead byte 0xC3 at offset 7
        // An encoded UTF-16 surrogate (ED A0 80) is not UTF-8.
        #expect(error(Array(#"{"a": ""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8))?.code == .invalidUTF8)
        #expect(error(Array(#"{"a": ""#.utf8) + [0xF0, 0x9F])?.code == .invalidUTF8)  // truncated sequence
    }

    @Test("deep nesting stops at the cap, without recursion overflow")
    func deepNesting() {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(error(Array(text.utf8))?.code == .tooDeep)
        let objects = String(repeating: #"{"a":"#, count: depth)
        #expect(error(Array(objects.utf8))?.code == .tooDeep)
    }

    @Test("huge numbers are kept as text")
    func hugeNumbers() throws {
        let document = try parse(#"{"n": 1e999999, "m": -123456789012345678901234567890.5E-3}"#)
        #expect(document.root["n"] == .number("1e999999"))
    }

    @Test("files over 128 KB are still read, their size kept; files over the hard cap are refused")
    func sizes() throws {
        let padding = String(repeating: " ", count: 131_073)
        let large = try parse(#"{"webcredentials": {"apps": []}}"# + padding)
        #expect(large.byteCount == 131_073 + 32 && large.services == [.webcredentials])
        #expect(error([UInt8](repeating: 0x20, count: AASADocument.Limits.hardByteCap + 1))?.code == .tooLarge)
    }

    @Test("a hand-built BER SignedData with indefinite lengths and a constructed OCTET STRING")
    func berSignedData() throws {
        // ContentInfo { signedData OID, [0] { SignedData { INTEGER 1, SET {}, { data OID, [0] { OCTET STRING
        // (constructed, two chunks) } } } } }, all with indefinite lengths (X.690 §8.1.3.6, §8.7.3).
        let json = Array(#"{"webcredentials": {"apps": ["A1B2C3D4E5.com.a.b"]}}"#.utf8)
        let first = Array(json[..<10])
        let second = Array(json[10...])
        let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        let octets: [UInt8] =
            [0x24, 0x80, 0x04, UInt8(first.count)] + first + [0x04, UInt8(second.count)] + second + [0, 0]
        let encapsulated: [UInt8] = [0x30, 0x80] + dataOID + [0xA0, 0x80] + octets + [0, 0] + [0, 0]
        let signedData: [UInt8] = [0x30, 0x80, 0x02, 0x01, 0x01, 0x31, 0x00] + encapsulated + [0, 0]
        let blob: [UInt8] = [0x30, 0x80] + signedDataOID + [0xA0, 0x80] + signedData + [0, 0] + [0, 0]
        let document = try AASADocument.parse(blob)
        #expect(document.signedEnvelope?.payload == json)
        #expect(document.appIDs(for: .webcredentials) == ["A1B2C3D4E5.com.a.b"])
    }

    @Test("malformed CMS: wrong content type, detached, lengths past the end")
    func malformedCMS() {
        let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        #expect(error([0x30, 0x80] + dataOID + [0, 0])?.code == .malformedCMS)
        #expect(error([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x06])?.code == .malformedCMS)
        #expect(error([0x30, 0x85, 1, 2, 3, 4, 5])?.code == .malformedCMS)
        #expect(error([0x30, 0x80, 0x30, 0x80, 0x30, 0x80])?.code == .malformedCMS)
    }
}
