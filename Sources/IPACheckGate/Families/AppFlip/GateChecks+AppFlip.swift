import IPACheckBundle
import IPACheckLinks
import IPACheckReport
import IPACheckSites

extension GateChecks {
    /// Google App Flip: the main app against the App Flip config.
    static let appFlip = GateCheck(.appFlip) { input, rules in
        guard !input.build.isEntitlementsFile else { return .notApplicable(rules, because: notABuild) }
        let configuration = input.options.configuration
        var outcome = CheckOutcome()
        if let config = configuration.appFlip, let main = input.facts.first, let appID = main.appID {
            outcome.findings = AppFlipChecks.check(
                config: config,
                associatedDomains: main.domains,
                appID: appID,
                signing: main.signingKind ?? .distribution,
                infoPlist: main.bundle.infoPlist,
                executable: input.build.mainExecutableStrings,
                matcher: input.networkUnavailable == nil ? input.documents.linkMatcher : nil,
                bundle: main.bundle.path
            )
        }
        AppFlipChecks.recordCoverage(
            config: configuration.appFlip,
            hasAppID: input.facts.first?.appID != nil,
            cdnAsked: input.documents.reports.contains { $0.cdn != nil },
            into: &outcome.coverage
        )
        if configuration.appFlip != nil {
            outcome.withdraw(AppFlipChecks.needFetchedFiles, becauseOf: input.networkUnavailable)
        }
        return outcome
    }
}
