/// The report as GitHub Actions workflow commands: one `::error`, `::warning` or `::notice` line per finding,
/// which the runner turns into annotations on the job and the pull request, and a plain summary line at the end.
///
///     ::error file=App.ipa,title=ipacheck AASA104::The AASA file mixes legacy and modern formats.%0Abundle: ...
///     ipacheck: ✗ FAIL  1 error, 0 warnings, 0 notes (gate: --fail-on error)
///
/// Escaping follows the runner's parser (`@actions/core` `escapeData` / `escapeProperty`): in the message `%`,
/// CR and LF become `%25`, `%0D`, `%0A`; in property values `:` and `,` also become `%3A`, `%2C`. Nothing a
/// finding says can therefore end the line or start a command of its own.
public struct GitHubAnnotationsRenderer: ReportRendering {
    /// Creates the renderer.
    public init() {}

    /// One command per finding, worst first, then the summary line; ends with a newline.
    public func render(_ report: Report) throws -> String {
        var lines: [String] = []
        for entry in report.findings {
            let finding = entry.finding
            let command =
                switch finding.severity {
                case .error: "error"
                case .warning: "warning"
                case .note: "notice"
                }
            var details = [finding.message]
            if let bundle = finding.bundle { details.append("bundle: " + bundle) }
            if let domain = finding.domain { details.append("domain: " + domain) }
            if let url = finding.url { details.append("url: " + url) }
            if let location = finding.location { details.append("at: " + location) }
            if let fix = finding.fix { details.append("fix: " + fix) }
            let properties = [
                ("file", entry.input),
                ("title", "\(report.tool.name) \(finding.rule)"),
            ]
            .map { name, value in "\(name)=\(Self.escapeProperty(value))" }
            .joined(separator: ",")
            lines.append("::\(command) \(properties)::" + Self.escapeData(details.joined(separator: "\n")))
        }
        let mark = report.verdict == .pass ? "✓ PASS" : "✗ FAIL"
        lines.append("\(report.tool.name): \(mark)  \(report.summary) (gate: \(report.gate))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A command's message: `%` → `%25`, CR → `%0D`, LF → `%0A` (in that order, so escapes are not doubled).
    public static func escapeData(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A property value: as data, plus `:` → `%3A` and `,` → `%2C`, which would end the value.
    public static func escapeProperty(_ text: String) -> String {
        var out = ""
        for scalar in escapeData(text).unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
