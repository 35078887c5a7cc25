import ArgumentParser
import IPACheckCommands
import IPACheckReport

/// `ipacheck check APP.ipa...`: the release gate.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "The release gate: will this build's links, web credentials, App Clips and App Flip work?",
        discussion: """
            For every bundle: the seal (code pages, special slots, CMS, every sealed resource, read in one pass), the profile and what the build is distributed for, every associated-domains entry, and the AASA file of every domain (the origin's and Apple's CDN copy, or --offline --aasa-dir) cross-checked against the bundle's signed application-identifier. Findings carry a stable rule ID (see `ipacheck rules`); checks that did not run are listed with the reason, never as passed. Exit 0 when nothing reaches --fail-on (default error), 1 when something does, 2 when an ipa cannot be read or no network at all can be reached.

            --distribution says what the build is for (default: the kind of its embedded profile). A development profile, no profile, a simulator build, or ad hoc or unsigned code fails every gate but --distribution development.

            A build may be an .ipa, an .app, an .xcarchive or an unpacked ipa. It may also be the project's .entitlements file (or an .xcent), to hold its domains against the live AASA files before building: only the domain and AASA checks run then (the others are listed as skipped), and --app-id gives the application identifier when the file names none or only an Xcode build setting such as $(AppIdentifierPrefix).

            A config file (.ipacheck.json or .ipacheck.yml in the current folder, or --config) may list expected domains, suppress a rule for a domain with a reason, pin the distribution, and App Flip and Firebase settings.

            Examples:
              ipacheck check App.ipa
              ipacheck check App.ipa --format sarif > ipacheck.sarif
              ipacheck check App.ipa --offline --aasa-dir aasa/ --appflip appflip.json
              ipacheck check Debug.ipa --distribution development
              ipacheck check build/*.ipa --fail-on warning --format github
              ipacheck check App/App.entitlements --app-id ABCDE12345.com.example.app
            """
    )

    @Argument(help: "The builds to check: .ipa, .app, .xcarchive, or an entitlements file.")
    var ipas: [String]

    @OptionGroup var app: AppIDOption

    @Option(help: "Exit 1 when a finding is at least this severe: error, warning or note.")
    var failOn: Severity?

    @Option(
        help: ArgumentHelp(
            "Output: text, json, sarif, junit or github (workflow annotations: errors and warnings; notes too "
                + "with --fail-on note)."
        )
    )
    var format: ReportFormat = .text

    @Option(help: ArgumentHelp("Write the report to this file instead of stdout.", valueName: "file"))
    var output: String?

    @OptionGroup var project: ProjectOptions

    @OptionGroup var network: NetworkOptions

    @OptionGroup var archive: ArchiveOptions

    func validate() throws {
        if ipas.isEmpty { throw ValidationError("name at least one .ipa to check") }
    }

    func run() async throws {
        try await CheckRun.run(
            paths: ipas,
            appID: app.appID,
            failOn: failOn,
            format: format,
            output: output,
            project: project.settings,
            network: try network.settings,
            archive: try archive.settings
        )
    }
}
