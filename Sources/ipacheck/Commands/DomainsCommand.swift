import ArgumentParser
import IPACheckCommands

/// `ipacheck domains APP.ipa`: every bundle's associated domains, parsed.
struct DomainsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "domains",
        abstract: "List every bundle's associated domains: service, host, wildcard, mode.",
        discussion: """
            Reads each bundle's signed entitlements (what iOS obeys). TARGET may also be the project's .entitlements file (or the .xcent Xcode writes), to see its domains before building; Xcode build settings such as $(AppIdentifierPrefix) are reported, not guessed. Every entry of the array is listed, at its index (the [n] of the findings' `at:` lines); entries iOS would reject or ignore (a port, a path, an unknown service or mode, $(VARIABLES) left unexpanded) are listed with the reason. The exit status is 0 unless the ipa cannot be read (2); output is text or json, and `ipacheck check` gates on the findings (sarif, junit, github).

            Examples:
              ipacheck domains App.ipa
              ipacheck domains App.ipa --format json | jq '.bundles[].associatedDomains[].host'
              ipacheck domains App/App.entitlements
            """
    )

    @Argument(help: "The .ipa, .app, .xcarchive or entitlements file to read.")
    var ipa: String

    @OptionGroup var app: AppIDOption

    @OptionGroup var output: ListingFormatOption

    @OptionGroup var archive: ArchiveOptions

    @OptionGroup var time: TimeOptions

    func run() async throws {
        try await DomainsRun.run(
            path: ipa,
            appID: app.appID,
            format: output.format,
            archive: try archive.settings,
            now: time.date
        )
    }
}
