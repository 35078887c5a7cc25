package import Foundation
import IPACheckAASA
import IPACheckGate
package import IPACheckReport

/// `ipacheck lint FILE...`: AASA files judged offline.
package enum LintRun {
    /// Lints every file (as served by `domain`, when given) and writes the report in `format`; exits 1 when a
    /// finding reaches `failOn` (content that is no AASA document is a finding too), 2 when a file cannot be read.
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
            // Content that is no usable AASA document (empty, not UTF-8, invalid JSON, a root that is no object, too
            // deep) is its rule's finding, exit 1, as linters report parse errors; only a file that cannot be read
            // exits 2 (contract, lint).
            let findings: [Finding]
            do {
                findings = try AASALinter.lint(bytes: bytes, domain: domain, now: now).findings
            } catch {
                findings = [error.finding(domain: domain)]
            }
            results.append(LintOutput(file: file, findings: findings))
            report.add(input: file, findings: findings)
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
