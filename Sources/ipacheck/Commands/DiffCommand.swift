import ArgumentParser
import IPACheckCommands
import IPACheckReport

/// `ipacheck diff OLD NEW`: what changed between two builds in what their signatures, profiles and Info.plists say.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract:
            "Compare two builds: entitlements (XML and DER), domains, app IDs, profiles, signers, versions.",
        discussion: """
            Pairs the bundles of OLD and NEW by their path inside the app and lists, per bundle, what was removed, changed and added among: the signed entitlements, associated domains and application identifier, the XML and the DER entitlements blob each compared on its own (a difference only one blob shows names that blob); the embedded profile's kind, team, App ID, UUID, expiry and the entitlements it grants; the signer (team and certificate); CFBundleShortVersionString, CFBundleVersion, the platform and MinimumOSVersion. Bundles that appeared or disappeared are listed too. It catches what re-signing tools do: a domain dropped or replaced by `*`, the DER blob gone or out of step with the XML one, another team, App ID or kind of profile, an extension that lost its domains.

            \(DiffRun.ruleSeverities)

            Exit status: 1 when a finding is at or above --fail-on (default error, so only the errors above fail), else 0; equal builds exit 0; 2 when either build cannot be read.

            Examples:
              ipacheck diff Shipped.ipa Resigned.ipa
              ipacheck diff build-41.ipa build-42.ipa --format sarif > diff.sarif
              ipacheck diff Old.ipa New.ipa --fail-on warning   # warnings fail too
            """
    )

    @Argument(help: "The build you compare against (what shipped).")
    var old: String

    @Argument(help: "The build you are about to ship.")
    var new: String

    @Option(help: "Fail at this severity or worse: error, warning or note (see the lists above).")
    var failOn: Severity = .error

    @OptionGroup var output: ReportFormatOption

    @OptionGroup var archive: ArchiveOptions

    /// Accepted as every command accepts it (time is an input); a diff compares two builds' facts and judges
    /// nothing by the clock.
    @OptionGroup var time: TimeOptions

    func run() async throws {
        try await DiffRun.run(
            old: old,
            new: new,
            failOn: failOn,
            format: output.format,
            archive: try archive.settings
        )
    }
}
