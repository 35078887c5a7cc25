/// What happened to one rule for one input.
package enum RuleOutcome: Hashable, Sendable {
    /// Carried out, and nothing found (or only suppressed findings).
    case passed
    /// Carried out, and at least one unsuppressed finding.
    case failed
    /// Not carried out, with the reason (offline, no App Flip config, no App Clip in the build, …).
    case notRun(reason: String)
}
