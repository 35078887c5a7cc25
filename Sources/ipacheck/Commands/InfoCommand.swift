import ArgumentParser
import IPACheckCommands

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
        try await InfoRun.run(path: ipa, format: output.format, archive: try archive.settings)
    }
}
