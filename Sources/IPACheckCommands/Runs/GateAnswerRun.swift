import IPACheckArchive
import IPACheckFetching
import IPACheckGate
import IPACheckReport

/// The release gate run on one build for a command that reads its link model (`explain`, `links`): the same
/// judgement `check` makes, with the same settings, so that every command tells the same story.
enum GateAnswerRun {
    /// The gate's result for the build at `path`; an unreadable build or no network at all ends the run (exit 2).
    ///
    /// - Parameter onlyClaimsOf: A URL's host: only the files of the entries claiming it are fetched.
    /// - Parameter keepingLocalJudgement: With no network at all, return the build's own judgement (its
    ///   ``GateResult/networkUnavailable`` set) instead of ending the run.
    static func check(
        path: String,
        appID: String?,
        project: ProjectSettings,
        network: FetchOptions,
        archive: ArchiveLimits,
        onlyClaimsOf host: String? = nil,
        keepingLocalJudgement: Bool = false
    ) async throws -> GateResult {
        let configuration = try await CommandExit.reportingInputErrors { try project.loadConfiguration() }
        let progress = ProgressLine(offline: network.isOffline, asksCDN: network.asksCDN)
        defer { progress.finish() }
        return try await CommandExit.reportingInputErrors {
            try await withUsageErrorForMissingAppID {
                try await network.withFetcher { options, fetcher in
                    var gate = project.gateOptions(
                        fetch: options,
                        fetcher: fetcher,
                        configuration: configuration,
                        archive: archive,
                        appID: appID
                    )
                    if let host { gate.hostsAsked = .claimsOf(host) }
                    guard keepingLocalJudgement else {
                        return try await ReleaseGate.check(path: path, options: gate) { progress.show($0) }
                    }
                    return try await ReleaseGate.judge(path: path, options: gate) { progress.show($0) }
                }
            }
        }
    }

    /// Runs `body`, saying an entitlements file without a usable app ID as `check` says it: a usage error (exit 64),
    /// since what is missing is an argument (`--app-id`), not a readable input.
    private static func withUsageErrorForMissingAppID<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as InputError {
            if let file = ReleaseGate.fileMissingAppID(error) { throw UsageError.missingAppID(file) }
            throw error
        }
    }
}
