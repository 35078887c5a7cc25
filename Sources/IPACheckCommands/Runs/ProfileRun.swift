package import Foundation
package import IPACheckReport

/// `ipacheck profile FILE`: a provisioning profile, judged.
package enum ProfileRun {
    /// Reads and judges the profile at `path`, writing the report in `format`; exits 1 when a finding reaches
    /// `failOn`, 2 when the file cannot be read.
    package static func run(path: String, failOn: Severity, format: ReportFormat, now: Date) async throws {
        var report = ReportOutput.report(
            rules: ProfileReport.rules,
            gate: FailThreshold(failOn: failOn),
            schema: .profile
        )
        do {
            let answer = try await ProfileReport.read(path: path, now: now)
            report.add(input: path, findings: answer.findings)
            for section in try answer.sections() { report.add(section: section) }
        } catch let error as InputError {
            report.add(unreadable: path, reason: error.message)
        }
        try ReportOutput.finish(report, format: format)
    }
}
