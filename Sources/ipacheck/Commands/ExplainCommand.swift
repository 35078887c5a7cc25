import ArgumentParser
import IPACheckCommands

/// `ipacheck explain URL TARGET`: support triage for one link, traced through the release gate's own judgement.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Why does this link open Safari instead of the app? The path a tap takes, step by step.",
        discussion: """
            Runs the same judgement as `ipacheck check` on the build, then walks one link through it: the URL, which bundle claims the host and in which mode, whether anything check reports as an error stands on the path (the entry, the profile's grant, the distribution, the signature and seal, the host's file), the copies of the AASA (the origin's and Apple's CDN copy, which devices read; the origin's with --no-cdn, the --aasa-dir file offline), and which rule of the copy devices read decides. It says in one line where the link breaks. Exit 0 when the link opens the app, 1 when it does not, 2 when it cannot be decided (an unreadable build, no network).

            Examples:
              ipacheck explain https://example.com/products/42 App.ipa
              ipacheck explain https://example.com/cart App.ipa --offline --aasa-dir aasa/
              ipacheck explain https://example.com/cart App.ipa --format json
            """
    )

    @Argument(help: "The link that was tapped.")
    var url: String

    @Argument(help: "The installed build: .ipa, .app or .xcarchive.")
    var ipa: String

    @OptionGroup var output: FormatOption

    @OptionGroup var project: ProjectOptions

    @OptionGroup var network: NetworkOptions

    @OptionGroup var archive: ArchiveOptions

    func run() async throws {
        try await ExplainRun.run(
            url: url,
            path: ipa,
            format: output.format,
            project: project.settings,
            network: network.settings,
            archive: archive.settings
        )
    }
}
