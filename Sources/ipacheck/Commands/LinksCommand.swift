import ArgumentParser
import IPACheckCommands

/// `ipacheck links TARGET`: links a tester taps on a device to try every rule of every applinks domain.
struct LinksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "links",
        abstract: "Links to tap on a device: one per rule of every applinks domain, with what a tap should do.",
        discussion: """
            Runs the same judgement as `ipacheck check` on the build, then, for every bundle × applinks domain × rule of the AASA copy devices read (Apple's CDN copy; the origin's with --no-cdn, the --aasa-dir file offline), makes a URL that the rule decides — placed where no earlier rule decides it first — and says whether a tap should open the app or stay on the web. Every expectation is what `ipacheck match` answers for that URL. --format html writes one self-contained page to open on the device and tap through. With --device (the tester's sysdiagnose, its folder or swcutil_show.txt: see `ipacheck device`), each applinks domain is shown as that device holds it, with the diagnoses of `explain --device`, and each link says what a tap does on that device. Exit 0 when the links were made, 2 when the build or the network could not be read.

            Examples:
              ipacheck links App.ipa
              ipacheck links App.ipa --format html > links.html
              ipacheck links App.ipa --offline --aasa-dir aasa/ --format json
              ipacheck links App.ipa --device sysdiagnose.tar.gz
            """
    )

    /// The formats `links` writes.
    @Argument(help: "The build: .ipa, .app, .xcarchive, or an entitlements file.")
    var ipa: String

    @Option(help: "Output: text (for people), json (for machines) or html (a page to tap through on a device).")
    var format: LinksRun.Format = .text

    @OptionGroup var app: AppIDOption

    @Option(help: "A tester's sysdiagnose (.tar.gz), its folder or its swcutil_show.txt: what that device holds.")
    var device: String?

    @OptionGroup var project: ProjectOptions

    @OptionGroup var network: NetworkOptions

    @OptionGroup var archive: ArchiveOptions

    func run() async throws {
        try await LinksRun.run(
            path: ipa,
            appID: app.appID,
            device: device,
            format: format,
            project: project.settings,
            network: try network.settings,
            archive: try archive.settings
        )
    }
}
