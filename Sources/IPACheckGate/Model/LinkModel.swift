package import Foundation
import IPACheckAASA
import IPACheckBundle
package import IPACheckLinks
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
    /// Why the build itself (archive, signature, seal, profile, distribution) was not checked, when it was not: a
    /// project's entitlements file is not a build.
    package let buildNotChecked: String?
    /// The time the run judged at: when a CDN copy's cache is expected to refresh is counted from it.
    package let now: Date
    /// The AASA files the run read, and which copy devices read.
    let documents: SiteDocuments

    /// The claims of every bundle: each entry with the file that serves it, or why iOS ignores it.
    static func claims(of facts: [BundleFacts]) -> [Claim] {
        facts.flatMap { fact in
            fact.domains.map { domain in
                let target = ReleaseGate.fetchTarget(domain, signing: fact.signingKind)
                var ignored: String?
                if !domain.isUsable {
                    ignored = domain.problems.filter { $0.rule.severity == .error }.map(\.message)
                        .joined(separator: "; ")
                } else if ServiceMapping.aasaService(domain.service) == nil {
                    ignored = "iOS reads no AASA for this service"
                } else if target == nil {
                    ignored = "?mode=\(domain.mode?.rawValue ?? "") is ignored in a distribution-signed build"
                }
                return Claim(
                    bundle: fact.bundle.path,
                    appID: fact.appID,
                    domain: domain,
                    target: target,
                    ignored: ignored
                )
            }
        }
    }

    /// The copy devices read for `target`, or `nil` when its host was not fetched.
    package func deviceCopy(_ target: AASAFetchTarget) -> DeviceCopy? {
        documents.deviceCopy(target)
    }

    /// What the run observed of `target`'s host (origin or `--aasa-dir` file, CDN), or `nil` when not fetched.
    package func site(_ target: AASAFetchTarget) -> AASASiteReport? {
        documents.report(for: target)
    }

    /// Whether a finding stands on the path of every link of the build, whatever its domain: the build does not
    /// install, or its signature or profile fails the distribution.
    ///
    /// Findings about App Flip, Firebase and the config's expected domains never stop a universal link.
    func blocksEveryLink(_ finding: Finding) -> Bool {
        guard finding.severity == .error, !Self.offPath.contains(finding.rule) else { return false }
        // The profile must grant every signed entitlement, or iOS refuses to install the build (ENT1xx).
        if Self.installRules.contains(finding.rule) { return true }
        return finding.domain == nil
    }

    /// Whether a finding stands on the path of links to `claim`'s host: an error about this entry, this bundle's
    /// association with the host, or the host's file.
    func blocks(_ finding: Finding, claim: Claim) -> Bool {
        guard finding.severity == .error, !Self.offPath.contains(finding.rule), !blocksEveryLink(finding),
            let domain = finding.domain?.lowercased()
        else { return false }
        if let bundle = finding.bundle, bundle != claim.bundle { return false }
        let hosts = [claim.domain.host.lowercased(), claim.target?.fetchHost].compactMap { $0 }
        return hosts.contains(domain)
    }

    /// Whether a finding is about the host's file (serving, CDN, content) rather than the bundle's entry.
    static func isAboutTheFile(_ finding: Finding) -> Bool {
        fileRules.contains(finding.rule)
    }

    private static let offPath: Set<String> = Set(
        (AppFlipChecks.rules.all + FirebaseChecks.rules.all + [CrossCheckRules.rules.expectedDomainMissing]).map(\.id)
    )

    private static let installRules: Set<String> = Set(EntitlementComparison.rules.all.map(\.id))

    private static let fileRules: Set<String> = Set(
        (ServingRules.rules.all + CDNRules.rules.all + AASARules.all
            + CrossCheckRules.rules.all.filter { $0 != CrossCheckRules.rules.managedWithoutEntitlement }).map(\.id)
    )
}
