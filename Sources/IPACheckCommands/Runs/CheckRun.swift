package import IPACheckArchive
package import IPACheckFetching
import IPACheckGate
package import IPACheckReport
import IPACheckSites

/// `ipacheck check APP.ipa...`: the release gate, one report over every build.
package enum CheckRun {
    /// Checks every build (.ipa, .app, .xcarchive, an unpacked ipa, or an entitlements file, whose application
    /// identifier `appID` gives when it names none) and writes the report in `format`, to `output` or stdout; exits
    /// 1 when a finding reaches `failOn` (default: the config's, else error), 2 when a build could not be read or
    /// nothing could be checked.
    package static func run(
        paths: [String],
        appID: String?,
        failOn: Severity?,
        format: ReportFormat,
        output: String?,
        project: ProjectSettings,
        network: FetchOptions,
        archive: ArchiveLimits
    ) async throws {
        let configuration = try await CommandExit.reportingInputErrors { try project.loadConfiguration() }
        let threshold = FailThreshold(failOn: failOn ?? configuration.failOn ?? .error)
        let progress = ProgressLine(offline: network.isOffline, asksCDN: network.asksCDN)
        let outcomes = try await network.withFetcher { options, fetcher in
            let gate = project.gateOptions(
                fetch: options,
                fetcher: fetcher,
                configuration: configuration,
                archive: archive,
                appID: appID
            )
            return await ReleaseGate.run(paths: paths, options: gate) { progress.show($0) }
        }
        progress.finish()
        if appID == nil, let missing = outcomes.compactMap(\.missingAppID).first {
            throw UsageError.missingAppID(missing)
        }

        // No network at all: one line names it, and the report in the format asked keeps every finding that
        // needed none, lists what did as not checked, and says the run did not complete (verdict error, exit 2).
        let unavailable = outcomes.lazy.compactMap(\.networkUnavailable).first
        if let unavailable { Console.diagnose("ipacheck: error: \(unavailable)") }
        var report = ReportOutput.report(rules: RuleCatalog.gate, gate: threshold, schema: .check)
        for (path, outcome) in zip(paths, outcomes) {
            switch outcome {
            case .checked(let gate):
                report.add(input: path, findings: gate.findings, suppressed: gate.suppressed, coverage: gate.coverage)
                if let missing = gate.networkUnavailable {
                    report.add(
                        incomplete: path,
                        reason: missing.notCheckedReason + ": the hosts' files were not checked"
                    )
                }
            case .unreadable(let error):
                report.add(unreadable: path, reason: error.message)
            }
        }
        try ReportOutput.finish(report, format: format, to: output, alwaysPrint: true, diagnosed: unavailable != nil)
    }
}

extension ReleaseGate.Outcome {
    /// Set when the build was checked with no network at all.
    fileprivate var networkUnavailable: NetworkUnavailable? {
        guard case .checked(let result) = self else { return nil }
        return result.networkUnavailable
    }

    /// The entitlements file that could not be checked for want of `--app-id`: a usage error, not a bad input.
    fileprivate var missingAppID: String? {
        guard case .unreadable(let error) = self else { return nil }
        return ReleaseGate.fileMissingAppID(error)
    }
}
