import IPACheckReport

/// `ipacheck rules [ID...]`: the rule catalogue, with each rule's examples.
package enum RulesRun {
    /// The listing's format.
    package enum Format: String, CaseIterable, Sendable {
        /// For people; a rule asked for by ID shows its examples.
        case text
        /// For machines, with examples.
        case json
        /// The Markdown table of docs/rules.md.
        case markdown
    }

    /// Prints the rules with these IDs (every rule when none), in `format`; an unknown ID is a usage error.
    package static func run(ids: [String], format: Format) throws {
        let wanted = Set(ids.map { $0.uppercased() })
        let rules = RuleCatalog.all.filter { wanted.isEmpty || wanted.contains($0.id) }
        if let unknown = wanted.subtracting(rules.map(\.id)).sorted().first {
            throw UsageError("no rule \(unknown); `ipacheck rules` lists them all")
        }
        switch format {
        case .json: try Console.printJSON(RuleListing(rules: rules.map(DocumentedRule.init)), schema: .rules)
        case .markdown: Console.printRendered(RuleCatalog.markdownTable)
        case .text:
            let style = Console.style
            var out = ""
            for rule in rules {
                out += style.bold(rule.id) + "  " + style.severity(rule.severity) + "  \(rule.title)\n"
                out += "    \(rule.summary)\n" + "    " + style.dim("fix: \(rule.fix)") + "\n"
                if let examples = rule.examples, ids.isEmpty == false {
                    out += "    triggering examples:\n"
                    for example in examples.triggering { out += indented(example) }
                    out += "    non-triggering examples:\n"
                    for example in examples.nonTriggering { out += indented(example) }
                }
            }
            Console.printRendered(out)
        }
    }

    /// An example, indented under its heading; a multi-line document keeps its lines.
    private static func indented(_ example: String) -> String {
        example.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 + "\n" }.joined()
            + (example.contains("\n") ? "\n" : "")
    }
}
/// `rules --format json`: an object, so that it names its schema as every JSON output does.
private struct RuleListing: Encodable {
    let rules: [DocumentedRule]
}

private struct DocumentedRule: Encodable {
    let rule: Rule

    private enum CodingKeys: String, CodingKey {
        case id, severity, title, summary, fix, examples
    }

    private struct Examples: Encodable {
        let input: String
        let triggering: [String]
        let nonTriggering: [String]
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rule.id, forKey: .id)
        try container.encode(rule.severity, forKey: .severity)
        try container.encode(rule.title, forKey: .title)
        try container.encode(rule.summary, forKey: .summary)
        try container.encode(rule.fix, forKey: .fix)
        try container.encodeIfPresent(
            rule.examples.map {
                Examples(input: $0.input.rawValue, triggering: $0.triggering, nonTriggering: $0.nonTriggering)
            },
            forKey: .examples
        )
    }
}
