package import IPACheckFetching
package import IPACheckReport
package import IPACheckSites

/// What the release gate says about hosts' files on their own, for `ipacheck aasa`: the gate's own check of AASA
/// files (``GateChecks/hostFiles``: serving, Apple's CDN, and the content with the checks `lint` runs), run on the
/// hosts named instead of a build's claims.
package enum SiteJudgement {
    /// The rules `aasa` can raise: those of the gate's check of AASA files.
    package static var rules: [Rule] { GateChecks.hostFiles.rules }

    /// The findings about one host's file and which rules ran, as `check` judges them.
    package static func judge(
        _ result: AASASiteResult,
        options: FetchOptions
    ) -> (findings: [Finding], coverage: RuleCoverage) {
        let target = AASAFetchTarget(host: result.report.host, mode: result.report.mode)
        let hostsOnly = ReleaseGate.InspectedBuild(
            path: result.report.host,
            integrity: BuildIntegrity(archiveFindings: [], seals: []),
            facts: [],
            firebase: [],
            mainExecutableStrings: nil,
            targets: [target]
        )
        let input = GateInput(
            build: hostsOnly,
            documents: SiteDocuments([result]),
            options: GateOptions(fetch: options, fetcher: nil),
            distribution: nil
        )
        let outcome = GateChecks.hostFiles.outcome(on: input)
        return (outcome.findings, outcome.coverage)
    }
}
