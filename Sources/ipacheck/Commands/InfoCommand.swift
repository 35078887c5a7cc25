import ArgumentParser
import IPACheckCore

/// `ipacheck info APP.ipa`: the bundle tree.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the bundle tree: app, extensions, App Clips, watch apps and frameworks.",
        discussion: """
            For each bundle: bundle ID, version, platform, minimum OS, executable, architectures and a signing summary. The main app comes first.

            Examples:
              ipacheck info App.ipa
              ipacheck info App.ipa --format json | jq '.bundles[].bundleID'
            """
    )

    @Argument(help: "The .ipa to read.")
    var ipa: String

    @OptionGroup var output: FormatOption

    func run() async throws {
        let report = try await ExitStatus.reportingInputErrors {
            try InfoReport.make(for: try IPAFile(path: ipa))
        }
        switch output.format {
        case .json: try Console.printJSON(report)
        case .text: Console.print(report.text(style: Console.style))
        }
    }
}
