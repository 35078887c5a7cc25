import ArgumentParser
import IPACheckCommands

/// `ipacheck explain URL TARGET`: support triage for one link, traced through the release gate's own judgement.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Why does this link open Safari instead of the app? The path a tap takes, step by step.",
        discussion: """
            Runs the same judgement as `ipacheck check` on the build, then walks one link through it: the URL as a device receives it (http or https; an internationalised host in ASCII; a Unicode path percent-encoded), which entry claims the host as iOS resolves it (the longest matching entry) and in which mode, where the build installs, whether anything check reports as an error stands on the path (the entry, the profile's grant, the signature and seal, the host's file; release policy such as a development profile does not, since a device installs the build all the same), the copies of the AASA (the origin's and Apple's CDN copy, which devices read; the origin's with --no-cdn, the --aasa-dir file offline), and which rule of the copy devices read decides. It says in one line where the link breaks. With --device (a tester's sysdiagnose, its folder or swcutil_show.txt: see `ipacheck device`), the device's own record of the claim becomes a step: the user's choice, the site's verdict as the device holds it and whether it is stale against the file devices read now, the last download error, a variant or version other than the build, each diagnosis with its source and the evidence lines it rests on; a link the files open but the device's record does not breaks on that device. Exit 0 when the link opens the app, 1 when it does not, 2 when it cannot be decided (an unreadable build, no network).

            Examples:
              ipacheck explain https://example.com/products/42 App.ipa
              ipacheck explain https://example.com/cart App.ipa --offline --aasa-dir aasa/
              ipacheck explain https://example.com/cart App.ipa --format json
              ipacheck explain https://example.com/cart App.entitlements --app-id ABCDE12345.com.example.app
              ipacheck explain https://example.com/cart App.ipa --device sysdiagnose.tar.gz
            """
    )

    @Argument(help: "The link that was tapped.")
    var url: String

    @Argument(help: "The installed build: .ipa, .app, .xcarchive, or an entitlements file (before the build).")
    var ipa: String

    @OptionGroup var app: AppIDOption

    @Option(
        help:
            "A tester's sysdiagnose (.tar.gz), its folder or its swcutil_show.txt: the device's record joins the trace."
    )
    var device: String?

    @OptionGroup var output: FormatOption

    @OptionGroup var project: ProjectOptions

    @OptionGroup var network: NetworkOptions

    @OptionGroup var archive: ArchiveOptions

    func run() async throws {
        try await ExplainRun.run(
            url: url,
            path: ipa,
            appID: app.appID,
            device: device,
            format: output.format,
            project: project.settings,
            network: try network.settings,
            archive: try archive.settings
        )
    }
}
