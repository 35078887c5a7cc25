import ArgumentParser
import IPACheckBundle
import IPACheckReport

/// `ipacheck info APP.ipa`: the bundle tree.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the bundle tree: app, extensions, App Clips, watch apps and frameworks.",
        discussion: """
            For each bundle: bundle ID, version, platform, minimum OS, executable, architectures and a signing summary. The main app comes first. Problems with the archive are listed after the tree; they do not change the exit status, which is 0 unless the ipa cannot be read (2).

            Examples:
              ipacheck info App.ipa
              ipacheck info App.ipa --format json | jq '.bundles[].bundleID'
            """
    )

    @Argument(help: "The .ipa to read.")
    var ipa: String

    @OptionGroup var output: ReportFormatOption

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
