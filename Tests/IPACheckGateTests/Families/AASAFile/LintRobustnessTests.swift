import IPACheckAASA
import IPACheckGate
import IPACheckReport
import IPACheckTestSupport
import Testing

/// The linter on hostile documents, as `lint` and `check` run it after the parser: linear in the file's size, no
/// crash on random or mutated input.
struct LintRobustnessTests {
    @Test("huge hostile documents are handled in linear time and memory")
    func hostileScale() throws {
        let components = (0..<20_000).map { #"{"/": "/$(lang)/k\#($0)/*"}"# }.joined(separator: ",")
        let details = (0..<5_000).map { #"{"appID": "BAD\#($0).x", "paths": ["NOT /a\#($0)"]}"# }.joined(separator: ",")
        let text =
            #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.a.b"], "components": ["#
            + components + "]}," + details + "]}}"
        let (document, findings) = try AASALinter.lint(bytes: Array(text.utf8))
        #expect(findings.contains { $0.rule == "AASA010" })  // over 128 KB
        // All 5,000 malformed app IDs are found: 50 listed, the other 4,950 counted in one more finding.
        #expect(findings.count { $0.rule == "AASA112" } == FindingList.perRule + 1)
        #expect(findings.contains { $0.rule == "AASA112" && $0.message.hasPrefix("4950 more AASA112 findings") })
        let matcher = document.matcher(for: "A1B2C3D4E5.com.a.b")
        #expect(matcher.decide("https://example.com/fr/k3/x").rule == AASAPathRuleReference(detail: 0, component: 3))
    }

    @Test("random and mutated input never crashes")
    func fuzz() {
        var generator = SplitMix64(seed: 0xA5A5_0001)
        let seed = Array(
            #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.a.b"], "components": [{"/": "/$(lang)/*", "?": {"a": "?*"}}]}]}}"#
                .utf8
        )
        let alphabet = Array(#"{}[]",:\/*?$()0123456789eE+-. tnrfu"#.utf8) + [0x00, 0x80, 0xC3, 0xFF, 0x30]
        for _ in 0..<2_000 {
            var bytes = seed
            for _ in 0..<Int(generator.next() % 6 + 1) {
                let position = Int(generator.next() % UInt64(bytes.count))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: bytes.remove(at: position)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            do {
                let document = try AASADocument.parse(bytes)
                _ = AASALinter.lint(document)
                let explanation = document.matcher(for: "A1B2C3D4E5.com.a.b").explain("https://example.com/en/x?a=1")
                #expect(!explanation.result.why.isEmpty)
            } catch {
                #expect(!error.message.isEmpty)
                #expect((error.position?.offset ?? 0) <= bytes.count)
            }
        }
    }

    /// A pattern of many unterminated `$(` was scanned quadratically (a 1 MiB file took minutes).
    ///
    /// Now it is linted (one unterminated-variable warning, no undefined variable) and compiled as the literal text.
    @Test func megabyteOfUnterminatedVariablesIsLintedAndMatchedLiterally() throws {
        let pattern = "/" + String(repeating: "$(", count: 512 * 1024)
        let document =
            #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": ""#
            + pattern + #""}]}]}}"#
        let (parsed, findings) = try AASALinter.lint(bytes: Array(document.utf8))
        let variableFindings = findings.filter { $0.rule == "AASA114" || $0.rule == "AASA115" }
        #expect(variableFindings.map(\.rule) == ["AASA115"])

        let matcher = parsed.matcher(for: "A1B2C3D4E5.com.acme.app")
        #expect(matcher.evaluate("https://acme.example" + pattern).verdict == .match)
        #expect(matcher.evaluate("https://acme.example" + pattern + "x").verdict == .none)
    }
}

/// A small deterministic generator so fuzz runs are reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
