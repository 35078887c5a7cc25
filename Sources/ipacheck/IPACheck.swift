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
            DeviceCommand.self,
            LintCommand.self,
            AppFlipCommand.self,
            RulesCommand.self,
        ]
    )

    /// Runs the command line as ArgumentParser's own `main` does, except that its messages go through ``Console``
    /// (a usage error can quote an argument or a config file's key, so no control character in it reaches the
    /// terminal as it is), every error starts `ipacheck: error:`, and a usage error found while running names the
    /// subcommand's usage, not the root's.
    static func main() async {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            report(error, subcommand: nil)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            report(error, subcommand: type(of: command))
        }
    }

    /// Prints what ended the run and exits with its status: the library's usage errors (64) and exit statuses
    /// after an answer, the parser's own errors, help and version.
    private static func report(_ error: any Error, subcommand: (any ParsableCommand.Type)?) -> Never {
        if let usage = error as? UsageError, let subcommand {
            Console.diagnose(
                "ipacheck: error: \(usage.description)\nUsage: " + usageString(for: subcommand)
                    + "\n  See '\(commandPath(subcommand)) --help' for more information."
            )
            Self.exit(withError: ExitCode(64))
        }
        let error = parserError(for: error)
        let code = exitCode(for: error)
        var message = fullMessage(for: error)
        if message.hasPrefix("Error: ") { message = "ipacheck: error: " + message.dropFirst("Error: ".count) }
        if !message.isEmpty {
            if code == .success { Console.printRendered(message) } else { Console.diagnose(message) }
        }
        Self.exit(withError: code)
    }

    /// `ipacheck appflip url`: the words that name `command` on the command line.
    private static func commandPath(_ command: any ParsableCommand.Type) -> String {
        func search(_ node: any ParsableCommand.Type, _ path: [String]) -> [String]? {
            if ObjectIdentifier(node) == ObjectIdentifier(command) { return path }
            for child in node.configuration.subcommands {
                if let found = search(child, path + [child._commandName]) { return found }
            }
            return nil
        }
        return (search(IPACheck.self, ["ipacheck"]) ?? ["ipacheck", command._commandName]).joined(separator: " ")
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
