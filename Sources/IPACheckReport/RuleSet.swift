import IPACheckConcurrency

/// Rules declared as the stored properties of one value, beside the code that raises them.
///
/// ``all`` lists them by reflection, in declaration order, so the list cannot miss a rule: adding a rule is one
/// declaration in its own file (and its test). The rule catalogue is the union of every set.
package protocol RuleSet: Sendable {
    /// Where the set's findings stand on a link's path, for each rule that does not say (``Rule/linkPath``).
    var linkPath: LinkPathPlace { get }
}

/// Each set type's rules, listed once: every set is one constant value of its type, and reflecting it again on every
/// use took about a millisecond of `check`'s CPU (`perf` samples; no change in wall time could be measured).
private let listedRules = Locked<[ObjectIdentifier: [Rule]]>([:])

extension RuleSet {
    /// Most sets' findings stand where they say (their domain, or none).
    package var linkPath: LinkPathPlace { .byFinding }

    /// Every rule declared in this set, in declaration order, each placed on the link's path as it or the set says.
    package var all: [Rule] {
        let type = ObjectIdentifier(Self.self)
        if let listed = listedRules.withLock({ $0[type] }) { return listed }
        let rules = Mirror(reflecting: self).children.compactMap { ($0.value as? Rule)?.placed(linkPath) }
        listedRules.withLock { $0[type] = rules }
        return rules
    }
}
