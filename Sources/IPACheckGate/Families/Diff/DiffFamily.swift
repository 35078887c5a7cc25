package import IPACheckReport

extension RuleFamily {
    /// DIFF: What changed between two builds that can break links, credentials or installs (`ipacheck diff`).
    package static let diff = RuleFamily("DIFF", sets: [BuildDiff.rules])
}
