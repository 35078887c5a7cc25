/// The report as GitHub Actions workflow commands: one `::error`, `::warning` or `::notice` line per finding
/// (and per input that could not be read), which the runner turns into annotations on the job and the pull
/// request, and a plain summary line at the end that never reads PASS unless every input was read and passed.
///
///     ::error file=App.ipa,title=ipacheck AASA104::The AASA file mixes legacy and modern formats.%0Abundle: ...
///     ipacheck: ✗ FAIL  1 error, 0 warnings, 0 notes (gate: --fail-on error)
///
/// Escaping follows the runner's parser (`@actions/core` `escapeData` / `escapeProperty`): in the message `%`,
/// CR and LF become `%25`, `%0D`, `%0A`; in property values `:` and `,` also become `%3A`, `%2C`. Nothing a
/// finding says can therefore end the line or start a command of its own.
package struct GitHubAnnotationsRenderer: ReportRendering {
    /// Creates the renderer.
    package init() {}

    /// One `::error` per input that could not be read, one command per finding (suppressed ones as notices with
    /// their reason; notes only when `--fail-on note`), then the summary line, which counts the notes left out and
    /// the rules not checked; ends with a newline.
    package func render(_ report: Report) throws -> String {
        var lines: [String] = []
        for input in report.inputs {
            guard let error = input.error else { continue }
            lines.append(
                command(
                    "error",
                    file: input.path,
                    title: report.tool.name,
                    "\(input.path) \(input.errorPhrase): \(error)"
                )
            )
        }
        var unannotated = 0
        for entry in report.findings {
            let finding = entry.finding
            // A note asks for no action unless the gate fails on notes: annotating it would push the errors out
            // of the annotations GitHub shows per step.
            if entry.suppression == nil, finding.severity == .note, !report.gate.fails(.note) {
                unannotated += 1
                continue
            }
            var details = [finding.message]
            if let bundle = finding.bundle { details.append("bundle: " + bundle) }
            if let domain = finding.domain { details.append("domain: " + domain) }
            if let url = finding.url { details.append("url: " + url) }
            if let location = finding.location { details.append("at: " + location) }
            if let affects = finding.affects { details.append("affects: " + affects.joined(separator: ", ")) }
            var title = "\(report.tool.name) \(finding.rule)"
            var kind = Self.command(for: finding.severity)
            if let suppression = entry.suppression {
                title += " (suppressed)"
                kind = "notice"
                details.append("suppressed: " + suppression.reason)
            } else if let fix = finding.fix {
                details.append("fix: " + fix)
            }
            lines.append(command(kind, file: entry.input, title: title, details.joined(separator: "\n")))
        }
        var summary = "\(report.tool.name): " + UntrustedText.visibleOnOneLine(TextRenderer().verdictLine(report))
        let notChecked = Set(report.inputs.flatMap { report.notChecked($0).flatMap(\.rules) })
        if unannotated > 0 {
            summary +=
                "; \(unannotated) note\(unannotated == 1 ? "" : "s") not annotated (--fail-on note annotates them)"
        }
        if !notChecked.isEmpty { summary += "; \(notChecked.count) rules not checked (--format text says why)" }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func command(for severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
    }

    private func command(_ kind: String, file: String, title: String, _ message: String) -> String {
        let properties = [("file", file), ("title", title)]
            .map { name, value in "\(name)=\(Self.escapeProperty(UntrustedText.visible(value)))" }
            .joined(separator: ",")
        return "::\(kind) \(properties)::" + Self.escapeData(UntrustedText.visible(message))
    }

    /// A command's message: `%` → `%25`, CR → `%0D`, LF → `%0A` (in that order, so escapes are not doubled).
    package static func escapeData(_ text: String) -> String {
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
    package static func escapeProperty(_ text: String) -> String {
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
