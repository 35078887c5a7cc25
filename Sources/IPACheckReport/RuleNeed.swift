/// What a rule needs from a run before it can be judged at all, declared with the rule: a run without it lists the
/// rule as not checked, with the reason, instead of a list of rules kept beside the check.
package enum RuleNeed: Hashable, Sendable {
    /// A file of the hosts the build claims, fetched (or read offline): nothing can be judged of it without one.
    case fetchedHostFiles
    /// The bundles' files compared with their resource seals (`verify --no-resources` leaves it out).
    case resourceComparison
    /// The host itself, asked over the network: how it serves the file (a file read with `--offline` says nothing
    /// of it).
    case liveHost
    /// Every member read to its end (the seal pass of `check` and `verify`; opening the archive does not).
    case membersReadToTheEnd
}
