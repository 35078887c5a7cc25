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
        let check = GateChecks.hostFiles
        let outcome = check.completed(
            GateChecks.judgeHostFiles(
                asked: true,
                documents: SiteDocuments([result]),
                unserved: [],
                networkUnavailable: nil,
                fetch: options,
                rules: check.rules
            )
        )
        return (outcome.findings, outcome.coverage)
    }
}
