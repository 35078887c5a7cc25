package import Foundation
import IPACheckAASA
package import IPACheckReport

/// `ipacheck lint FILE...`: AASA files judged offline.
package enum LintRun {
    /// Lints every file (as served by `domain`, when given) and writes the report in `format`; exits 1 when a
    /// finding reaches `failOn`, 2 when a file cannot be read.
    package static func run(
        files: [String],
        domain: String?,
        failOn: Severity,
        format: ReportFormat,
        now: Date
    ) async throws {
        var report = ReportOutput.report(rules: AASARules.all, gate: FailThreshold(failOn: failOn), schema: .lint)
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
                let findings = try AASALinter.lint(bytes: bytes, domain: domain, now: now).findings
                results.append(LintOutput(file: file, findings: findings))
                report.add(input: file, findings: findings)
            } catch {
                report.add(unreadable: file, reason: error.description)
            }
        }
        report.add(section: try ReportSection(key: "files", value: results, lines: []))
        try ReportOutput.finish(report, format: format)
    }

    /// One file's findings in `ipacheck lint --format json` (`files`, beside the report's own keys).
    private struct LintOutput: Encodable {
        let file: String
        let findings: [Finding]
    }
}
