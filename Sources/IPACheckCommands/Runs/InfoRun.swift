package import IPACheckArchive
import IPACheckBundle
package import IPACheckReport

/// `ipacheck info APP.ipa`: the bundle tree.
package enum InfoRun {
    /// Lists the bundles of the build at `path` in `format` (text or json); exits 2 when it cannot be read.
    package static func run(path: String, format: ReportFormat, archive: ArchiveLimits) async throws {
        var report = ReportOutput.report(rules: InfoReport.rules, kind: .listing, schema: .info)
        do {
            let info = try InfoReport.make(for: try IPAFile(path: path, limits: archive))
            report.add(input: path, findings: info.findings)
            report.add(section: try info.section())
        } catch let error as InputError {
            report.add(unreadable: path, reason: error.message)
        }
        try ReportOutput.finish(report, format: format)
    }
}
