import ArgumentParser
import IPACheckGate
import IPACheckReport

/// `ipacheck diff OLD NEW`: what changed between two builds in what their signatures and profiles say.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract:
            "Compare two builds: entitlements, associated domains, app IDs, entitlement blobs, profiles, signers.",
        discussion: """
            Pairs the bundles of OLD and NEW by their path inside the app and lists, per bundle, what was removed, changed and added among the signed entitlements, the associated domains, the application identifier, the XML and DER entitlement blobs, the embedded profile's kind and the signing team; bundles that appeared or disappeared are listed too. It catches what re-signing tools do: a domain dropped or replaced by `*`, the DER blob gone, another team or kind of profile, an extension that lost its domains.

            Removals are regressions (errors, exit 1); changes are warnings and additions notes (exit 0 unless --fail-on says otherwise); equal builds exit 0; 2 when either build cannot be read.

            Examples:
              ipacheck diff Shipped.ipa Resigned.ipa
              ipacheck diff build-41.ipa build-42.ipa --format sarif > diff.sarif
              ipacheck diff Old.ipa New.ipa --fail-on warning   # any change fails
            """
    )

    @Argument(help: "The build you compare against (what shipped).")
    var old: String

    @Argument(help: "The build you are about to ship.")
    var new: String

    @Option(help: "Fail at this severity or worse: error (removals), warning (changes) or note (additions).")
    var failOn: Severity = .error

    @OptionGroup var output: ReportFormatOption

    @OptionGroup var archive: ArchiveOptions

    func run() async throws {
        var report = ReportOutput.report(rules: BuildDiff.rules.all, gate: FailThreshold(failOn: failOn))
        do {
            let diff = try BuildDiff.read(old: old, new: new, limits: archive.limits)
            report.add(input: new, findings: diff.findings)
            report.add(section: try diff.section())
        } catch let error as InputError {
            report.add(unreadable: error.file, reason: error.message)
        }
        try ReportOutput.finish(report, format: output.format)
    }
}
