/// The report for people: each input, then its bundles, then their domains, each finding with its severity,
/// rule ID, message and `fix:` line, and one verdict line at the end that names the gate.
///
/// Groups are ordered worst first (a group ranks by its worst finding; ties keep the order findings are sorted in),
/// and a parent's own findings form a group like any other. Example:
///
///     App.ipa  ✗ FAIL  1 error, 0 warnings, 0 notes
///       Payload/App.app
///         applinks:example.com
///           error   AASA104  The AASA file mixes legacy and modern formats.
///               fix: Use only `components`.
///
///     ✗ FAIL  1 error, 0 warnings, 0 notes (gate: --fail-on error)
public struct TextRenderer: ReportRendering {
    /// Colours or not.
    public let style: TextStyle

    /// Creates the renderer; pass ``TextStyle/plain`` for files, pipes and `NO_COLOR`.
    public init(style: TextStyle = .plain) {
        self.style = style
    }

    /// The grouped findings and the verdict line, ending with a newline.
    public func render(_ report: Report) throws -> String {
        var lines: [String] = []
        for input in report.inputs {
            lines.append(style.bold(input.path) + "  " + verdictLabel(input.verdict) + "  " + input.summary.description)
            let entries = report.findings.filter { $0.input == input.path }
            if entries.isEmpty {
                lines.append("  " + style.dim("no findings"))
            }
            for bundleGroup in Self.grouped(entries, by: \.bundle) {
                var indent = 2
                if let bundle = bundleGroup.key {
                    lines.append(String(repeating: " ", count: indent) + style.bold(bundle))
                    indent += 2
                }
                for domainGroup in Self.grouped(bundleGroup.entries, by: \.domain) {
                    var depth = indent
                    if let domain = domainGroup.key {
                        lines.append(String(repeating: " ", count: depth) + domain)
                        depth += 2
                    }
                    for entry in domainGroup.entries {
                        lines += findingLines(entry.finding, indent: depth)
                    }
                }
            }
            lines.append("")
        }
        let verdict = verdictLabel(report.verdict) + "  " + report.summary.description + " (gate: \(report.gate))"
        lines.append(verdict)
        return lines.joined(separator: "\n") + "\n"
    }

    private func verdictLabel(_ verdict: Report.Verdict) -> String {
        switch verdict {
        case .pass: style.bold(style.green("✓ PASS"))
        case .fail: style.bold(style.red("✗ FAIL"))
        }
    }

    /// `error   RULE  message`, then indented `url:`, `at:` and `fix:` lines; multi-line text stays indented.
    private func findingLines(_ finding: Finding, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let detailPad = pad + "    "
        let labelWidth = Severity.allCases.map(\.rawValue.count).max() ?? 0
        let label =
            style.severity(finding.severity)
            + String(repeating: " ", count: max(0, labelWidth - finding.severity.rawValue.count))
        var lines = [pad + label + " " + finding.rule + "  " + Self.indented(finding.message, by: detailPad)]
        if let url = finding.url { lines.append(detailPad + style.dim("url: ") + Self.indented(url, by: detailPad)) }
        if let location = finding.location {
            lines.append(detailPad + style.dim("at: ") + Self.indented(location, by: detailPad))
        }
        if let fix = finding.fix { lines.append(detailPad + style.dim("fix: ") + Self.indented(fix, by: detailPad)) }
        return lines
    }

    /// Keeps continuation lines of a multi-line value under the finding instead of at the left margin.
    private static func indented(_ text: String, by pad: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + pad)
    }

    /// Groups entries by a key (`nil`: the parent's own findings), worst group first: entries arrive sorted worst
    /// first, so a group's first entry is its worst, and a stable sort by it keeps ties in arrival order.
    static func grouped(
        _ entries: [Report.Entry],
        by key: KeyPath<Finding, String?>
    ) -> [(key: String?, entries: [Report.Entry])] {
        var order: [String?] = []
        var groups: [String?: [Report.Entry]] = [:]
        for entry in entries {
            let value = entry.finding[keyPath: key]
            if groups[value] == nil { order.append(value) }
            groups[value, default: []].append(entry)
        }
        let worst = { (key: String?) in groups[key]?.first?.finding.severity ?? .note }
        let ranked = order.enumerated().sorted { left, right in
            worst(left.element) != worst(right.element)
                ? worst(left.element) > worst(right.element) : left.offset < right.offset
        }
        return ranked.map { (key: $0.element, entries: groups[$0.element] ?? []) }
    }
}
