import IPACheckAASA
import IPACheckGate
import IPACheckReport
import Testing

/// The AASA family's judgement of how a file is written: the facts the parser keeps (a byte order mark, repeated
/// keys, the size) raise their rules, and each way a file cannot be read has its own rule.
struct AASAFileReadingTests {
    private static let minimal = #"{"webcredentials": {"apps": []}}"#

    private func rules(_ bytes: [UInt8]) throws -> [String] {
        AASAFileReading.findings(of: try AASADocument.parse(bytes)).map(\.rule)
    }

    @Test func aByteOrderMarkIsAWarning() throws {
        #expect(try rules([0xEF, 0xBB, 0xBF] + Array(Self.minimal.utf8)) == ["AASA008"])
        #expect(try rules(Array(Self.minimal.utf8)).isEmpty)
    }

    @Test func eachRepeatedKeyIsAWarningAtItsObject() throws {
        let text =
            #"{"applinks": {"details": [{"appID": "A1B2C3D4E5.com.a.first", "appID": "A1B2C3D4E5.com.a.second"}]}}"#
        let findings = AASAFileReading.findings(of: try AASADocument.parse(Array(text.utf8)))
        #expect(findings.map(\.rule) == ["AASA009"])
        #expect(findings.first?.location?.hasPrefix("applinks.details[0]") == true)
        #expect(findings.first?.message.contains("\"appID\"") == true)
    }

    /// Apple's limit is 131,072 bytes (docs/matching.md): one byte over is an error, a file under it is not.
    @Test func overAppleLimitIsAnError() throws {
        let over = try AASADocument.parse(Array((Self.minimal + String(repeating: " ", count: 131_073)).utf8))
        let findings = AASAFileReading.findings(of: over)
        #expect(findings.map(\.rule) == ["AASA010"] && findings.first?.severity == .error)
        #expect(try rules(Array((Self.minimal + String(repeating: " ", count: 131_000)).utf8)).isEmpty)
    }

    @Test func eachUnreadableFileHasItsRule() {
        let cases: [([UInt8], String)] = [
            ([], "AASA001"),
            (Array(#"{"a": ""#.utf8) + [0xFF] + Array(#""}"#.utf8), "AASA002"),
            (Array(#"{"a": 1,}"#.utf8), "AASA003"),
            (Array("[1]".utf8), "AASA004"),
            (Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8), "AASA005"),
            ([UInt8](repeating: 0x20, count: AASADocument.Limits.hardByteCap + 1), "AASA006"),
            // A DER SEQUENCE whose length says five bytes of length follow: a signed (CMS) file that cannot be read.
            ([0x30, 0x85, 1, 2, 3, 4, 5], "AASA007"),
        ]
        for (bytes, rule) in cases {
            #expect(throws: AASAParseError.self) { try AASADocument.parse(bytes) }
            do {
                _ = try AASADocument.parse(bytes)
            } catch {
                #expect(error.rule.id == rule, "\(error)")
                #expect(error.finding(domain: "example.com").domain == "example.com")
            }
        }
    }
}
