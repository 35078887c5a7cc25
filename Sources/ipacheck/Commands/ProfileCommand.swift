import ArgumentParser
import IPACheckCommands
import IPACheckReport

/// `ipacheck profile FILE.mobileprovision`: a standalone provisioning profile, decoded and judged.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Decode and judge a provisioning profile: type, team, app ID, expiry, entitlements, certificates.",
        discussion: """
            Shows what `security cms -D -i FILE` shows, in a few lines: the profile's type (development, ad-hoc, app-store, enterprise, developer-id), team, app ID, dates, how many devices it lists (never their identifiers), the certificates it allows and the entitlements it grants; then judges it as the gate judges an embedded profile: expiry, the CMS signature over its content, and the signer's chain to Apple's roots. Exit 0 when nothing reaches --fail-on, 1 when something does, 2 when the file is not a provisioning profile. Given a build (an ipa, an .app or an .xcarchive), it reads the main app's embedded.mobileprovision.

            Examples:
              ipacheck profile ~/Downloads/Acme_AppStore.mobileprovision
              ipacheck profile embedded.mobileprovision --format json | jq '.entitlements'
              ipacheck profile App.ipa                     # the main app's embedded profile
              ipacheck profile Acme.mobileprovision --fail-on warning   # also fail when it expires within 30 days
            """
    )

    @Argument(help: "The .mobileprovision (or .provisionprofile) to read, or a build whose main app's profile to read.")
    var file: String

    @OptionGroup var threshold: FailOnOption

    @OptionGroup var output: ReportFormatOption

    @OptionGroup var time: TimeOptions

    func run() async throws {
        try await ProfileRun.run(path: file, failOn: threshold.failOn, format: output.format, now: time.date)
    }
}
