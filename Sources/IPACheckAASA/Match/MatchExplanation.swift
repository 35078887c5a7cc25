/// The outcome of one rule in an explanation trace.
package enum AASATraceOutcome: String, Sendable, Hashable, Codable {
    /// The rule matched and accepts the URL.
    case matched
    /// The rule matched and is an exclude.
    case blocked
    /// The rule did not match.
    case failed
    /// An earlier rule decided; this one would have matched.
    case shadowed
    /// An earlier rule decided; this one would not have matched either.
    case notReached

    /// The outcome in words, for the text trace (`not reached`).
    package var words: String {
        switch self {
        case .matched: "matches"
        case .blocked: "blocks"
        case .failed: "does not match"
        case .shadowed: "would match, but an earlier rule decided"
        case .notReached: "not reached"
        }
    }
}
/// One rule tried while explaining a URL.
package struct AASATraceStep: Sendable, Hashable, Codable {
    /// The rule.
    package var rule: AASAPathRuleReference
    /// The rule as written (compact JSON).
    package var ruleText: String
    /// What happened.
    package var outcome: AASATraceOutcome
    /// Why, naming the URL part and the pattern.
    package var reason: String
}
/// A match result with every rule that was tried and why it did or did not match (for support triage).
package struct AASAMatchExplanation: Sendable, Hashable, Codable {
    /// The verdict.
    package var result: AASAMatchResult
    /// Every rule of the entry that applies, in evaluation order.
    package var steps: [AASATraceStep]

    /// An explanation of `result` by `steps` (none when no rule was tried).
    package init(result: AASAMatchResult, steps: [AASATraceStep]) {
        self.result = result
        self.steps = steps
    }

    /// The explanation as indented text lines.
    package var textLines: [String] {
        var lines = [result.textLine]
        for step in steps {
            lines.append(
                "  [\(step.rule.detail).\(step.rule.component)] \(step.outcome.words): \(step.ruleText) — \(step.reason)"
            )
        }
        return lines
    }
}
