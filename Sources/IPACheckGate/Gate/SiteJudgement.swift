public import IPACheckAASA
public import IPACheckFetching
public import IPACheckReport
public import IPACheckSites

/// What the release gate says about hosts' files on their own, for `ipacheck aasa`: the same serving, CDN and
/// content findings (the lint checks on the file devices' copy is made from) that `check` raises for them.
public enum SiteJudgement {
    /// The rules `aasa` can raise: serving, Apple's CDN, and the content of the file.
    public static var rules: [Rule] { ServingRules.rules.all + CDNRules.rules.all + AASARules.all }

    /// The findings about each host's file and which rules ran, as `check` judges them.
    public static func judge(
        _ result: AASASiteResult,
        options: FetchOptions
    ) -> (findings: [Finding], coverage: RuleCoverage) {
        let documents = SiteDocuments([result])
        var coverage = RuleCoverage()
        AASASiteFetcher.recordCoverage(options: options, into: &coverage)
        if documents.anyDocument {
            coverage.ran(AASARules.all)
        } else {
            coverage.skip(AASARules.all, because: "no copy of the file could be read (see the serving findings)")
        }
        return (documents.findings, coverage)
    }
}
