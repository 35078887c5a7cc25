import IPACheckBundle
import IPACheckPlist
import IPACheckReport
import IPACheckSites

extension GateChecks {
    /// Firebase: each bundle's GoogleService-Info.plist, Dynamic Links and email links.
    static let firebase = GateCheck(.firebase) { input, rules in
        guard !input.build.isEntitlementsFile else {
            // Before the build, the domain list alone says whether a claimed domain is a dead Dynamic Links one.
            let dead = FirebaseChecks.rules.deadDynamicLinks
            var outcome = CheckOutcome()
            for fact in input.facts {
                let bundle = FirebaseBundleFacts(
                    path: fact.bundle.path,
                    isExtension: true,
                    infoPlist: .dictionary([:]),
                    serviceFiles: [],
                    associatedDomains: fact.domains,
                    appID: fact.appID
                )
                outcome.findings += FirebaseChecks.deadDynamicLinkDomains(bundle, settings: FirebaseLinkSettings())
                    .filter { $0.rule == dead.id }
            }
            outcome.coverage.ran([dead])
            outcome.coverage.skip(rules.filter { $0 != dead }, because: notABuild)
            return outcome
        }
        let settings = input.options.configuration.firebase
        var outcome = CheckOutcome()
        let matcher = input.networkUnavailable == nil ? input.documents.linkMatcher : nil
        for bundle in input.build.firebase {
            outcome.findings += FirebaseChecks.check(bundle, settings: settings, matcher: matcher)
        }
        FirebaseChecks.recordCoverage(
            input.build.firebase,
            settings: settings,
            cdnAsked: input.documents.reports.contains { $0.cdn != nil },
            into: &outcome.coverage
        )
        outcome.withdraw(FirebaseChecks.needFetchedFiles, becauseOf: input.networkUnavailable)
        return outcome
    }
}
