package import Foundation
package import IPACheckBundle
import IPACheckLinks
package import IPACheckReport
import IPACheckSigning

extension BundleFacts {
    /// What the families find in one bundle's facts, judged at `now`: an executable that cannot be read (ARC), its
    /// signed entitlements and slices (SIG), its profile (PROF), what the profile does not grant and each
    /// associated-domains entry (ENT).
    ///
    /// `check`, `domains` and `diff` all read a bundle's findings here, so they cannot tell different stories.
    package func findings(judgedAt now: Date) -> [Finding] {
        var findings = EntitlementsFileChecks.unexpandedAppID(unexpandedAppID, file: bundle.path).map { [$0] } ?? []
        if let unreadableExecutable, !sealReportsUnreadableExecutable {
            findings.append(ArchiveRules.rules.unreadableExecutable.finding(unreadableExecutable, bundle: bundle.path))
        }
        findings += slices.flatMap(\.entitlements.findings)
        if slices.count > 1 {
            findings += SignedEntitlements.compareSlices(
                slices.map { ($0.architecture, $0.entitlements) },
                bundle: bundle.path
            )
            .map(\.finding)
        }
        if let profile, let profileSignature {
            findings += ProfileChecks.findings(for: profile, signature: profileSignature, now: now, bundle: bundle.path)
        } else if let unreadableProfile {
            findings.append(
                ProfileChecks.rules.profileUnreadable.finding(
                    "\(unreadableProfile.path) cannot be read: \(unreadableProfile.reason)",
                    bundle: bundle.path,
                    location: unreadableProfile.path
                )
            )
        }
        if let granted = profile?.entitlements, !entitlements.isEmpty {
            findings += EntitlementComparison.compare(signed: entitlements, profile: granted, bundle: bundle.path)
        }
        findings += AssociatedDomainRules.findings(of: entryProblems)
        findings += AssociatedDomainRules.alternateModeFindings(domains, signing: signingKind, bundle: bundle.path)
        return findings
    }
}
