import ArgumentParser
import IPACheckCommands

/// `ipacheck rules`: every rule with its ID, severity, meaning and fix.
struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule ipacheck can raise, with what it means and how to fix it.",
        discussion: """
            Examples:
              ipacheck rules
              ipacheck rules LINK001
              ipacheck rules --format markdown    # the table of docs/rules.md
            """
    )

    /// How the catalogue is printed.
    @Argument(help: "Show only these rule IDs.")
    var ids: [String] = []

    @Option(help: "Output: text, json or markdown.")
    var format: RulesRun.Format = .text

    func run() async throws {
        try RulesRun.run(ids: ids, format: format)
    }

}
