package import IPACheckReport

extension RuleFamily {
    /// PLAT: What the build is built for: SDK, minimum OS, platform and the facts a device reads.
    package static let platform = RuleFamily("PLAT", sets: [PlatformFactChecks.rules])
}
