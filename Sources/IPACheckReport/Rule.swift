/// The documentation of one rule: its stable ID, default severity, what it means and how to fix it.
///
/// Each rule is declared once, as a `static let` next to the code that raises it; the rule table of docs/rules.md, the
/// SARIF rule catalogue and `ipacheck rules` are all generated from these values.
package struct Rule: Hashable, Sendable, Codable {
    /// The stable identifier (`AASA104`); never renumbered, since CI suppressions and SARIF refer to it.
    package let id: String
    /// The severity findings of this rule get unless they say otherwise.
    package let severity: Severity
    /// A short title (`mixed legacy and modern formats`).
    package let title: String
    /// What the rule means and why it matters, in one or two sentences.
    package let summary: String
    /// How to fix what it finds.
    package let fix: String
    /// Inputs that raise the rule and inputs that do not, for a rule whose input is text (an AASA document, an
    /// associated-domains entry, a config file); a test runs every one, and `ipacheck rules ID` prints them.
    package private(set) var examples: RuleExamples? = nil
    /// Where the rule's findings stand on a link's path, when the rule says so itself; otherwise its set says
    /// (``RuleSet/linkPath``), and a rule not listed through its set stands where its findings say.
    private var declaredLinkPath: LinkPathPlace? = nil

    private enum CodingKeys: String, CodingKey {
        case id, severity, title, summary, fix
    }

    /// What the rule needs from a run to be judged at all.
    package private(set) var needs: Set<RuleNeed> = []

    /// Declares a rule.
    package init(
        _ id: String,
        _ severity: Severity,
        _ title: String,
        summary: String,
        fix: String,
        examples: RuleExamples? = nil,
        linkPath: LinkPathPlace? = nil,
        needs: Set<RuleNeed> = []
    ) {
        self.id = id
        self.severity = severity
        self.title = title
        self.summary = summary
        self.fix = fix
        self.examples = examples
        declaredLinkPath = linkPath
        self.needs = needs
    }

    /// Two rules are the same rule when they say the same; where a set placed one on the link's path is not part of
    /// it (a rule taken from its set's ``RuleSet/all`` equals the rule as declared).
    package static func == (left: Rule, right: Rule) -> Bool {
        left.id == right.id && left.severity == right.severity && left.title == right.title
            && left.summary == right.summary && left.fix == right.fix && left.examples == right.examples
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(severity)
        hasher.combine(title)
        hasher.combine(summary)
        hasher.combine(fix)
        hasher.combine(examples)
    }

    /// Where the rule's findings stand on a link's path (docs/ios-model.md).
    package var linkPath: LinkPathPlace { declaredLinkPath ?? .byFinding }

    /// The rule placed as `setDefault` says, unless it says otherwise itself.
    func placed(_ setDefault: LinkPathPlace) -> Rule {
        var placed = self
        placed.declaredLinkPath = declaredLinkPath ?? setDefault
        return placed
    }

    /// A finding of this rule, with the rule's severity (a report may raise or lower it for the whole rule, as
    /// its catalogue then says; never for one finding).
    ///
    /// - Parameters:
    ///   - message: What is wrong in this instance, in one sentence.
    ///   - fix: Overrides the rule's generic fix with advice for this instance.
    ///   - affects: The slices (or other parts) the same cause affects.
    package func finding(
        _ message: String,
        bundle: String? = nil,
        domain: String? = nil,
        url: String? = nil,
        location: String? = nil,
        fix: String? = nil,
        affects: [String]? = nil
    ) -> Finding {
        RaisedRulesLog.record(id)
        return Finding(
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
    package func withSeverity(_ severity: Severity) -> Rule {
        Rule(id, severity, title, summary: summary, fix: fix, examples: examples, linkPath: declaredLinkPath)
    }
}

/// A rule's examples, as SwiftLint's `triggeringExamples` and `nonTriggeringExamples`: each triggering input must
/// raise the rule and each non-triggering one must not.
package struct RuleExamples: Hashable, Sendable, Codable {
    /// What an example is, and so how the test runs it.
    package enum Input: String, Hashable, Sendable, Codable {
        /// A whole `apple-app-site-association` document, linted as `ipacheck lint` does.
        case aasaDocument
        /// One `com.apple.developer.associated-domains` entry (`applinks:example.com`).
        case associatedDomainEntry
    }

    /// What the examples are.
    package let input: Input
    /// Inputs that raise the rule.
    package let triggering: [String]
    /// Inputs that do not.
    package let nonTriggering: [String]

    /// Declares examples.
    package init(_ input: Input, triggering: [String], nonTriggering: [String]) {
        self.input = input
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}
