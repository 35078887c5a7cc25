import ArgumentParser

/// The root command, which answers whether a build's universal links, web credentials and App Flip will work.
@main
struct IPACheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ipacheck",
        abstract:
            "Check an iOS build's associated domains against the apple-app-site-association files that serve them.",
        discussion: """
            Exit codes: 0 passed, 1 problems found (at or above --fail-on), 2 an input could not be read, 64 usage error.

            Examples:
              ipacheck info App.ipa
              ipacheck domains App.ipa --format json
              ipacheck check App.ipa --format sarif > ipacheck.sarif
              ipacheck explain https://example.com/cart App.ipa
            """,
        version: "0.1.0",
        subcommands: [
            CheckCommand.self,
            InfoCommand.self,
            DomainsCommand.self,
            EntitlementsCommand.self,
            VerifyCommand.self,
            MatchCommand.self,
            AASACommand.self,
            ExplainCommand.self,
            LintCommand.self,
            AppFlipCommand.self,
            RulesCommand.self,
        ]
    )

    /// Without a subcommand there is nothing to do: show the help on stderr and exit 64, as for any usage error.
    func run() async throws {
        Console.diagnose(Self.helpMessage())
        throw ExitCode(64)
    }
}
