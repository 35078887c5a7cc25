/// The report for people: each input, then its bundles, then their domains, each finding with its severity,
/// rule ID, message and `fix:` line; what was not checked and why; and one verdict line at the end that names
/// the gate.
///
/// Groups are ordered worst first (a group ranks by its worst finding; ties keep the order findings are sorted in),
/// and a parent's own findings form a group like any other. Suppressed findings stay in their group, marked
/// `suppressed` with their reason, and count for nothing. An input that could not be read says so on its first
/// line, and the verdict line then reads `ERROR`, never `PASS`. Example:
///
///     App.ipa  ✗ FAIL  1 error, 0 warnings, 0 notes
///       Payload/App.app
///         applinks:example.com
///           error   AASA104  The AASA file mixes legacy and modern formats.
///               fix: Use only `components`.
///       not checked:
///         offline: Apple's CDN was not asked: CDN001–CDN012
///
///     ✗ FAIL  1 error, 0 warnings, 0 notes (gate: --fail-on error)
///
/// Everything that came from an input is passed through ``UntrustedText/visible(_:)``.
package struct TextRenderer: ReportRendering {
    /// Colours or not.
    package let style: TextStyle

    /// Creates the renderer; pass ``TextStyle/plain`` for files, pipes and `NO_COLOR`.
    package init(style: TextStyle = .plain) {
        self.style = style
    }

    /// The grouped findings, what was not checked, and the verdict line, ending with a newline.
    package func render(_ report: Report) throws -> String {
        var lines: [String] = []
        for section in report.sections where !section.lines.isEmpty {
            lines += section.lines.map { $0.render(style) }
            lines.append("")
        }
        for input in report.inputs {
            lines += inputLines(input, in: report)
            lines.append("")
        }
        lines.append(verdictLine(report))
        return lines.joined(separator: "\n") + "\n"
    }

    /// One input's block: its header line, its findings grouped by bundle and domain, what was not checked.
    package func inputLines(_ input: Report.Input, in report: Report) -> [String] {
        let path = style.bold(UntrustedText.visibleOnOneLine(input.path))
        if let sentence = input.errorSentence, input.errorKind != .incomplete {
            return [path + "  " + verdictLabel(.error) + "  " + UntrustedText.visibleOnOneLine(sentence)]
        }
        let label = report.kind == .listing ? "" : verdictLabel(input.verdict) + "  "
        var lines = [path + "  " + label + input.summary.description]
        if let error = input.error {
            lines[0] += "; checked in part: " + UntrustedText.visibleOnOneLine(error)
        }
        let entries = report.findings.filter { $0.input == input.path }
        if entries.isEmpty {
            lines.append("  " + style.dim("no findings"))
        }
        // Worst first over the whole input: every error before any warning, every warning before any note, the
        // suppressed last; within each, grouped by bundle and domain.
        for band in Self.bands(entries) {
            lines += findingLines(band, indent: 2)
        }
        let notChecked = report.notChecked(input)
        if !notChecked.isEmpty {
            lines.append("  " + style.dim("not checked:"))
            for group in notChecked {
                lines.append("    " + style.dim(group.reason + ": " + RuleIDList.compact(group.rules)))
            }
        }
        return lines
    }

    /// Entries grouped by bundle, then domain, worst group first, starting at `indent` spaces.
    package func findingLines(_ entries: [Report.Entry], indent: Int) -> [String] {
        var lines: [String] = []
        for bundleGroup in Self.grouped(entries, by: \.bundle) {
            var depth = indent
            if let bundle = bundleGroup.key {
                lines.append(String(repeating: " ", count: depth) + style.bold(UntrustedText.visibleOnOneLine(bundle)))
                depth += 2
            }
            for domainGroup in Self.grouped(bundleGroup.entries, by: \.domain) {
                var inner = depth
                if let domain = domainGroup.key {
                    lines.append(String(repeating: " ", count: inner) + UntrustedText.visibleOnOneLine(domain))
                    inner += 2
                }
                for entry in domainGroup.entries {
                    lines += entryLines(entry, indent: inner)
                }
            }
        }
        return lines
    }

    /// The last line: the run's verdict, its counts and the gate.
    package func verdictLine(_ report: Report) -> String {
        if report.kind == .listing && report.verdict != .error { return "findings: " + report.summary.description }
        var text = verdictLabel(report.verdict) + "  "
        for kind in [Report.ErrorKind.unreadable, .notChecked, .incomplete] {
            let count = report.inputs.filter { $0.verdict == .error && ($0.errorKind ?? .unreadable) == kind }.count
            guard count > 0 else { continue }
            let which = report.inputs.count == 1 ? "the input" : "\(count) of \(report.inputs.count) inputs"
            let what =
                switch kind {
                case .unreadable: "could not be read"
                case .notChecked: "could not be checked"
                case .incomplete: count == 1 ? "was checked only in part" : "were checked only in part"
                }
            text += "\(which) \(what); "
        }
        return text + report.summary.description + (report.kind == .gate ? " (gate: \(report.gate))" : "")
    }

    private func verdictLabel(_ verdict: Report.Verdict) -> String {
        switch verdict {
        case .pass: style.bold(style.green("✓ PASS"))
        case .fail: style.bold(style.red("✗ FAIL"))
        case .error: style.bold(style.red("✗ ERROR"))
        }
    }

    /// `error   RULE  message`, then indented `url:`, `at:`, `affects:`, `fix:` (or `reason:` when suppressed)
    /// lines, each exactly one line: a line feed in a value (a member name may hold one) is shown as `\n`, so no
    /// input can write a line that reads as a finding of its own.
    private func entryLines(_ entry: Report.Entry, indent: Int) -> [String] {
        let finding = entry.finding
        let pad = String(repeating: " ", count: indent)
        let detailPad = pad + "    "
        let labelWidth = Severity.allCases.map(\.rawValue.count).max() ?? 0
        let label =
            entry.suppression == nil
            ? style.severity(finding.severity)
                + String(repeating: " ", count: max(0, labelWidth - finding.severity.rawValue.count))
            : style.dim("suppressed \(finding.severity.rawValue)")
        var lines = [pad + label + " " + finding.rule + "  " + UntrustedText.visibleOnOneLine(finding.message)]
        func detail(_ name: String, _ value: String?) {
            guard let value else { return }
            lines.append(detailPad + style.dim(name + ": ") + UntrustedText.visibleOnOneLine(value))
        }
        detail("url", finding.url)
        detail("at", finding.location)
        detail("affects", finding.affects?.joined(separator: ", "))
        if let suppression = entry.suppression {
            detail("reason", suppression.reason)
        } else {
            detail("fix", finding.fix)
        }
        return lines
    }

    /// `entries` split by severity, worst first, the suppressed ones last (each band keeps the report's order).
    static func bands(_ entries: [Report.Entry]) -> [[Report.Entry]] {
        let active = entries.filter { $0.suppression == nil }
        let bands = [Severity.error, .warning, .note].map { severity in active.filter { $0.severity == severity } }
        return (bands + [entries.filter { $0.suppression != nil }]).filter { !$0.isEmpty }
    }

    /// Groups entries by a key (`nil`: the parent's own findings), worst group first: entries arrive sorted
    /// (unsuppressed, then worst first), so a group's first entry is its worst, and a stable sort by it keeps
    /// ties in arrival order.
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
        func rank(_ key: String?) -> Int {
            guard let first = groups[key]?.first else { return 0 }
            return first.suppression != nil ? 0 : 1 + first.finding.severity.rank
        }
        let ranked = order.enumerated().sorted { left, right in
            rank(left.element) != rank(right.element)
                ? rank(left.element) > rank(right.element) : left.offset < right.offset
        }
        return ranked.map { (key: $0.element, entries: groups[$0.element] ?? []) }
    }
}
