import ArgumentParser
import IPACheckCommands
import IPACheckReport

/// The `--format` option shared by the subcommands that print text or JSON.
struct FormatOption: ParsableArguments {
    @Option(name: .long, help: "Output format: text (for people) or json (for machines).")
    var format: OutputFormat = .text
}

/// The `--format` option of the report commands.
struct ReportFormatOption: ParsableArguments {
    @Option(name: .long, help: "Output: text (for people), json, sarif, junit or github.")
    var format: ReportFormat = .text
}

/// The `--format` option of the listing commands (`info`, `domains`, `device`): `text` or `json`, the formats
/// every subcommand offers.
///
/// The gate's formats are verdicts: a JUnit test case with a `<failure>` fails a CI test report, a SARIF error
/// opens a code-scanning alert that can block a merge, a GitHub `::error` annotation flags the run. A listing
/// judges nothing and exits 0 whatever it lists, so in those formats its findings would contradict its exit status
/// (a red test report from a green step). Asked for one, it is a usage error naming `ipacheck check`, which writes
/// them and fails the run on what they report.
struct ListingFormatOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Output: text (for people) or json. For sarif, junit or github, run `ipacheck check`.",
            valueName: "format"
        ),
        completion: .list(["text", "json"]),
        transform: ListingFormatOption.parse
    )
    var format: ReportFormat = .text

    /// `text` or `json`; a gate format is refused with the reason and the command that writes it.
    static func parse(_ argument: String) throws -> ReportFormat {
        switch ReportFormat(rawValue: argument) {
        case .text: return .text
        case .json: return .json
        case .sarif, .junit, .github:
            throw ValidationError(
                "\(argument) reports a verdict, and this command only lists (it exits 0 whatever it finds); "
                    + "use text or json, or `ipacheck check --format \(argument)` to gate on the findings"
            )
        case nil:
            throw ValidationError("use text or json")
        }
    }
}
