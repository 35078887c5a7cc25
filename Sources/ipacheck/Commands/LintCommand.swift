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

    @OptionGroup var output: FormatOption

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one AASA file to lint") }
    }

    func run() async throws {
        var results: [LintOutput] = []
        var unreadable = false
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                let exists = FileManager.default.fileExists(atPath: file)
                Console.diagnose("ipacheck: error: \(file): \(exists ? "cannot be read" : "no such file")")
                unreadable = true
                continue
            }
            do {
                results.append(
                    LintOutput(file: file, findings: try AASALinter.lint(bytes: Array(data), domain: domain).findings)
                )
            } catch {
                Console.diagnose("ipacheck: error: \(file): \(error.description)")
                unreadable = true
            }
        }
        switch output.format {
        case .json: try Console.printJSON(LintReport(files: results))
        case .text: Console.print(text(results, showNames: files.count > 1))
        }
        if unreadable { throw ExitStatus.badInput }
        if results.flatMap(\.findings).contains(where: { $0.severity >= failOn }) { throw ExitStatus.problems }
    }

    private func text(_ results: [LintOutput], showNames: Bool) -> String {
        let style = Console.style
        var out = ""
        for result in results {
            if showNames { out += style.bold(result.file) + "\n" }
            for finding in result.findings {
                out += style.severity(finding.severity) + " \(finding.rule) "
                if let location = finding.location { out += style.dim(location) + ": " }
                out += finding.message + "\n"
                if let fix = finding.fix { out += "    " + style.dim("fix: " + fix) + "\n" }
            }
            let count = result.findings.count
            out += count == 0 ? style.green("no problems found") + "\n" : "\(count) finding\(count == 1 ? "" : "s")\n"
            if showNames { out += "\n" }
        }
        return out
    }
}

/// One file's findings in `ipacheck lint --format json`.
private struct LintOutput: Encodable {
    let file: String
    let findings: [Finding]
}

/// `ipacheck lint --format json`: `{"files": [{"file": ..., "findings": [...]}]}`.
private struct LintReport: Encodable {
    let files: [LintOutput]
}
