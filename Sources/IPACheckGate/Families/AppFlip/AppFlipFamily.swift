package import IPACheckReport

extension RuleFamily {
    /// FLIP: Google App Flip: the configured link, its host file and the executable.
    package static let appFlip = RuleFamily("FLIP", sets: [AppFlipChecks.rules])
}
