/// Rules declared as the stored properties of one value, beside the code that raises them.
///
/// ``all`` lists them by reflection, in declaration order, so the list cannot miss a rule: adding a rule is one
/// declaration in its own file (and its test). The rule catalogue is the union of every set.
package protocol RuleSet: Sendable {}

extension RuleSet {
    /// Every rule declared in this set, in declaration order.
    package var all: [Rule] {
        Mirror(reflecting: self).children.compactMap { $0.value as? Rule }
    }
}
