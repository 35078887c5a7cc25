package import IPACheckReport

/// A set of rules about the associated-domains entries as written (their syntax, and the build settings a project's
/// file leaves unexpanded): what `domains` reports beside its listing, so its list is the sets that say so.
package protocol EntryRuleSet: RuleSet {}

extension RuleFamily {
    /// The rules of every registered set about the associated-domains entries.
    package static var entryRules: [Rule] {
        registered.flatMap(\.sets).compactMap { $0 as? any EntryRuleSet }.flatMap(\.all)
    }
}
