/// Every rule of one ID prefix, listed in one place: the sets that declare them, each beside the code that raises
/// its rules.
///
/// The catalogue is made of families, and a test holds each rule's ID to its family's prefix and each prefix to one
/// family: whoever adds a rule finds the prefix's IDs, and the next free one, in one list.
package struct RuleFamily: Sendable {
    /// The ID prefix every rule of the family carries ("SIG").
    package let prefix: String
    /// The sets that declare the family's rules.
    package let sets: [any RuleSet]
    /// The family's rules declared each as a unit of its own, outside any set.
    package private(set) var units: [Rule] = []

    /// A family of `prefix` over these sets.
    package init(_ prefix: String, sets: [any RuleSet]) {
        self.prefix = prefix
        self.sets = sets
    }

    /// Every rule of the family, by ID.
    package var all: [Rule] {
        (sets.flatMap(\.all) + units).sorted { $0.id < $1.id }
    }

    /// The family with those of `rules` whose ID is its prefix and three digits as units of its own.
    package func including(_ rules: [Rule]) -> RuleFamily {
        var family = self
        family.units += rules.filter { rule in
            let number = rule.id.dropFirst(prefix.count)
            return rule.id.hasPrefix(prefix) && number.count == 3 && number.allSatisfy(\.isNumber)
        }
        return family
    }
}
