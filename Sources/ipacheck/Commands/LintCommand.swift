import ArgumentParser
import IPACheckCommands
import IPACheckReport

/// `ipacheck lint FILE`: what an AASA file's author got wrong, offline.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Lint an apple-app-site-association file offline.",
        discussion: """
            Reports what authors get wrong: mixed legacy and modern formats, rules that can never fire, catch-alls made by misspelled keys, excludes that exclude everything, bad or placeholder app IDs, unknown substitution variables, the 128 KB limit. Content that is no AASA document (empty, invalid JSON, not an object) is its rule's finding (exit 1); a file that cannot be read exits 2.

            Examples:
              ipacheck lint public/.well-known/apple-app-site-association
              ipacheck lint aasa.json --domain example.com --fail-on warning
            """
    )

    @Argument(help: "The AASA files (JSON, or CMS-signed).")
    var files: [String]

    @Option(help: "The domain the file is served for (used in messages and for host checks).")
    var domain: String?

    @OptionGroup var threshold: FailOnOption

    @OptionGroup var output: ReportFormatOption

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one AASA file to lint") }
    }

    @OptionGroup var time: TimeOptions

    func run() async throws {
        try await LintRun.run(
            files: files,
            domain: domain,
            failOn: threshold.failOn,
            format: output.format,
            now: time.date
        )
    }
}
