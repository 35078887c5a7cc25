import IPACheckBundle
import IPACheckLinks
package import IPACheckReport

extension RuleFamily {
    /// ENT: The associated-domains entries and the entitlements the profile grants, in a build or a project file.
    package static let entitlements = RuleFamily(
        "ENT",
        sets: [AssociatedDomainRules.rules, EntitlementComparison.rules, EntitlementsFileChecks.rules]
    )
}
