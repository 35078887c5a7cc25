import IPACheckGate

/// The release gate run on one build for a command that reads its link model (`explain`, `links`): the same
/// judgement `check` makes, with the same settings, so that every command tells the same story.
enum GateAnswerRun {
    /// The gate's result for the build at `path`; an unreadable build or no network at all ends the run (exit 2).
    static func check(
        path: String,
        appID: String?,
        project: ProjectSettings,
        network: NetworkSettings,
        archive: ArchiveSettings
    ) async throws -> GateResult {
        let configuration = try await CommandExit.reportingInputErrors { try project.loadConfiguration() }
        return try await CommandExit.reportingInputErrors {
            try await network.withFetcher { options, fetcher in
                try await ReleaseGate.check(
                    path: path,
                    options: GateOptions(
                        fetch: options,
                        fetcher: fetcher,
                        configuration: configuration,
                        distribution: project.distribution,
                        now: network.now,
                        archiveLimits: archive.limits,
                        appID: appID,
                        mdmDirectDownloads: project.mdmDirectDownloads
                    )
                )
            }
        }
    }
}
