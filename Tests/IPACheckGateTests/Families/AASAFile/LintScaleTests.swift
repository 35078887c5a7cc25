import Foundation
import IPACheckAASA
import IPACheckGate
import IPACheckReport
import Testing

/// Lint on files far larger than Apple reads: the same findings as on small files, in time linear in the file
/// (hostile inputs).
struct LintScaleTests {
    static let appID = "A1B2C3D4E5.com.acme.app"

    static func lint(components: [[String: String]], variables: [String: [String]] = [:]) throws -> [Finding] {
        let applinks: [String: Any] = [
            "substitutionVariables": variables,
            "details": [["appIDs": [appID], "components": components]],
        ]
        let data = try JSONSerialization.data(withJSONObject: ["applinks": applinks])
        return try AASALinter.lint(bytes: Array(data)).findings
    }

    /// Duplicates are found among rules that use a large variable; hashing its 50,000 values once per rule made
    /// 20,000 such rules take minutes.
    @Test func duplicatesAmongRulesUsingALargeVariable() throws {
        let values = (0..<50_000).map { "value\($0)" }
        var components = (0..<20_000).map { ["/": "/$(v)/\($0)"] }
        components.append(["/": "/$(v)/7"])
        let findings = try Self.lint(components: components, variables: ["v": values])
        let duplicates = findings.filter { $0.rule == "AASA105" }
        #expect(duplicates.map(\.location) == ["applinks.details[0].components[20000]"])
        #expect(!findings.contains { $0.rule == "AASA104" })
    }

    /// One app ID listed 20,000 times raised 20,000 findings of each of two rules (80,000 took 360 MB): the first
    /// 50 of a rule are listed and one more finding counts the rest; a repeat of a listed finding is dropped.
    @Test func aRuleRaisedThousandsOfTimesIsListedFiftyTimesAndCounted() throws {
        let applinks: [String: Any] = [
            "details": [["appIDs": Array(repeating: "ABCDE12345.com.example.app", count: 20_000), "paths": ["/a/*"]]]
        ]
        let data = try JSONSerialization.data(withJSONObject: ["applinks": applinks])
        let findings = try AASALinter.lint(bytes: Array(data)).findings
        // AASA113 names each placement of the app ID: 50 listed, one more finding stands for the other 19,950.
        let placeholders = findings.filter { $0.rule == "AASA113" }
        #expect(placeholders.count == FindingList.perRule + 1)
        let more = placeholders.first { $0.message.hasPrefix("19950 more AASA113 findings are not listed") }
        #expect(more?.occurrences == 19_950)
        // AASA106 says the same thing of the same entry each time: one cause, one finding.
        #expect(findings.filter { $0.rule == "AASA106" }.count == 1)
    }

    /// Long distinct paths: none covers another, and comparing them in pairs (with every pair folding and slicing
    /// both paths again) no longer takes minutes.
    @Test func longDistinctPathsCoverNothing() throws {
        let stem = String(repeating: "a", count: 4_000)
        let components = (0..<500).map { ["/": "/\(stem)\(String(format: "%04d", $0))*"] }
        let findings = try Self.lint(components: components)
        #expect(!findings.contains { $0.rule == "AASA104" || $0.rule == "AASA105" })
    }

    /// Rules are compared for coverage while the paths read so far fit in Apple's 128 KB file limit (docs/rules.md, AASA010):
    /// a broad rule first, then narrower ones it covers, each reported until the paths exceed the limit.
    @Test func coverageIsComparedWithinApplesSizeLimit() throws {
        let stem = "/" + String(repeating: "b", count: 1_000)
        let broad = stem + "/*"
        let narrow = (0..<300).map { "\(stem)/\($0)" }
        let findings = try Self.lint(components: [["/": broad]] + narrow.map { ["/": $0] })
        // Paths are counted without their leading slash: the broad one, then each narrow one in turn.
        var bytes = broad.utf8.count - 1
        var expected: [String] = []
        for (offset, path) in narrow.enumerated() {
            bytes += path.utf8.count - 1
            if bytes <= 131_072 { expected.append("applinks.details[0].components[\(offset + 1)]") }
        }
        #expect(expected.count > 100 && expected.count < narrow.count)
        // The first 50 are listed (FindingList), and one more finding counts the others.
        let reported = findings.filter { $0.rule == "AASA104" }.compactMap(\.location)
        #expect(reported.sorted() == expected.prefix(FindingList.perRule).sorted())
        let more = expected.count - FindingList.perRule
        #expect(findings.contains { $0.rule == "AASA104" && $0.message.hasPrefix("\(more) more AASA104 findings") })
    }

    /// Every pattern is checked against the defined variables; building that set for each pattern made 40,000
    /// variables and 40,000 rules take minutes.
    @Test func undefinedVariableAmongManyVariablesAndRules() throws {
        let count = 40_000
        let variables = Dictionary(uniqueKeysWithValues: (0..<count).map { ("v\($0)", ["x"]) })
        var components = (0..<count).map { ["/": "/$(v\($0))/\($0)"] }
        components.append(["/": "/$(missing)"])
        let findings = try Self.lint(components: components, variables: variables)
        let undefined = findings.filter { $0.rule == "AASA114" }
        #expect(undefined.map(\.location) == ["applinks.details[0].components[\(count)]"])
    }

    /// A malformed prefix that contains a prefix used elsewhere gets it suggested; one of a megabyte is not searched
    /// for each of the file's known prefixes (100 searches through a megabyte per app ID).
    @Test func typoSuggestionsOnlyForShortPrefixes() throws {
        let known = (0..<100).map { String(format: "K%09d", $0).replacingOccurrences(of: "0", with: "Q") }
        let typo = known[7] + "Z.com.acme.app"
        let huge = String(repeating: "X", count: 1_000_000) + known[7] + ".com.acme.app"
        let apps = known.map { "\($0).com.acme.app" } + [typo, huge]
        let data = try JSONSerialization.data(withJSONObject: ["webcredentials": ["apps": apps]])
        let findings = try AASALinter.lint(bytes: Array(data)).findings.filter { $0.rule == "AASA112" }
        #expect(findings.count == 2)
        let typoFinding = findings.first { $0.location == "webcredentials.apps[100]" }
        #expect(typoFinding?.message.contains("did you mean \(known[7])") == true)
        let hugeFinding = findings.first { $0.location == "webcredentials.apps[101]" }
        #expect(hugeFinding.map { !$0.message.contains("did you mean") } == true)
    }
}
