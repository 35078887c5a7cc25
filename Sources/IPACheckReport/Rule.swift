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

    /// A finding of this rule.
    ///
    /// - Parameters:
    ///   - message: What is wrong in this instance, in one sentence.
    ///   - severity: Overrides the rule's default severity when this instance is worse or milder.
    ///   - fix: Overrides the rule's generic fix with advice for this instance.
    public func finding(
        _ message: String,
        severity: Severity? = nil,
        bundle: String? = nil,
        domain: String? = nil,
        url: String? = nil,
        location: String? = nil,
        fix: String? = nil
    ) -> Finding {
        Finding(
            rule: id,
            severity: severity ?? self.severity,
            message: message,
            bundle: bundle,
            domain: domain,
            url: url,
            location: location,
            fix: fix ?? self.fix
        )
    }
}
