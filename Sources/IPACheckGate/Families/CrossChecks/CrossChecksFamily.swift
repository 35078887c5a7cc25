package import IPACheckReport

extension RuleFamily {
    /// LINK: The build's entries against the hosts' files: whether each claim is answered for this app.
    package static let links = RuleFamily("LINK", sets: [CrossCheckRules.rules])
}
