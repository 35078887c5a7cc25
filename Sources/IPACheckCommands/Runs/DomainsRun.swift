package import Foundation
package import IPACheckArchive
import IPACheckBundle
import IPACheckFetching
import IPACheckGate
package import IPACheckReport

/// `ipacheck domains APP.ipa`: every bundle's associated domains, as signed.
package enum DomainsRun {
    /// Lists the associated domains of the build or entitlements file at `path` (whose application identifier
    /// `appID` gives when it names none) in `format`; exits 2 when it cannot be read.
    package static func run(
        path: String,
        appID: String?,
        format: ReportFormat,
        archive: ArchiveLimits,
        now: Date
    ) async throws {
        var report = ReportOutput.report(rules: DomainsReport.rules, kind: .listing, schema: .domains)
        do {
            let domains: DomainsReport
            if try TargetKind.of(path: path) == .propertyList {
                domains = DomainsReport.make(for: try EntitlementsFile.read(path: path, appID: appID), now: now)
            } else {
                // The build is read once, by the gate, whose judgement also says where a device installs it (as
                // explain's build step shows it); no host is asked.
                var options = GateOptions(fetch: FetchOptions(now: now), fetcher: nil, archiveLimits: archive)
                options.hostsAsked = .none
                let result = try await ReleaseGate.judge(path: path, options: options)
                domains = DomainsReport.make(
                    facts: result.facts,
                    archiveFindings: result.archiveFindings,
                    judged: result.findings,
                    now: now
                )
                .placed(on: result.links)
            }
            report.add(input: path, findings: domains.findings)
            report.add(section: try domains.section())
            if let device = try domains.deviceSection() { report.add(section: device) }
            // A bundle whose entitlements could not be read has unknown domains, not none: never exit 0 on it.
            let unread = domains.bundles.filter { $0.unreadable != nil }
            if let first = unread.first?.unreadable {
                report.add(
                    incomplete: path,
                    reason: "the signed entitlements of \(unread.map(\.path).joined(separator: ", ")) could not be "
                        + "read (\(first)), so \(unread.count == 1 ? "its" : "their") associated domains are unknown"
                )
            }
        } catch let error as InputError {
            report.add(unreadable: path, reason: error.message)
        }
        try ReportOutput.finish(report, format: format)
    }
}
