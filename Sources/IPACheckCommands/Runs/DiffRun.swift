package import IPACheckArchive
import IPACheckGate
package import IPACheckReport

/// `ipacheck diff OLD NEW`: what changed between two builds that can break links, credentials or installs.
package enum DiffRun {
    /// The severity each finding gets, read from the rules themselves so that the help cannot drift from them.
    package static var ruleSeverities: String {
        let headings: [(Severity, String)] = [
            (.error, "Errors (regressions):"),
            (.warning, "Warnings:"),
            (.note, "Notes:"),
        ]
        return headings.map { severity, heading in
            let rules = BuildDiff.rules.all.filter { $0.severity == severity }
            return ([heading] + rules.map { "  \($0.id)  \($0.title)" }).joined(separator: "\n")
        }
        .joined(separator: "\n")
    }

    /// Compares the build at `new` with the one at `old`, writing the report in `format`; exits 1 when a
    /// difference reaches `failOn`, 2 when either cannot be read.
    package static func run(
        old: String,
        new: String,
        failOn: Severity,
        format: ReportFormat,
        archive: ArchiveLimits
    ) async throws {
        var report = ReportOutput.report(rules: BuildDiff.rules.all, gate: FailThreshold(failOn: failOn), schema: .diff)
        do {
            let diff = try BuildDiff.read(old: old, new: new, limits: archive)
            report.add(input: new, findings: diff.findings)
            report.add(section: try diff.section())
        } catch let error as InputError {
            report.add(unreadable: error.file, reason: error.message)
        }
        try ReportOutput.finish(report, format: format)
    }
}
