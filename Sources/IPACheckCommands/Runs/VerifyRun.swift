package import Foundation
package import IPACheckArchive
package import IPACheckReport

/// `ipacheck verify TARGET`: the code signature's integrity.
package enum VerifyRun {
    /// Verifies the ipa or Mach-O at `target` (with the resource seal unless `resources` is false; trust problems
    /// fail it only when `strict`) and writes the report in `format`; exits 1 when broken, 2 when unreadable.
    package static func run(
        target: String,
        resources: Bool,
        strict: Bool,
        format: ReportFormat,
        archive: ArchiveLimits,
        now: Date
    ) async throws {
        var report = ReportOutput.report(rules: VerifyReport.rules(strict: strict), schema: .verify)
        do {
            let answer = try await VerifyReport.verify(
                path: target,
                resources: resources,
                now: now,
                limits: archive
            )
            report.add(input: target, findings: answer.findings, coverage: answer.coverage)
            report.add(section: try answer.section())
            report.add(section: try ReportSection(key: "valid", value: answer.isValid, lines: []))
            // Whether the resource seal was compared with the files (false with --no-resources, and for a bare
            // Mach-O); the subjects section and the rules not checked say why.
            report.add(
                section: try ReportSection(
                    key: "resourcesChecked",
                    value: answer.resourcesNotChecked == nil,
                    lines: []
                )
            )
        } catch let error as InputError {
            report.add(unreadable: target, reason: error.message)
        }
        try ReportOutput.finish(report, format: format)
    }
}
