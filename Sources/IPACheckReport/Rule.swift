/// The documentation of one rule: its stable ID, default severity, what it means and how to fix it.
///
/// Each rule is declared once, as a `static let` next to the code that raises it; the README's rule table, the
/// SARIF rule catalogue and `ipacheck rules` are all generated from these values.
public struct Rule: Hashable, Sendable, Codable {
    /// The stable identifier (`AASA104`); never renumbered, since CI suppressions and SARIF refer to it.
    public let id: String
    /// The severity findings of this rule get unless they say otherwise.
    public let severity: Severity
    /// A short title (`mixed legacy and modern formats`).
    public let title: String
    /// What the rule means and why it matters, in one or two sentences.
    public let summary: String
    /// How to fix what it finds.
    public let fix: String

    /// Declares a rule.
    public init(_ id: String, _ severity: Severity, _ title: String, summary: String, fix: String) {
        self.id = id
        self.severity = severity
        self.title = title
        self.summary = summary
        self.fix = fix
    }

    /// A finding of this rule, with the rule's severity (a report may raise or lower it for the whole rule, as
    /// its catalogue then says; never for one finding).
    ///
    /// - Parameters:
    ///   - message: What is wrong in this instance, in one sentence.
    ///   - fix: Overrides the rule's generic fix with advice for this instance.
    ///   - affects: The slices (or other parts) the same cause affects.
    public func finding(
        _ message: String,
        bundle: String? = nil,
        domain: String? = nil,
        url: String? = nil,
        location: String? = nil,
        fix: String? = nil,
        affects: [String]? = nil
    ) -> Finding {
        Finding(
            rule: id,
            severity: severity,
            message: message,
            bundle: bundle,
            domain: domain,
            url: url,
            location: location,
            fix: fix ?? self.fix,
            affects: affects
        )
    }

    /// The same rule with another severity: what a report's catalogue lists when an option (`verify --strict`)
    /// makes a rule fail the run.
    public func withSeverity(_ severity: Severity) -> Rule {
        Rule(id, severity, title, summary: summary, fix: fix)
    }
}
