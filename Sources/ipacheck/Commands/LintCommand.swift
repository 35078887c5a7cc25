import ArgumentParser
import Foundation
import IPACheckAASA
import IPACheckReport

/// `ipacheck lint FILE`: what an AASA file's author got wrong, offline.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Lint an apple-app-site-association file offline.",
        discussion: """
            Reports what authors get wrong: mixed legacy and modern formats, rules that can never fire, catch-alls made by misspelled keys, excludes that exclude everything, bad or placeholder app IDs, unknown substitution variables, the 128 KB limit. Invalid JSON exits 2.

            Examples:
              ipacheck lint public/.well-known/apple-app-site-association
              ipacheck lint aasa.json --domain example.com --fail-on warning
            """
    )

    @Argument(help: "The AASA files (JSON, or CMS-signed).")
    var files: [String]

    @Option(help: "The domain the file is served for (used in messages and for host checks).")
    var domain: String?

    @Option(help: "Exit 1 when a finding is at least this severe: error, warning or note.")
    var failOn: Severity = .error

    @OptionGroup var output: ReportFormatOption

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one AASA file to lint") }
    }

    func run() async throws {
        var report = ReportOutput.report(rules: AASARules.all, gate: FailThreshold(failOn: failOn))
        var results: [LintOutput] = []
        for file in files {
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(file, limit: AASADocument.Limits.hardByteCap, what: "an AASA file")
            } catch {
                report.add(unreadable: file, reason: error.message)
                continue
            }
            do {
                let findings = try AASALinter.lint(bytes: bytes, domain: domain).findings
                results.append(LintOutput(file: file, findings: findings))
                report.add(input: file, findings: findings)
            } catch {
                report.add(unreadable: file, reason: error.description)
            }
        }
        report.add(section: try ReportSection(key: "files", value: results, lines: []))
        try ReportOutput.finish(report, format: output.format)
    }
}

/// One file's findings in `ipacheck lint --format json` (`files`, beside the report's own keys).
private struct LintOutput: Encodable {
    let file: String
    let findings: [Finding]
}
