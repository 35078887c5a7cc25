/// Rules declared as the stored properties of one value, beside the code that raises them.
///
/// ``all`` lists them by reflection, in declaration order, so the list cannot miss a rule: adding a rule is one
/// declaration in its own file (and its test). The rule catalogue is the union of every set.
package protocol RuleSet: Sendable {
    /// Where the set's findings stand on a link's path, for each rule that does not say (``Rule/linkPath``).
    var linkPath: LinkPathPlace { get }
}

extension RuleSet {
    /// Most sets' findings stand where they say (their domain, or none).
    package var linkPath: LinkPathPlace { .byFinding }

    /// Every rule declared in this set, in declaration order, each placed on the link's path as it or the set says.
    package var all: [Rule] {
        Mirror(reflecting: self).children.compactMap { ($0.value as? Rule)?.placed(linkPath) }
    }
}
