/// The report as JUnit XML, the test-report format Jenkins, GitLab and GitHub test-report actions read.
///
/// `<testsuites>` holds one `<testsuite>` per input. Each rule × subject (bundle and domain) that has findings
/// is one `<testcase>` (classname `INPUT/BUNDLE`, name `RULE title [domain]`): it has a `<failure>` when any of its findings is at or above the gate, and lists findings
/// below the gate in `<system-out>`. Each catalogue rule that found nothing in an input is one passing
/// `<testcase>`. `tests` and `failures` count test cases; `errors` and `skipped` are always 0 (ipacheck's own
/// failures exit with status 2 instead). No timestamps or durations, so the output is deterministic.
public struct JUnitRenderer: ReportRendering {
    /// Creates the renderer.
    public init() {}

    /// The XML document, ending with a newline.
    public func render(_ report: Report) throws -> String {
        let suites = report.inputs.map { suite(for: $0, in: report) }
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            "<testsuites"
            + Self.attributes([
                ("name", report.tool.name), ("tests", "\(tests)"), ("failures", "\(failures)"), ("errors", "0"),
                ("skipped", "0"),
            ])
        if suites.isEmpty { return xml + "/>\n" }
        xml += ">\n"
        for suite in suites {
            xml +=
                "  <testsuite"
                + Self.attributes([
                    ("name", suite.name), ("tests", "\(suite.cases.count)"), ("failures", "\(suite.failures)"),
                    ("errors", "0"), ("skipped", "0"),
                ]) + ">\n"
            for testCase in suite.cases {
                xml += "    <testcase" + Self.attributes([("name", testCase.name), ("classname", testCase.className)])
                if testCase.failure == nil && testCase.output == nil {
                    xml += "/>\n"
                    continue
                }
                xml += ">\n"
                if let failure = testCase.failure {
                    xml +=
                        "      <failure"
                        + Self.attributes([("message", failure.message), ("type", failure.type)]) + ">"
                        + Self.escapeText(failure.body) + "</failure>\n"
                }
                if let output = testCase.output {
                    xml += "      <system-out>" + Self.escapeText(output) + "</system-out>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private struct Suite {
        let name: String
        let cases: [TestCase]
        var failures: Int { cases.filter { $0.failure != nil }.count }
    }

    private struct TestCase {
        let name: String
        let className: String
        let failure: Failure?
        let output: String?
    }

    private struct Failure {
        let message: String
        let type: String
        let body: String
    }

    private struct Subject: Hashable {
        let rule: String
        let bundle: String?
        let domain: String?
    }

    private func suite(for input: Report.Input, in report: Report) -> Suite {
        var order: [Subject] = []
        var groups: [Subject: [Finding]] = [:]
        for entry in report.findings where entry.input == input.path {
            let subject = Subject(rule: entry.rule, bundle: entry.bundle, domain: entry.domain)
            if groups[subject] == nil { order.append(subject) }
            groups[subject, default: []].append(entry.finding)
        }
        var cases = order.map { subject in
            testCase(for: subject, findings: groups[subject] ?? [], input: input.path, report: report)
        }
        let fired = Set(order.map(\.rule))
        for rule in report.rules where !fired.contains(rule.id) {
            cases.append(TestCase(name: "\(rule.id) \(rule.title)", className: input.path, failure: nil, output: nil))
        }
        return Suite(name: input.path, cases: cases)
    }

    private func testCase(for subject: Subject, findings: [Finding], input: String, report: Report) -> TestCase {
        var name = [subject.rule, report.rule(withID: subject.rule)?.title].compactMap { $0 }.joined(separator: " ")
        if let domain = subject.domain { name += " [" + domain + "]" }
        let className = [input, subject.bundle].compactMap { $0 }.joined(separator: "/")
        let failing = findings.filter { report.gate.fails($0.severity) }
        let passing = findings.filter { !report.gate.fails($0.severity) }
        let failure = failing.first.map { worst in
            Failure(
                message: worst.message,
                type: worst.severity.rawValue,
                body: failing.map(Self.describe).joined(separator: "\n\n")
            )
        }
        let output = passing.isEmpty ? nil : passing.map(Self.describe).joined(separator: "\n\n")
        return TestCase(name: name, className: className, failure: failure, output: output)
    }

    /// `error AASA104: message`, then `url:`, `at:` and `fix:` lines.
    private static func describe(_ finding: Finding) -> String {
        var lines = ["\(finding.severity.rawValue) \(finding.rule): \(finding.message)"]
        if let url = finding.url { lines.append("url: " + url) }
        if let location = finding.location { lines.append("at: " + location) }
        if let fix = finding.fix { lines.append("fix: " + fix) }
        return lines.joined(separator: "\n")
    }

    private static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { name, value in " \(name)=\"\(escapeAttribute(value))\"" }.joined()
    }

    /// Character data: `&`, `<` and `>` escaped; characters XML 1.0 cannot hold at all (most C0 controls,
    /// U+FFFE, U+FFFF) become U+FFFD, since not even a character reference may name them.
    static func escapeText(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(allowedInXML(scalar) ? scalar : "\u{FFFD}")
            }
        }
        return out
    }

    /// An attribute value in double quotes: as text, plus `"` escaped and tab, LF and CR as character references
    /// (a parser would otherwise normalise them to spaces).
    static func escapeAttribute(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(allowedInXML(scalar) ? scalar : "\u{FFFD}")
            }
        }
        return out
    }

    /// XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
    private static func allowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
