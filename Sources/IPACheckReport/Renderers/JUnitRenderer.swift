/// The report as JUnit XML, the test-report format Jenkins, GitLab and GitHub test-report actions read.
///
/// `<testsuites>` holds one `<testsuite>` per input. Each rule × subject (bundle and domain) that has findings
/// is one `<testcase>` (classname `INPUT/BUNDLE`, name `RULE title [domain]`): it has a `<failure>` when any of its
/// unsuppressed findings is at or above the gate, and lists the others (below the gate, or suppressed with their
/// reason) in `<system-out>`. Each catalogue rule that was carried out and found nothing is one passing
/// `<testcase>`; each rule that was not carried out is a `<testcase>` with `<skipped message="why"/>`, never a
/// pass. An input that could not be read is a suite with one `<testcase>` holding an `<error>`. `tests`,
/// `failures`, `errors` and `skipped` count test cases. No timestamps or durations, so the output is
/// deterministic. Everything that came from an input is passed through ``UntrustedText/visible(_:)``.
package struct JUnitRenderer: ReportRendering {
    /// Creates the renderer.
    package init() {}

    /// The XML document, ending with a newline.
    package func render(_ report: Report) throws -> String {
        let suites = report.inputs.map { suite(for: $0, in: report) }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            "<testsuites"
            + Self.attributes([
                ("name", report.tool.name), ("tests", "\(suites.reduce(0) { $0 + $1.cases.count })"),
                ("failures", "\(suites.reduce(0) { $0 + $1.count(.failure) })"),
                ("errors", "\(suites.reduce(0) { $0 + $1.count(.error) })"),
                ("skipped", "\(suites.reduce(0) { $0 + $1.count(.skipped) })"),
            ])
        if suites.isEmpty { return xml + "/>\n" }
        xml += ">\n"
        for suite in suites {
            xml +=
                "  <testsuite"
                + Self.attributes([
                    ("name", suite.name), ("tests", "\(suite.cases.count)"), ("failures", "\(suite.count(.failure))"),
                    ("errors", "\(suite.count(.error))"), ("skipped", "\(suite.count(.skipped))"),
                ]) + ">\n"
            for testCase in suite.cases {
                xml += "    <testcase" + Self.attributes([("name", testCase.name), ("classname", testCase.className)])
                if testCase.result == nil && testCase.output == nil {
                    xml += "/>\n"
                    continue
                }
                xml += ">\n"
                switch testCase.result {
                case .failure(let message, let type, let body):
                    xml +=
                        "      <failure" + Self.attributes([("message", message), ("type", type)]) + ">"
                        + Self.escapeText(body) + "</failure>\n"
                case .error(let message, let type):
                    xml += "      <error" + Self.attributes([("message", message), ("type", type)]) + "/>\n"
                case .skipped(let message):
                    xml += "      <skipped" + Self.attributes([("message", message)]) + "/>\n"
                case nil:
                    break
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

        func count(_ kind: TestCase.Kind) -> Int { cases.filter { $0.result?.kind == kind }.count }
    }

    private struct TestCase {
        enum Kind { case failure, error, skipped }

        enum Result {
            case failure(message: String, type: String, body: String)
            /// `type` is the report's error kind: `unreadable`, `notChecked` or `incomplete`.
            case error(message: String, type: String)
            case skipped(message: String)

            var kind: Kind {
                switch self {
                case .failure: .failure
                case .error: .error
                case .skipped: .skipped
                }
            }
        }

        let name: String
        let className: String
        var result: Result? = nil
        var output: String? = nil
    }

    private struct Subject: Hashable {
        let rule: String
        let bundle: String?
        let domain: String?
    }

    private func suite(for input: Report.Input, in report: Report) -> Suite {
        let name = UntrustedText.visibleOnOneLine(input.path)
        if let sentence = input.errorSentence, input.errorKind != .incomplete {
            return Suite(
                name: name,
                cases: [
                    TestCase(
                        name: "read \(name)",
                        className: name,
                        result: .error(
                            message: UntrustedText.visibleOnOneLine(sentence),
                            type: (input.errorKind ?? .unreadable).rawValue
                        )
                    )
                ]
            )
        }
        var order: [Subject] = []
        var groups: [Subject: [Report.Entry]] = [:]
        for entry in report.findings where entry.input == input.path {
            let subject = Subject(rule: entry.rule, bundle: entry.bundle, domain: entry.domain)
            if groups[subject] == nil { order.append(subject) }
            groups[subject, default: []].append(entry)
        }
        var cases = order.map { subject in
            testCase(for: subject, entries: groups[subject] ?? [], input: name, report: report)
        }
        if let error = input.error {
            // Checked in part: the part that could not run is an error case of its own, beside the findings.
            let message = "checked only in part: " + UntrustedText.visibleOnOneLine(error)
            let result = TestCase.Result.error(message: message, type: Report.ErrorKind.incomplete.rawValue)
            cases.insert(TestCase(name: "check \(name)", className: name, result: result), at: 0)
        }
        let fired = Set(order.map(\.rule))
        for rule in report.rules where !fired.contains(rule.id) {
            var testCase = TestCase(name: "\(rule.id) \(rule.title)", className: name)
            if case .notRun(let reason) = report.outcome(of: rule.id, for: input) {
                testCase.result = .skipped(message: "not checked: " + reason)
            }
            cases.append(testCase)
        }
        return Suite(name: name, cases: cases)
    }

    private func testCase(for subject: Subject, entries: [Report.Entry], input: String, report: Report) -> TestCase {
        var name = [subject.rule, report.rule(withID: subject.rule)?.title].compactMap { $0 }.joined(separator: " ")
        if let domain = subject.domain { name += " [" + UntrustedText.visibleOnOneLine(domain) + "]" }
        let className = [input, subject.bundle.map(UntrustedText.visibleOnOneLine)].compactMap { $0 }
            .joined(separator: "/")
        let failing = entries.filter { $0.suppression == nil && report.gate.fails($0.severity) }
        let others = entries.filter { !($0.suppression == nil && report.gate.fails($0.severity)) }
        var testCase = TestCase(name: name, className: className)
        if let worst = failing.first {
            testCase.result = .failure(
                message: UntrustedText.visibleOnOneLine(worst.message),
                type: worst.severity.rawValue,
                body: failing.map(Self.describe).joined(separator: "\n\n")
            )
        }
        testCase.output = others.isEmpty ? nil : others.map(Self.describe).joined(separator: "\n\n")
        return testCase
    }

    /// `error AASA104: message`, then `url:`, `at:`, `affects:` and `fix:` (or `suppressed:`) lines.
    private static func describe(_ entry: Report.Entry) -> String {
        let finding = entry.finding
        var lines = ["\(finding.severity.rawValue) \(finding.rule): \(finding.message)"]
        if let url = finding.url { lines.append("url: " + url) }
        if let location = finding.location { lines.append("at: " + location) }
        if let affects = finding.affects { lines.append("affects: " + affects.joined(separator: ", ")) }
        if let suppression = entry.suppression {
            lines.append("suppressed: " + suppression.reason)
        } else if let fix = finding.fix {
            lines.append("fix: " + fix)
        }
        return UntrustedText.visible(lines.joined(separator: "\n"))
    }

    private static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { name, value in " \(name)=\"\(escapeAttribute(value))\"" }.joined()
    }

    /// Character data: `&`, `<` and `>` escaped; characters XML 1.0 cannot hold at all (most C0 controls,
    /// U+FFFE, U+FFFF) become U+FFFD, since not even a character reference may name them.
    package static func escapeText(_ text: String) -> String {
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
    package static func escapeAttribute(_ text: String) -> String {
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
