package import Foundation
package import IPACheckArchive
import IPACheckBundle
import IPACheckDevice
import IPACheckFetching
import IPACheckGate
package import IPACheckReport

/// `ipacheck device EVIDENCE`: the device's record of associated domains, for the app(s) asked about.
package enum DeviceRun {
    /// Whose entries to show: app IDs, the app IDs of a build's bundles, or every app.
    package struct Selection: Sendable {
        package var appIDs: [String]
        package var build: String?
        package var allApps: Bool

        package init(appIDs: [String], build: String?, allApps: Bool) {
            self.appIDs = appIDs
            self.build = build
            self.allApps = allApps
        }
    }

    /// Lists what the evidence at `path` holds in `format`; exits 2 when neither it nor the build can be read.
    package static func run(
        path: String,
        selection: Selection,
        format: ReportFormat,
        archive: ArchiveLimits,
        now: Date
    ) async throws {
        if selection.allApps, !selection.appIDs.isEmpty || selection.build != nil {
            throw UsageError("--all-apps shows every app: leave out --app-id and --build, or drop --all-apps")
        }
        var report = ReportOutput.report(rules: [], kind: .listing, schema: .device)
        var asked: DeviceReport.Asked = selection.allApps ? .allApps : .none
        if !selection.appIDs.isEmpty { asked = .appIDs(selection.appIDs) }
        if let build = selection.build {
            do {
                var options = GateOptions(fetch: FetchOptions(now: now), fetcher: nil, archiveLimits: archive)
                options.hostsAsked = .none
                let result = try await ReleaseGate.judge(path: build, options: options)
                let ids = result.facts.compactMap(\.appID)
                guard !ids.isEmpty else {
                    throw InputError("no-app-id", file: build, "names no application identifier in any bundle")
                }
                asked = .appIDs(selection.appIDs + ids)
            } catch let error as InputError {
                report.add(unreadable: build, reason: error.message)
                try ReportOutput.finish(report, format: format)
                return
            }
        }
        do {
            let evidence = try DeviceEvidence(path: path)
            report.add(input: path, findings: [])
            let listing = DeviceReport(record: evidence.record, file: evidence.file, asked: asked, now: now)
            for section in try listing.sections() {
                report.add(section: section)
            }
        } catch let error as InputError {
            report.add(unreadable: path, reason: error.message)
        }
        try ReportOutput.finish(report, format: format)
    }
}
