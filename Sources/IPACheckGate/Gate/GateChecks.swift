import IPACheckAASA
import IPACheckBundle
import IPACheckFetching
import IPACheckLinks
import IPACheckPlist
package import IPACheckReport
import IPACheckSigning
import IPACheckSites

/// The registry of the release gate's checks: what `check` runs on every input, in order, and the only source of
/// its findings and of its "not checked" list (``GateCheck``).
package enum GateChecks {
    /// Every check, in the order their findings are gathered.
    static let all: [GateCheck] = [
        archive, signature, distribution, bundleFacts, appFlip, firebase, hostFiles, links, platformFacts,
    ]

    /// Every rule a check declares: what `check` lists.
    package static var rules: [Rule] { all.flatMap(\.rules) }

    /// Why the checks of a build do not apply to a project's entitlements file.
    static let notABuild =
        "an entitlements file is not a build: check the built ipa for its archive, signature, seal, profile, App "
        + "Flip and Firebase"

    /// The archive: how the ipa is zipped, and the members the seal pass could read.
    static let archive = GateCheck(.archive) { input, rules in
        judgeArchive(input.build.integrity, isEntitlementsFile: input.build.isEntitlementsFile, rules: rules)
    }

    /// The archive check's judgement, over the facts it needs.
    static func judgeArchive(_ integrity: BuildIntegrity, isEntitlementsFile: Bool, rules: [Rule]) -> CheckOutcome {
        guard !isEntitlementsFile else { return .notApplicable(rules, because: notABuild) }
        var outcome = CheckOutcome(findings: integrity.archiveFindings)
        outcome.coverage.ran(rules)
        return outcome
    }

    /// Every code signature and seal (code pages, special slots, CMS, resources) and each signer's trust; unsigned
    /// code is the distribution's question in a development gate.
    static let signature = GateCheck(.signature) { input, rules in
        judgeSignature(
            input.build.integrity,
            isEntitlementsFile: input.build.isEntitlementsFile,
            distribution: input.distribution,
            rules: rules
        )
    }

    /// The signature and seal check's judgement, over the facts it needs.
    static func judgeSignature(
        _ integrity: BuildIntegrity,
        isEntitlementsFile: Bool,
        distribution: Distribution?,
        rules: [Rule]
    ) -> CheckOutcome {
        guard !isEntitlementsFile else { return .notApplicable(rules, because: notABuild) }
        let found = integrity.seals.flatMap(\.findings) + integrity.trustFindings
        guard integrity.seals.contains(where: { $0.signature != nil }) else {
            // No code was read, so no signature was verified: the findings say why (ARC008, ARC009).
            var outcome = CheckOutcome(findings: found)
            outcome.coverage.skip(rules, because: DistributionChecks.noExecutable)
            return outcome
        }
        var outcome = CheckOutcome()
        if distribution == .development {
            let unsigned = SignatureVerifier.rules.unsigned
            outcome.findings = found.filter { $0.rule != unsigned.id }
            outcome.coverage.skip([unsigned], because: DistributionChecks.developmentAccepts)
        } else {
            outcome.findings = found
        }
        if !integrity.resourcesChecked {
            // verify --no-resources: the seal was read, its comparison with the files left out.
            let compared = rules.filter { $0.needs.contains(.resourceComparison) }
            outcome.coverage.skip(compared, because: ResourceSeal.comparisonSkippedReason)
            outcome.coverage.ran(rules.filter { !compared.contains($0) })
        } else {
            outcome.coverage.ran(rules)
        }
        return outcome
    }

    /// What the build is distributed for, against its profiles, platform and signing.
    static let distribution = GateCheck(.distribution) { input, rules in
        guard !input.build.isEntitlementsFile else { return .notApplicable(rules, because: notABuild) }
        var outcome = CheckOutcome()
        outcome.findings = DistributionChecks.findings(
            distribution: input.distribution,
            asked: input.options.askedDistribution != nil,
            facts: input.facts,
            coverage: &outcome.coverage
        )
        return outcome
    }

    /// What each bundle's signature and profile say: the signed entitlements, the profile, the entitlements the
    /// profile grants, and each associated-domains entry (or, for a project file, what the file says).
    static let bundleFacts = GateCheck(.bundleFacts) { input, rules in
        let facts = input.facts
        var outcome = CheckOutcome(findings: facts.flatMap { $0.findings(judgedAt: input.options.now) })
        if facts.contains(where: { $0.entitlements[AssociatedDomains.key] != nil }) {
            outcome.coverage.ran(AssociatedDomainRules.rules.all)
        } else {
            outcome.coverage.skip(
                AssociatedDomainRules.rules.all,
                because: "no bundle is signed with associated domains"
            )
        }
        guard !input.build.isEntitlementsFile else {
            outcome.coverage.ran(EntitlementsFileChecks.rules.all)
            outcome.coverage.skip(rules, because: notABuild)
            return outcome
        }
        outcome.coverage.skip(
            EntitlementsFileChecks.rules.all,
            because: "the build's entitlements are signed, not a project file"
        )
        // Apple re-signs what it delivers through the App Store and TestFlight, adding the DER form.
        if !facts.contains(where: { $0.container != nil }) {
            outcome.coverage.skip(SignedEntitlements.rules.all, because: DistributionChecks.noExecutable)
        } else if input.distribution == .appStore {
            let noDER = SignedEntitlements.rules.noDER
            outcome.findings.removeAll { $0.rule == noDER.id }
            outcome.coverage.ran(SignedEntitlements.rules.all.filter { $0 != noDER })
            outcome.coverage.skip(
                [noDER],
                because: "Apple re-signs App Store and TestFlight builds, adding the DER entitlements"
            )
        } else {
            outcome.coverage.ran(SignedEntitlements.rules.all)
        }
        let profileRules = ProfileChecks.rules.all
        if facts.contains(where: { $0.bundle.provisioningProfile != nil }) {
            outcome.coverage.ran(profileRules)
        } else {
            outcome.coverage.skip(profileRules, because: "the build embeds no provisioning profile")
        }
        if facts.contains(where: { $0.profile != nil && !$0.entitlements.isEmpty }) {
            outcome.coverage.ran(EntitlementComparison.rules.all)
        } else {
            outcome.coverage.skip(
                EntitlementComparison.rules.all,
                because: "no bundle has both a readable profile and signed entitlements to compare"
            )
        }
        return outcome
    }

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

    /// Each claimed host's file: how the origin serves it, Apple's CDN copy, and its content.
    ///
    /// The content is judged with the checks `lint` runs; a host's worst serving finding names the claims it breaks.
    static let hostFiles = GateCheck(.hostFiles) { input, rules in
        judgeHostFiles(
            asked: !input.build.targets.isEmpty,
            documents: input.documents,
            unserved: CrossChecks.unserved(input),
            networkUnavailable: input.networkUnavailable,
            fetch: input.options.fetch,
            rules: rules
        )
    }

    /// The AASA files check's judgement, over the facts it needs: whether any host's file was asked for, what
    /// each one's fetch gave, and the claims of hosts without a file (their worst serving finding names them).
    static func judgeHostFiles(
        asked: Bool,
        documents: SiteDocuments,
        unserved: [CrossChecks.UnservedClaim],
        networkUnavailable: NetworkUnavailable?,
        fetch: FetchOptions,
        rules: [Rule]
    ) -> CheckOutcome {
        guard asked else {
            return .notApplicable(
                rules,
                because: "no bundle claims an associated domain whose AASA iOS reads"
            )
        }
        if let unavailable = networkUnavailable {
            return .notApplicable(rules, because: unavailable.notCheckedReason)
        }
        var outcome = CheckOutcome(findings: documents.findings)
        CrossChecks.nameUnservedClaims(unserved, in: &outcome.findings)
        AASASiteFetcher.recordCoverage(options: fetch, into: &outcome.coverage)
        if documents.anyDocument {
            outcome.coverage.ran(AASARules.all)
        } else {
            outcome.coverage.skip(AASARules.all, because: "no AASA file could be read (see the serving findings)")
        }
        return outcome
    }

    /// Each bundle's claims held against the file of its host (the LINK rules), App Clip coverage and the config's
    /// expected domains.
    static let links = GateCheck(.links) {
        input,
        rules in
        var outcome = CrossChecks.outcome(input)
        outcome.withdraw(CrossCheckRules.needFetchedFiles, becauseOf: input.networkUnavailable)
        return outcome
    }
}
