import IPACheckAASA
import IPACheckGate
import IPACheckReport
import Testing

/// Each lint rule against a minimal document that has (or lacks) the problem; rule semantics from docs/matching.md,
/// §2.2 and §6E.
@Suite("AASA lint")
struct LintTests {
    private func findings(_ text: String) throws -> [Finding] {
        try AASALinter.lint(bytes: Array(text.utf8)).findings
    }

    struct LintCase: Sendable, CustomTestStringConvertible {
        var name: String
        var document: String
        var rule: String
        var location: String?
        var severity: Severity? = nil
        var testDescription: String { "\(rule) \(name)" }
    }

    static let cases: [LintCase] = [
        LintCase(
            name: "paths beside components (TN3155, M21)",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "paths": ["*"], "components": [{"/": "*"}]}]}}"#,
            rule: "AASA101",
            location: "applinks.details[0]"
        ),
        LintCase(
            name: "appID beside appIDs without it (M20)",
            document:
                #"{"applinks": {"details": [{"appID": "A1B2C3D4E5.com.acme.app", "appIDs": ["A1B2C3D4E5.com.acme.two"], "components": [{"/": "*"}]}]}}"#,
            rule: "AASA127",
            location: "applinks.details[0]",
            severity: .error
        ),
        LintCase(
            name: "appID beside appIDs that also lists it (M20): harmless, a warning",
            document:
                #"{"applinks": {"details": [{"appID": "A1B2C3D4E5.com.acme.app", "appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "*"}]}]}}"#,
            rule: "AASA102",
            location: "applinks.details[0]",
            severity: .warning
        ),
        LintCase(
            name: "unknown top-level key resembling nothing: ignored, a note",
            document:
                #"{"x-generated-by": "site builder", "applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "*"}]}]}}"#,
            rule: "AASA125",
            location: "x-generated-by",
            severity: .note
        ),
        LintCase(
            name: "exclude: true in defaults makes every component exclude",
            document:
                #"{"applinks": {"defaults": {"exclude": true}, "details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/a/*"}]}]}}"#,
            rule: "AASA128",
            location: "applinks.defaults",
            severity: .warning
        ),
        LintCase(
            name: "legacy apps not empty",
            document:
                #"{"applinks": {"apps": ["A1B2C3D4E5.com.acme.app"], "details": [{"appID": "A1B2C3D4E5.com.acme.app", "paths": ["*"]}]}}"#,
            rule: "AASA103",
            location: "applinks.apps"
        ),
        LintCase(
            name: "rule after a catch-all (M1)",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "*"}, {"/": "/buy/*", "exclude": true}]}]}}"#,
            rule: "AASA104",
            location: "applinks.details[0].components[1]"
        ),
        LintCase(
            name: "rule covered by a broader prefix",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/buy/*"}, {"/": "/buy/42"}]}]}}"#,
            rule: "AASA104",
            location: "applinks.details[0].components[1]"
        ),
        LintCase(
            name: "duplicate rule",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/a", "comment": "x"}, {"/": "a/"}]}]}}"#,
            rule: "AASA105",
            location: "applinks.details[0].components[1]"
        ),
        LintCase(
            name: "second details entry for the same app (M22)",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/a"}]}, {"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/b"}]}]}}"#,
            rule: "AASA106",
            location: "applinks.details[1]"
        ),
        LintCase(
            name: "path key makes a catch-all (M18)",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"path": "/x/*"}]}]}}"#,
            rule: "AASA129",
            location: "applinks.details[0].components[0]",
            severity: .error
        ),
        LintCase(
            name: "casesensitive typo (M18)",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/A", "casesensitive": false}]}]}}"#,
            rule: "AASA107",
            location: "applinks.details[0].components[0]",
            severity: .warning
        ),
        LintCase(
            name: "exclude catch-all",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"exclude": true, "comment": "oops"}, {"/": "*"}]}]}}"#,
            rule: "AASA108",
            location: "applinks.details[0].components[0]",
            severity: .error
        ),
        LintCase(
            name: "exclude with query item * (M3+M10)",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"?": {"no_universal_links": "*"}, "exclude": true}, {"/": "*"}]}]}}"#,
            rule: "AASA108",
            location: "applinks.details[0].components[0]",
            severity: .error
        ),
        LintCase(
            name: "query in a path",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/search?q=*"}]}]}}"#,
            rule: "AASA109",
            location: "applinks.details[0].components[0]"
        ),
        LintCase(
            name: "hash route in a path (M13)",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/#/market/*"}]}]}}"#,
            rule: "AASA110",
            location: "applinks.details[0].components[0]"
        ),
        LintCase(
            name: "trailing exclude component",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/a/*"}, {"/": "/b/*", "exclude": true}]}]}}"#,
            rule: "AASA111",
            location: "applinks.details[0].components[1]"
        ),
        LintCase(
            name: "nine-character prefix",
            document: #"{"webcredentials": {"apps": ["W7JAY4CE8.me.example.App"]}}"#,
            rule: "AASA112",
            location: "webcredentials.apps[0]"
        ),
        LintCase(
            name: "no bundle part",
            document: #"{"webcredentials": {"apps": ["A1B2C3D4E5"]}}"#,
            rule: "AASA112",
            location: "webcredentials.apps[0]"
        ),
        LintCase(
            name: "placeholder prefix",
            document: #"{"appclips": {"apps": ["ABCDE12345.com.acme.app.Clip"]}}"#,
            rule: "AASA113",
            location: "appclips.apps[0]"
        ),
        LintCase(
            name: "undefined variable",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/$(food)/*"}]}]}}"#,
            rule: "AASA114",
            location: "applinks.details[0].components[0]"
        ),
        LintCase(
            name: "unterminated variable",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/$(lang/*"}]}]}}"#,
            rule: "AASA115",
            location: "applinks.details[0].components[0]"
        ),
        LintCase(
            name: "non-string query value (M12)",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/a", "?": {"flag": true}}]}]}}"#,
            rule: "AASA116",
            location: "applinks.details[0].components[0]"
        ),
        LintCase(
            name: "exclude as a string",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/a", "exclude": "true"}, {"/": "*"}]}]}}"#,
            rule: "AASA117",
            location: "applinks.details[0].components[0]"
        ),
        LintCase(
            name: "appIDs as a string",
            document:
                #"{"applinks": {"details": [{"appIDs": "A1B2C3D4E5.com.acme.app", "components": [{"/": "*"}]}]}}"#,
            rule: "AASA117",
            location: "applinks.details[0].appIDs"
        ),
        LintCase(
            name: "misspelled service",
            document: #"{"applink": {"details": []}, "webcredentials": {"apps": ["A1B2C3D4E5.com.acme.app"]}}"#,
            rule: "AASA118",
            location: "applink",
            severity: .warning
        ),
        LintCase(
            name: "legacy details dictionary with two apps",
            document:
                #"{"applinks": {"apps": [], "details": {"A1B2C3D4E5.com.acme.app": {"paths": ["*"]}, "A1B2C3D4E5.com.acme.two": {"paths": ["*"]}}}}"#,
            rule: "AASA119",
            location: "applinks.details",
            severity: .warning
        ),
        LintCase(
            name: "variable value referencing a variable",
            document:
                #"{"applinks": {"substitutionVariables": {"x": ["$(lang)"]}, "details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/$(x)"}]}]}}"#,
            rule: "AASA120",
            location: "applinks.substitutionVariables.x"
        ),
        LintCase(
            name: "empty components (M21)",
            document: #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": []}]}}"#,
            rule: "AASA121",
            location: "applinks.details[0]"
        ),
        LintCase(
            name: "empty appIDs (M20)",
            document: #"{"applinks": {"details": [{"appIDs": [], "components": [{"/": "*"}]}]}}"#,
            rule: "AASA122",
            location: "applinks.details[0]"
        ),
        LintCase(
            name: "empty apps",
            document: #"{"webcredentials": {"apps": []}}"#,
            rule: "AASA123",
            location: "webcredentials.apps"
        ),
        LintCase(
            name: "query item * does not require the item (M10)",
            document:
                #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/reset", "?": {"token": "*"}}]}]}}"#,
            rule: "AASA124",
            location: "applinks.details[0].components[0]"
        ),
    ]

    @Test(arguments: cases)
    func finds(_ testCase: LintCase) throws {
        let found = try findings(testCase.document).filter { $0.rule == testCase.rule }
        let hit = found.first { $0.location == testCase.location }
        #expect(hit != nil, "found \(found.map { "\($0.location ?? "-"): \($0.message)" })")
        if let severity = testCase.severity { #expect(hit?.severity == severity) }
    }

    @Test("a well-formed modern file has no findings")
    func clean() throws {
        let text = #"""
            {"applinks": {"defaults": {"caseSensitive": false},
              "substitutionVariables": {"food": ["pizza", "sushi"]},
              "details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [
                {"/": "/buy/*", "exclude": true, "comment": "checkout stays on the web"},
                {"#": "no_universal_links", "exclude": true},
                {"/": "/$(lang)/$(food)/*"},
                {"/": "/r/*", "?": {"id": "?*"}}]}]},
             "webcredentials": {"apps": ["A1B2C3D4E5.com.acme.app"]},
             "appclips": {"apps": ["A1B2C3D4E5.com.acme.app.Clip"]}}
            """#
        #expect(try findings(text).isEmpty)
    }

    @Test("Twitter-style legacy NOT list: ordered exceptions are not flagged")
    func orderedExceptions() throws {
        let text =
            #"{"applinks": {"apps": [], "details": [{"appID": "A1B2C3D4E5.com.acme.app", "paths": ["/settings/account", "NOT /settings/*", "/*"]}]}}"#
        let rules = try findings(text).map(\.rule)
        #expect(!rules.contains("AASA104"))
        #expect(!rules.contains("AASA111"))
    }

    @Test("rule catalogue: unique IDs with the AASA prefix, each documented")
    func catalogue() {
        let ids = AASARules.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in AASARules.all {
            #expect(rule.id.hasPrefix("AASA"))
            #expect(!rule.title.isEmpty && !rule.summary.isEmpty && !rule.fix.isEmpty)
        }
    }
}
