package import Foundation
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
        archive: ArchiveSettings,
        now: Date
    ) async throws {
        var report = ReportOutput.report(rules: DomainsReport.rules, kind: .listing, schema: .domains)
        do {
            let domains: DomainsReport
            if try TargetKind.of(path: path) == .propertyList {
                domains = DomainsReport.make(for: try EntitlementsFile.read(path: path, appID: appID))
            } else {
                // The listing's archive and facts are let go before the gate opens the build again, so the two
                // readings' memory does not add up.
                let listed = try {
                    let file = try IPAFile(path: path, limits: archive.limits)
                    return DomainsReport.make(for: file, facts: try BundleFacts.gatherAll(ipa: file, now: now))
                }()
                // Where a device installs the build is the gate's judgement, as explain's build step shows it;
                // no host is asked.
                var options = GateOptions(fetch: FetchOptions(), fetcher: nil, now: now, archiveLimits: archive.limits)
                options.hostsAsked = .none
                domains = listed.placed(on: try await ReleaseGate.check(path: path, options: options).links)
            }
            report.add(input: path, findings: domains.findings)
            report.add(section: try domains.section())
            if let device = try domains.deviceSection() { report.add(section: device) }
            // A bundle whose entitlements could not be read has unknown domains, not none: never exit 0 on it.
            let unread = domains.bundles.filter { $0.unreadable != nil }.map(\.path)
            if !unread.isEmpty {
                report.add(
                    incomplete: path,
                    reason: "the signed entitlements of \(unread.joined(separator: ", ")) could not be read, so "
                        + "\(unread.count == 1 ? "its" : "their") associated domains are unknown"
                )
            }
        } catch let error as InputError {
            report.add(unreadable: path, reason: error.message)
        }
        try ReportOutput.finish(report, format: format)
    }
}
