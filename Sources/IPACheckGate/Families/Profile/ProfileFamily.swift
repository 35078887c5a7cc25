package import IPACheckReport
import IPACheckSigning

extension RuleFamily {
    /// PROF: The embedded provisioning profile: its CMS, dates, identifiers and what it grants.
    package static let profile = RuleFamily("PROF", sets: [ProfileChecks.rules, ProfileChecks.releaseRules])
}
