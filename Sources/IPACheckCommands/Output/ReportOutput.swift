import Foundation
package import IPACheckReport

/// The one way every report command (`check`, `verify`, `lint`, `aasa`, `domains`, `info`) ends: the report is
/// rendered in the chosen format, each input that could not be read gets one line on stderr, and the exit status
/// follows the report (0 pass, 1 fail, 2 an input could not be read).
package enum ReportOutput {
    /// The program's version, as `--version` and every report say it.
    package static let version = "0.1.0"

    /// The project's home page.
    static let projectURL = "https://github.com/ipacheck/ipacheck"

    /// The rule reference (docs/rules.md, one anchor per rule), for SARIF help links.
    static let rulesURL = projectURL + "/blob/main/docs/rules.md"

    /// The program, as reports name it.
    static var tool: Report.Tool {
        Report.Tool(version: version, informationUri: projectURL, rulesUri: rulesURL)
    }

    /// An empty report for a command, whose JSON `schema` names.
    package static func report(
        rules: [Rule],
        gate: FailThreshold = .default,
        kind: Report.Kind = .gate,
        schema: JSONRenderer.Schema
    ) -> Report {
        Report(tool: tool, gate: gate, rules: rules, kind: kind, schema: schema)
    }

    /// Prints (or writes to `path`) the report in `format`, then ends the command with the report's exit status.
    ///
    /// - Parameter alwaysPrint: Print the report even when no input could be read. Otherwise the text format stays
    ///   silent then (the stderr lines say it all); machine formats always print, with the `error` verdict.
    /// - Parameter diagnosed: The cause was already said on stderr (no network), so the inputs are not named again.
    package static func finish(
        _ report: Report,
        format: ReportFormat,
        to path: String? = nil,
        alwaysPrint: Bool = false,
        diagnosed: Bool = false
    ) throws {
        for input in report.inputs where !diagnosed {
            guard let error = input.error else { continue }
            Console.diagnose("ipacheck: error: \(UntrustedText.visibleOnOneLine(input.path)): \(error)")
        }
        // An input read in part (incomplete) has its findings and sections to show.
        let nothingRead =
            !report.inputs.isEmpty && report.inputs.allSatisfy { $0.error != nil && $0.errorKind != .incomplete }
        if nothingRead && format == .text && path == nil && !alwaysPrint {
            throw CommandExit(code: report.exitCode)
        }
        let rendered = try format.renderer(style: path == nil ? Console.style : .plain).render(report)
        if let path {
            do {
                try Data(rendered.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                Console.diagnose("ipacheck: error: \(path): cannot be written: \(FileProblem.words(error))")
                throw CommandExit.badInput
            }
        } else {
            Console.printRendered(rendered)
        }
        if report.exitCode != 0 { throw CommandExit(code: report.exitCode) }
    }
}
