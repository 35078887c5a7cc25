package import IPACheckReport

extension RuleFamily {
    /// DIST: What the build is distributed for, against its profiles, platform and signing.
    package static let distribution = RuleFamily("DIST", sets: [DistributionChecks.rules])
}
