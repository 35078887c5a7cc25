/// Which rules a command carried out for one input, and why it did not carry out the others.
///
/// A check that did not run is never a pass: every renderer shows a rule that is neither ``ran(_:)`` nor covered
/// by ``everyRule`` as not checked, with the reason given to ``skip(_:because:)`` (or "not checked" when no
/// reason was given, which the tests treat as a bug).
package struct RuleCoverage: Hashable, Sendable {
    /// Whether a rule was carried out.
    package enum Status: Hashable, Sendable {
        /// The check behind the rule was carried out for this input.
        case ran
        /// It was not, for this reason.
        case notRun(reason: String)
    }

    /// The reason given for rules nobody accounted for.
    package static let unaccounted = "not checked for this input"

    private var ran: Set<String> = []
    private var skipped: [String: String] = [:]
    private var everyOtherRuleRan = false

    /// No rule carried out yet.
    package init() {}

    /// Every rule of the report's catalogue carried out (for commands that always apply all the rules they list).
    package static var everyRule: RuleCoverage {
        var coverage = RuleCoverage()
        coverage.everyOtherRuleRan = true
        return coverage
    }

    /// Records that the checks behind these rules were carried out.
    ///
    /// A rule that ran for one subject (a domain, a bundle) counts as carried out even if it was skipped for another.
    package mutating func ran(_ rules: some Sequence<String>) {
        ran.formUnion(rules)
    }

    /// Records that these rules were carried out.
    package mutating func ran(_ rules: [Rule]) {
        ran(rules.map(\.id))
    }

    /// Records that these rules were not carried out, and why (the first reason given for a rule is kept).
    package mutating func skip(_ rules: some Sequence<String>, because reason: String) {
        for rule in rules where skipped[rule] == nil { skipped[rule] = reason }
    }

    /// Records that these rules were not carried out, and why.
    package mutating func skip(_ rules: [Rule], because reason: String) {
        skip(rules.map(\.id), because: reason)
    }

    /// Records that these rules were not carried out after all, though recorded as run.
    ///
    /// A failure elsewhere (no network) took away what they judge, so they must not be shown as passed. A rule
    /// already skipped keeps its first reason.
    package mutating func withdraw(_ rules: [Rule], because reason: String) {
        for rule in rules {
            ran.remove(rule.id)
            if skipped[rule.id] == nil { skipped[rule.id] = reason }
        }
    }

    /// Treats every rule not mentioned so far as carried out.
    package mutating func assumeTheRestRan() {
        everyOtherRuleRan = true
    }

    /// Adds what `other` recorded.
    package mutating func merge(_ other: RuleCoverage) {
        ran.formUnion(other.ran)
        for (rule, reason) in other.skipped where skipped[rule] == nil { skipped[rule] = reason }
        everyOtherRuleRan = everyOtherRuleRan || other.everyOtherRuleRan
    }

    /// Whether `rule` was carried out, or why not.
    package func status(of rule: String) -> Status {
        if ran.contains(rule) { return .ran }
        if let reason = skipped[rule] { return .notRun(reason: reason) }
        return everyOtherRuleRan ? .ran : .notRun(reason: Self.unaccounted)
    }
}
