import ArgumentParser
import IPACheckGate
import IPACheckReport

/// `ipacheck rules`: every rule with its ID, severity, meaning and fix.
struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule ipacheck can raise, with what it means and how to fix it.",
        discussion: """
            Examples:
              ipacheck rules
              ipacheck rules LINK001
              ipacheck rules --format markdown    # the README's table
            """
    )

    /// How the catalogue is printed.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json, markdown
    }

    @Argument(help: "Show only these rule IDs.")
    var ids: [String] = []

    @Option(help: "Output: text, json or markdown.")
    var format: Format = .text

    func run() async throws {
        let wanted = Set(ids.map { $0.uppercased() })
        let rules = RuleCatalog.all.filter { wanted.isEmpty || wanted.contains($0.id) }
        if let unknown = wanted.subtracting(rules.map(\.id)).sorted().first {
            throw ValidationError("no rule \(unknown); `ipacheck rules` lists them all")
        }
        switch format {
        case .json: try Console.printJSON(rules)
        case .markdown: Console.printRendered(RuleCatalog.markdownTable)
        case .text:
            let style = Console.style
            var out = ""
            for rule in rules {
                out += style.bold(rule.id) + "  " + style.severity(rule.severity) + "  \(rule.title)\n"
                out += "    \(rule.summary)\n" + "    " + style.dim("fix: \(rule.fix)") + "\n"
            }
            Console.printRendered(out)
        }
    }
}
