package import IPACheckReport
import IPACheckSigning

extension RuleFamily {
    /// SIG: Every code signature and its seal: code pages, special slots, CMS, entitlements blobs, resources.
    package static let signature = RuleFamily(
        "SIG",
        sets: [SignatureVerifier.rules, SignatureVerifier.trustRules, SignedEntitlements.rules, ResourceSeal.rules]
    )
}
