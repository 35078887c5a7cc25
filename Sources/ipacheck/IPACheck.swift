import ArgumentParser
import IPACheckCommands

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
              ipacheck diff Shipped.ipa Resigned.ipa
              ipacheck profile Acme_AppStore.mobileprovision

            A build may be an .ipa, an .app folder, an .xcarchive or an unpacked ipa. Shell completions: ipacheck --generate-completion-script bash|zsh|fish (scripts/install installs them and the man page).
            """,
        version: ReportOutput.version,
        subcommands: [
            CheckCommand.self,
            InfoCommand.self,
            DomainsCommand.self,
            EntitlementsCommand.self,
            VerifyCommand.self,
            ProfileCommand.self,
            DiffCommand.self,
            MatchCommand.self,
            AASACommand.self,
            ExplainCommand.self,
            LinksCommand.self,
            LintCommand.self,
            AppFlipCommand.self,
            RulesCommand.self,
        ]
    )

    /// Runs the command line as ArgumentParser's own `main` does, except that its messages go through ``Console``:
    /// a usage error can quote an argument or a config file's key, so no control character in it reaches the
    /// terminal as it is.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let error = parserError(for: error)
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == .success { Console.printRendered(message) } else { Console.diagnose(message) }
            }
            Self.exit(withError: code)
        }
    }

    /// The library's ways of ending a run, as the parser's own: a usage error it found (exit 64, with the usage
    /// line) and an exit status after the answer.
    private static func parserError(for error: any Error) -> any Error {
        switch error {
        case let usage as UsageError: ValidationError(usage)
        case let exit as CommandExit: ExitCode(exit.code)
        default: error
        }
    }

    /// Without a subcommand there is nothing to do: show the help on stderr and exit 64, as for any usage error.
    func run() async throws {
        Console.diagnose(Self.helpMessage())
        throw ExitCode(64)
    }
}
