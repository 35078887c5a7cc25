package import Foundation
import IPACheckAASA
package import IPACheckBundle
package import IPACheckLinks
import IPACheckPlist
package import IPACheckReport
package import IPACheckSigning
package import IPACheckSites

/// What iOS will do with one build's associated domains, computed once by the gate and rendered by every command:
/// each bundle's entries as signed (and whether iOS uses them for this build), each host's copies of the AASA and
/// the one devices read, and the findings the gate kept.
///
/// `check` reports its findings, `explain` traces one URL through it (``explain(_:)``): no command judges a link
/// on its own, so a verdict one command gives is the verdict every command gives.
package struct LinkModel: Sendable {
    /// One associated-domains entry of one bundle, as iOS takes it for this build.
    package struct Claim: Sendable {
        /// The bundle whose signature holds the entry (`Payload/App.app`).
        package let bundle: String
        /// The bundle's signed `application-identifier`, which the AASA must list.
        package let appID: String?
        /// The entry as signed.
        package let domain: AssociatedDomain
        /// The file that serves the entry; `nil` when iOS ignores the entry for this build (``ignored``).
        package let target: AASAFetchTarget?
        /// Why iOS ignores the entry for this build, when it does.
        package let ignored: String?
    }

    /// Every entry of every bundle, the main app first, in the signed order.
    package let claims: [Claim]
    /// The findings the gate kept for the build (suppressed ones are not among them), worst first.
    package let findings: [Finding]
    /// The distribution the build was judged for.
    package let distribution: Distribution?
    /// Where a device installs the build, as its main app's profile says (docs/ios-model.md#install); `nil` for
    /// an entitlements file or a build without a readable profile.
    package var installsOn: String? = nil
    /// Why the build itself (archive, signature, seal, profile, distribution) was not checked, when it was not: a
    /// project's entitlements file is not a build.
    package let buildNotChecked: String?
    /// The time the run judged at: when a CDN copy's cache is expected to refresh is counted from it.
    package let now: Date
    /// Why the hosts' files could not be fetched at all (no network), when they could not: a link that reaches the
    /// file is then undecided, not broken.
    package var filesUnavailable: String? = nil
    /// Why the build claims no domain at all when there is more to say than that (its main app is unsigned, so it
    /// has no entitlements yet): what `check` and `domains` say of the same build.
    package var unclaimedBecause: String? = nil
    /// The AASA files the run read, and which copy devices read.
    let documents: SiteDocuments

    /// Where devices install a build whose main app is `main`, in words.
    static func installation(_ main: BundleFacts?) -> String? {
        guard let main else { return nil }
        if main.profile == nil, DistributionChecks.appStoreDelivery(main) != nil {
            return "an App Store delivery: it runs on the device it was delivered to"
        }
        guard let profile = main.profile else { return nil }
        let devices = profile.provisionedDeviceCount.map { "the \($0) device\($0 == 1 ? "" : "s")" } ?? "the devices"
        switch profile.kind {
        case .development: return "\(devices) its development profile lists (Xcode or a development export)"
        case .adHoc: return "\(devices) its ad hoc profile lists"
        case .appStore: return "devices it reaches through App Store Connect (TestFlight or the App Store)"
        case .enterprise: return "any device whose user trusts the in-house (enterprise) developer"
        case .developerID: return "no iOS device (a macOS Developer ID profile)"
        }
    }

    /// The claims of every bundle: each entry with the file that serves it, or why iOS ignores it.
    static func claims(of facts: [BundleFacts], mdmDirectDownloads: Bool = false) -> [Claim] {
        facts.flatMap { fact in
            fact.domains.map { domain in
                let target = ReleaseGate.fetchTarget(
                    domain,
                    signing: fact.signingKind,
                    mdmDirectDownloads: mdmDirectDownloads
                )
                return Claim(
                    bundle: fact.bundle.path,
                    appID: fact.appID,
                    domain: domain,
                    target: target,
                    ignored: unusedReason(domain, of: fact)
                )
            }
        }
    }

    /// Why iOS does not use `domain` for the bundle of `fact` on any device, or `nil` when some device uses it.
    ///
    /// From docs/ios-model.md#entries: the entry is malformed, its service reads no AASA, a
    /// developer-mode entry is in a build not signed for development, a managed entry lacks the MDM entitlement,
    /// or the profile does not grant it (the build then installs nowhere). What `domains` says as `usable`,
    /// what `links` skips and what `explain` stops at.
    package static func unusedReason(_ domain: AssociatedDomain, of fact: BundleFacts) -> String? {
        if !domain.isUsable {
            return domain.problems.filter(\.kind.ignoresEntry).map(\.message).joined(separator: "; ")
        }
        if ServiceMapping.aasaService(domain.service) == nil { return "iOS reads no AASA for this service" }
        if let mode = domain.mode {
            if mode.requiresDevelopmentSigning, fact.signingKind == .distribution {
                return "?mode=\(mode.rawValue) is ignored in a distribution-signed build"
            }
            if mode != .developer, fact.entitlements[AssociatedDomains.mdmManagedKey]?.boolValue != true {
                return "?mode=\(mode.rawValue) needs the app to be signed with \(AssociatedDomains.mdmManagedKey), "
                    + "so iOS never accepts the MDM-supplied domain"
            }
        }
        return EntitlementComparison.notGranted(domain, of: fact)
    }

    /// The applinks entries that claim `host` as iOS resolves them: per bundle, the entry or entries that spell the
    /// most of the name among those iOS uses ("Domain matching is based on the longest substring in the applinks
    /// entries", docs/ios-model.md#host I29); a bundle whose covering entries iOS all ignores keeps them, so the answer can
    /// say why.
    package func resolvedClaims(for host: String) -> [Claim] {
        let covering = claims.filter { $0.domain.service == .applinks && $0.domain.covers(host: host) }
        var resolved: [Claim] = []
        var bundles: [String] = []
        for claim in covering where !bundles.contains(claim.bundle) { bundles.append(claim.bundle) }
        for bundle in bundles {
            let own = covering.filter { $0.bundle == bundle }
            let used = own.filter { $0.ignored == nil && $0.target != nil }
            let pool = used.isEmpty ? own : used
            let best = pool.compactMap { $0.domain.specificity(for: host) }.max()
            resolved += pool.filter { $0.domain.specificity(for: host) == best }
        }
        return resolved
    }

    /// The copy devices read for `target`, or `nil` when its host was not fetched.
    package func deviceCopy(_ target: AASAFetchTarget) -> DeviceCopy? {
        documents.deviceCopy(target)
    }

    /// What the run observed of `target`'s host (origin or `--aasa-dir` file, CDN), or `nil` when not fetched.
    package func site(_ target: AASAFetchTarget) -> AASASiteReport? {
        documents.report(for: target)
    }

    /// The rules that say a bundle's signed entitlements could not be read (its executable, or the blob itself).
    ///
    /// What such a bundle claims is unknown. The readers say which of their problems leave them unknown.
    package static let entitlementsUnread = Set(
        ArchiveProblem.Kind.allCases.filter(\.leavesEntitlementsUnknown).map { ArchiveProblem($0, "").rule.id }
            + SigningProblem.Kind.allCases.filter(\.leavesEntitlementsUnknown).map { SigningProblem($0, "").rule.id }
    )

    /// The findings that keep every device from installing or running the build: `explain`'s build step, and why
    /// `domains` calls no entry of such a build usable.
    package var buildBlockers: [Finding] { findings.filter(blocksEveryLink) }

    /// Whether a finding stands on the path of every link of the build, whatever its domain: the build does not
    /// install, or its signature or profile fails the distribution.
    ///
    /// Findings about App Flip, Firebase and the config's expected domains never stop a universal link.
    func blocksEveryLink(_ finding: Finding) -> Bool {
        guard finding.severity == .error else { return false }
        switch Self.place(of: finding) {
        case .offPath: return false
        // The profile must grant every signed entitlement, or iOS refuses to install the build (ENT1xx).
        case .install: return true
        case .byFinding, .hostFile: return finding.domain == nil
        }
    }

    /// Whether a finding stands on the path of links to `claim`'s host: an error about this entry, this bundle's
    /// association with the host, or the host's file.
    func blocks(_ finding: Finding, claim: Claim) -> Bool {
        guard finding.severity == .error, Self.place(of: finding) != .offPath, !blocksEveryLink(finding),
            let domain = finding.domain?.lowercased()
        else { return false }
        if let bundle = finding.bundle, bundle != claim.bundle { return false }
        let hosts = [claim.domain.host.lowercased(), claim.target?.fetchHost].compactMap { $0 }
        return hosts.contains(domain)
    }

    /// Whether a finding is about the host's file (serving, CDN, content) rather than the bundle's entry.
    static func isAboutTheFile(_ finding: Finding) -> Bool {
        place(of: finding) == .hostFile
    }

    /// Where each rule the gate raises stands on a link's path, as the rule declares it (``Rule/linkPath``).
    private static let places: [String: LinkPathPlace] = Dictionary(
        GateChecks.rules.map { ($0.id, $0.linkPath) },
        uniquingKeysWith: { first, _ in first }
    )

    /// Where `finding` stands on a link's path: as its rule declares, or where it says for a rule the gate does
    /// not raise.
    private static func place(of finding: Finding) -> LinkPathPlace {
        places[finding.rule] ?? .byFinding
    }
}
