import ArgumentParser
import IPACheckCommands

/// `ipacheck device EVIDENCE`: what a device holds about associated domains (a sysdiagnose's swcutil_show.txt).
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Show what a device holds about an app's associated domains (from a sysdiagnose).",
        discussion: """
            EVIDENCE is an iOS sysdiagnose (sysdiagnose_….tar.gz, read without unpacking it), an extracted sysdiagnose folder, its swcutil_show.txt, or the output of `sudo swcutil show` pasted into a file on a Mac. For each entry of the app: service, app ID and version, domain and mode, the user's and the site's approval, flags, when the device last checked the site's file and when it will check again (relative to the capture), and the last error in words.

            The record lists every app installed on the device, so only the app asked for is shown (--app-id, or --build for every bundle of a build); the others are counted. --all-apps lists them all. The exit status is 0 unless the evidence (or the build) cannot be read (2).

            A tester takes a sysdiagnose by pressing both volume buttons and the side button together for about a second, waiting ten minutes, then sharing it from Settings > Privacy & Security > Analytics & Improvements > Analytics Data.

            Examples:
              ipacheck device sysdiagnose.tar.gz --app-id ABCDE12345.com.example.shop
              ipacheck device swcutil_show.txt --build App.ipa --format json
              ipacheck device sysdiagnose_folder/ --all-apps
            """
    )

    @Argument(help: "The sysdiagnose (.tar.gz), its folder, its swcutil_show.txt, or pasted swcutil show output.")
    var evidence: String

    @Option(
        name: .customLong("app-id"),
        help: "Show this app's entries (TEAMID.BUNDLE; a bundle ID alone matches any team prefix). Repeatable."
    )
    var appIDs: [String] = []

    @Option(help: "Show the entries of every bundle of this build (.ipa, .app, .xcarchive).")
    var build: String?

    @Flag(help: "Show every app's entries (the record is private to the device's owner).")
    var allApps = false

    @OptionGroup var output: ListingFormatOption

    @OptionGroup var archive: ArchiveOptions

    @OptionGroup var time: TimeOptions

    func run() async throws {
        try await DeviceRun.run(
            path: evidence,
            selection: DeviceRun.Selection(appIDs: appIDs, build: build, allApps: allApps),
            format: output.format,
            archive: try archive.settings,
            now: time.date
        )
    }
}
