import ArgumentParser
import IPACheckBundle
import IPACheckReport

/// `ipacheck info APP.ipa`: the bundle tree.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the bundle tree: app, extensions, App Clips, watch apps and frameworks.",
        discussion: """
            For each bundle: bundle ID, version, platform, minimum OS, executable, architectures and a signing summary. The main app comes first. Problems with the archive are listed after the tree; they do not change the exit status, which is 0 unless the ipa cannot be read (2). Output is text or json: a listing judges nothing, so it writes no test report (`ipacheck check --format junit|sarif|github` does).

            Examples:
              ipacheck info App.ipa
              ipacheck info App.ipa --format json | jq '.bundles[].bundleID'
            """
    )

    @Argument(help: "The .ipa to read.")
    var ipa: String

    @OptionGroup var output: ListingFormatOption

    @OptionGroup var archive: ArchiveOptions

    func run() async throws {
        var report = ReportOutput.report(rules: InfoReport.rules, kind: .listing)
        do {
            let info = try InfoReport.make(for: try IPAFile(path: ipa, limits: archive.limits))
            report.add(input: ipa, findings: info.findings)
            report.add(section: try info.section())
        } catch let error as InputError {
            report.add(unreadable: ipa, reason: error.message)
        }
        try ReportOutput.finish(report, format: output.format)
    }
}

/// The `--format` option of the listing commands (`info`, `domains`): `text` or `json`, the contract's formats for
/// every subcommand.
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
