import Foundation
import IPACheckTestSupport
import Testing

/// Nothing an input holds reaches the terminal as a control sequence: app IDs and patterns in an AASA
/// file, entitlement values in an ipa and arguments quoted in a usage error come out with every C0/C1 control and
/// bidi override written as a visible `\u{…}` escape, in every human-readable format.
struct TerminalSafetyCLITests {
    /// ESC (C0), CSI (C1), a right-to-left override and BEL: what would clear the screen, recolour, retitle the
    /// window or reverse a line.
    static let unsafe: [Unicode.Scalar] = ["\u{1B}", "\u{9B}", "\u{202E}", "\u{07}"]

    static func expectSafe(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = text.unicodeScalars.filter { unsafe.contains($0) }
        #expect(
            found.isEmpty,
            "\(what) printed \(found.map { String($0.value, radix: 16) })",
            sourceLocation: sourceLocation
        )
    }

    /// An AASA file whose app IDs, pattern and comment carry escape sequences (JSON-escaped, so the strict parser
    /// accepts them and decodes them to real control characters).
    static func hostileAASA() throws -> String {
        let json = #"""
            {"applinks":{"details":[{"appIDs":["ABCDE12345.com.x\u001b[31mred\u202e"],
            "components":[{"/":"/x\u001b[2J*","comment":"\u009b31m"}]}]},
            "webcredentials":{"apps":["ABCDE12345.com.x\u001b]0;title\u0007"]}}
            """#
        let url = Scratch.folder.appendingPathComponent("hostile-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url.path
    }

    @Test("lint quotes hostile app IDs visibly", arguments: ["text", "github", "junit"])
    func lintQuotesVisibly(format: String) throws {
        let result = try CLI.run(["lint", try Self.hostileAASA(), "--format", format])
        #expect(result.status == 1, "the app IDs are malformed: \(result.stderr)")
        Self.expectSafe(result.stdout + result.stderr, "lint --format \(format)")
        #expect(result.stdout.contains(#"\u{1B}"#), "the escape is shown, not dropped")
    }

    @Test("match and its trace quote hostile patterns visibly", arguments: [[], ["--explain"]])
    func matchQuotesVisibly(extra: [String]) throws {
        let result = try CLI.run(
            [
                "match", "https://a.example/x1", "--aasa", try Self.hostileAASA(), "--app-id",
                "ABCDE12345.com.x\u{1B}[31mred\u{202E}",
            ]
                + extra
        )
        Self.expectSafe(result.stdout + result.stderr, "match \(extra)")
        if !extra.isEmpty { #expect(result.stdout.contains(#"\u{1B}"#), "the trace quotes the pattern") }
    }

    /// The domains an ipa is signed with are the ipa's own words: every listing and the gate show them escaped.
    @Test(
        "commands that read an ipa quote its entitlements visibly",
        arguments: [
            ["domains"], ["info"], ["entitlements"], ["entitlements", "--format", "json"], ["check", "--offline"],
            ["check", "--offline", "--format", "github"], ["check", "--offline", "--format", "junit"],
        ]
    )
    func ipaListingsQuoteVisibly(command: [String]) throws {
        let ipa = try SmallIPA.write(domains: ["applinks:evil\u{1B}[2J.example", "webcredentials:\u{202E}moc.example"])
        var arguments = [command[0], ipa] + command.dropFirst()
        if command.contains("--offline") {
            let empty = Scratch.folder.appendingPathComponent("aasa-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            arguments += ["--aasa-dir", empty.path]
        }
        let result = try CLI.run(arguments)
        Self.expectSafe(result.stdout + result.stderr, command.joined(separator: " "))
        if command.contains("json") {
            // Escaped as JSON escapes, so a JSON reader still gets the entitlement exactly as signed.
            let decoded = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            #expect("\(decoded)".contains("\u{202E}moc.example"))
        }
        if command != ["info"] {
            #expect(result.stdout.contains("evil"), "the domain is still shown: \(result.stdout)")
        }
    }

    @Test("explain quotes a hostile URL and entitlements visibly")
    func explainQuotesVisibly() throws {
        let ipa = try SmallIPA.write(domains: ["applinks:evil\u{1B}[2J.example"])
        let empty = Scratch.folder.appendingPathComponent("aasa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = try CLI.run(["explain", "https://a.example/\u{9B}31m", ipa, "--offline", "--aasa-dir", empty.path])
        Self.expectSafe(result.stdout + result.stderr, "explain")
    }

    @Test("a usage error quotes the argument visibly")
    func usageErrorQuotesVisibly() throws {
        let result = try CLI.run(["rules", "SIG\u{1B}[2J"])
        #expect(result.status == 64)
        Self.expectSafe(result.stderr, "rules")
        #expect(result.stderr.contains(#"\u{1B}"#), "\(result.stderr)")
    }
}
