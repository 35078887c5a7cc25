import IPACheckBundle
import IPACheckFetching
import IPACheckLinks
package import IPACheckReport
import IPACheckSigning
import IPACheckSites

/// The registry of the release gate's checks: what `check` runs on every input, in order, and the only source of
/// its findings and of its "not checked" list (``GateCheck``).
///
/// A check that judges one family's rules lives in that family's folder (`Families/<family>/GateChecks+<check>.swift`);
/// the two here judge several families' rules: a bundle's facts (ENT, SIG, PROF) and the hosts' files (AASA, SERVE,
/// CDN).
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
                because: facts.unknownDomainsReason ?? facts.unsignedReason
                    ?? "no bundle is signed with associated domains"
            )
        }
        guard !input.build.isEntitlementsFile else {
            outcome.coverage.ran(EntitlementsFileChecks.rules.all)
            outcome.coverage.skip(rules, because: notABuild)
            return outcome
        }
        outcome.coverage.skip(
            EntitlementsFileChecks.rules.all,
            because: "a build's entitlements come from its signature, not a project file"
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

    /// Each claimed host's file: how the origin serves it, Apple's CDN copy, and its content.
    ///
    /// The content is judged with the checks `lint` runs; a host's worst serving finding names the claims it breaks.
    static let hostFiles = GateCheck(.hostFiles) { input, rules in
        judgeHostFiles(
            asked: !input.build.targets.isEmpty,
            unknownDomains: input.facts.unknownDomainsReason ?? input.facts.unsignedReason,
            documents: input.documents,
            unserved: CrossChecks.unserved(input),
            networkUnavailable: input.networkUnavailable,
            fetch: input.options.fetch,
            rules: rules
        )
    }

    /// The AASA files check's judgement, over the facts it needs: whether any host's file was asked for (and, when
    /// none was, whether that is because some bundle's domains are unknown), what each one's fetch gave, and the
    /// claims of hosts without a file (their worst serving finding names them).
    static func judgeHostFiles(
        asked: Bool,
        unknownDomains: String? = nil,
        documents: SiteDocuments,
        unserved: [CrossChecks.UnservedClaim],
        networkUnavailable: NetworkUnavailable?,
        fetch: FetchOptions,
        rules: [Rule]
    ) -> CheckOutcome {
        guard asked else {
            return .notApplicable(
                rules,
                because: unknownDomains ?? "no bundle claims an associated domain whose AASA iOS reads"
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

}
