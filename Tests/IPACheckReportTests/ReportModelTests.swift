import Foundation
import IPACheckReport
import Testing

/// The report model and the `--fail-on` gate.
///
/// Expected orders and counts follow docs/output-formats.md ("findings ... worst
/// first", exit 1 for "problems at or above `--fail-on`"; the same input gives the same output, sorted).
struct ReportModelTests {
    @Test func sortsWorstFirstThenByInputOrder() {
        let report = Report(
            tool: Sample.tool,
            checked: [
                "A.ipa": [Sample.noteRule.finding("a note"), Sample.mixedFormats.finding("a error")],
                "B.ipa": [Sample.unsafePath.finding("b warning"), Sample.mixedFormats.finding("b error")],
            ]
        )
        #expect(report.findings.map(\.message) == ["a error", "b error", "b warning", "a note"])
        #expect(report.findings.map(\.input) == ["A.ipa", "B.ipa", "B.ipa", "A.ipa"])
        #expect(report.inputs.map(\.path) == ["A.ipa", "B.ipa"])
    }

    @Test func sortsWithinASeverityByBundleThenDomain() {
        let report = Report(
            tool: Sample.tool,
            checked: [
                "A.ipa": [
                    Sample.mixedFormats.finding("3", bundle: "Payload/B.app", domain: "applinks:a.com"),
                    Sample.mixedFormats.finding("2", bundle: "Payload/A.app", domain: "applinks:b.com"),
                    Sample.mixedFormats.finding("1", bundle: "Payload/A.app", domain: "applinks:a.com"),
                ]
            ]
        )
        #expect(report.findings.map(\.message) == ["1", "2", "3"])
    }

    @Test func countsPerInputAndOverall() {
        let report = Sample.report()
        #expect(report.summary == Report.Summary(errors: 1, warnings: 1, notes: 1))
        #expect(report.inputs[0].summary == Report.Summary(errors: 1, warnings: 1, notes: 1))
        #expect(report.inputs[1].summary == Report.Summary())
        #expect(report.summary.total == 3)
        #expect(report.summary.description == "1 error, 1 warning, 1 note")
        #expect(Report.Summary(errors: 0, warnings: 2, notes: 5).description == "0 errors, 2 warnings, 5 notes")
    }

    struct GateCase: Sendable, CustomTestStringConvertible {
        let failOn: Severity
        let severities: [Severity]
        let fails: Bool
        var testDescription: String { "--fail-on \(failOn) with \(severities)" }
    }

    /// "at or above `--fail-on`": error > warning > note.
    static let gateCases: [GateCase] = [
        GateCase(failOn: .error, severities: [], fails: false),
        GateCase(failOn: .error, severities: [.note, .warning], fails: false),
        GateCase(failOn: .error, severities: [.error], fails: true),
        GateCase(failOn: .warning, severities: [.note], fails: false),
        GateCase(failOn: .warning, severities: [.warning], fails: true),
        GateCase(failOn: .warning, severities: [.note, .error], fails: true),
        GateCase(failOn: .note, severities: [], fails: false),
        GateCase(failOn: .note, severities: [.note], fails: true),
    ]

    @Test(arguments: gateCases)
    func gateFailsAtOrAboveThreshold(_ testCase: GateCase) {
        let gate = FailThreshold(failOn: testCase.failOn)
        let findings = testCase.severities.map { Finding(rule: "X001", severity: $0, message: "m") }
        #expect(gate.fails(findings) == testCase.fails)
        #expect(gate.exitCode(for: findings) == (testCase.fails ? 1 : 0))
        let report = Report(tool: Sample.tool, gate: gate, checked: ["App.ipa": findings])
        #expect(report.verdict == (testCase.fails ? .fail : .pass))
        #expect(report.exitCode == (testCase.fails ? 1 : 0))
        #expect(report.inputs.first?.verdict == report.verdict)
    }

    @Test func gateParsesTheFailOnArgument() {
        #expect(FailThreshold(argument: "error") == FailThreshold(failOn: .error))
        #expect(FailThreshold(argument: "warning")?.failOn == .warning)
        #expect(FailThreshold(argument: "note")?.failOn == .note)
        #expect(FailThreshold(argument: "Error") == nil)
        #expect(FailThreshold(argument: "fatal") == nil)
        #expect(FailThreshold(argument: "") == nil)
        #expect(FailThreshold.default.failOn == .error)
        #expect(FailThreshold(failOn: .warning).description == "--fail-on warning")
    }

    @Test func perInputVerdicts() {
        let report = Report(
            tool: Sample.tool,
            checked: ["Bad.ipa": [Sample.mixedFormats.finding("x")], "Good.ipa": [Sample.unsafePath.finding("y")]]
        )
        #expect(report.inputs.map(\.verdict) == [.fail, .pass])
        #expect(report.verdict == .fail)
    }

    @Test func addingTheSameInputAgainMerges() {
        var report = Report(tool: Sample.tool)
        report.add(input: "App.ipa", findings: [Sample.unsafePath.finding("first")])
        report.add(input: "App.ipa", findings: [Sample.mixedFormats.finding("second")])
        #expect(report.inputs.count == 1)
        #expect(report.inputs[0].summary == Report.Summary(errors: 1, warnings: 1, notes: 0))
        #expect(report.findings.map(\.message) == ["second", "first"])
    }

    @Test func rulesAreDeduplicatedAndSortedByID() {
        let duplicate = Rule("TAA104", .note, "other", summary: "s", fix: "f")
        let report = Report(tool: Sample.tool, rules: Sample.rules + [duplicate])
        #expect(report.rules.map(\.id) == ["TAA104", "TAR001", "TEN010", "ZZZ999"])
        #expect(report.rule(withID: "TAA104")?.title == "mixed legacy and modern formats")
        #expect(report.rule(withID: "NOPE") == nil)
    }

    @Test func emptyReportPasses() {
        let report = Report(tool: Sample.tool)
        #expect(report.findings.isEmpty)
        #expect(report.summary == Report.Summary())
        #expect(report.verdict == .pass)
        #expect(report.exitCode == 0)
    }

    // MARK: JSON

    private func jsonObject(_ report: Report) throws -> [String: Any] {
        let text = try JSONRenderer().render(report)
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// docs/output-formats.md: `{"findings": [...], "summary": {"errors": n, "warnings": n, "notes": n}}`; findings carry
    /// `rule`, `severity`, `message` and, where they apply, `bundle`, `domain`, `url`, `fix`.
    @Test func jsonHasTheContractShape() throws {
        let object = try jsonObject(Sample.report())
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["errors": 1, "warnings": 1, "notes": 1])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 3)
        let first = try #require(findings.first)
        #expect(first["rule"] as? String == "TAA104")
        #expect(first["severity"] as? String == "error")
        #expect(first["message"] as? String == "The file mixes formats.")
        #expect(first["bundle"] as? String == "Payload/App.app")
        #expect(first["domain"] as? String == "applinks:example.com")
        #expect(first["fix"] as? String == "Use only `components`.")
        #expect(first["input"] as? String == "build/App.ipa")
        #expect(first["url"] == nil)
        #expect(findings.map { $0["severity"] as? String } == ["error", "warning", "note"])
        #expect(object["verdict"] as? String == "fail")
        #expect((object["gate"] as? [String: String]) == ["failOn": "error"])
        let inputs = try #require(object["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["path"] as? String } == ["build/App.ipa", "Clean App.ipa"])
        #expect(inputs.map { $0["verdict"] as? String } == ["fail", "pass"])
        let tool = try #require(object["tool"] as? [String: String])
        #expect(tool == ["name": "ipacheck", "version": "1.2.0", "informationUri": "https://example.com/ipacheck"])
        let rules = try #require(object["rules"] as? [[String: String]])
        #expect(rules.map { $0["id"] } == ["TAA104", "TAR001", "TEN010", "ZZZ999"])
    }

    @Test func jsonIsDeterministicWithSortedKeysAndPlainSlashes() throws {
        let text = try JSONRenderer().render(Sample.report())
        #expect(text == (try JSONRenderer().render(Sample.report())))
        #expect(text.hasSuffix("}\n"))
        #expect(text.contains(#""bundle" : "Payload/App.app""#))
        #expect(!text.contains(#"\/"#))
        let topLevel = ["findings", "gate", "inputs", "rules", "summary", "tool", "verdict"]
        let positions = try topLevel.map { key in
            try #require(text.range(of: "\n  \"\(key)\" : ")).lowerBound
        }
        #expect(positions == positions.sorted())
    }

    @Test func jsonRoundTrips() throws {
        let report = Sample.report()
        let text = try JSONRenderer().render(report)
        let decoded = try JSONDecoder().decode(Report.self, from: Data(text.utf8))
        #expect(decoded == report)
    }

    @Test func emptyReportJSON() throws {
        let object = try jsonObject(Report(tool: Sample.tool))
        #expect((object["findings"] as? [Any])?.isEmpty == true)
        #expect((object["summary"] as? [String: Int]) == ["errors": 0, "warnings": 0, "notes": 0])
        #expect(object["verdict"] as? String == "pass")
    }
}
