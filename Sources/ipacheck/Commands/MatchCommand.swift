import ArgumentParser
import IPACheckCommands

/// `ipacheck match URL... --app-id ID`, which says whether iOS would open these URLs in this app.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Would iOS open these URLs in this app? Apple's matching rules, with the deciding rule and why.",
        discussion: """
            Verdicts: match (the app opens it), block (an exclude rule stops it), none (no rule for this app matches, or devices have no copy of the file, or — with --build — the link breaks before the rules). http and https URLs are both universal links; each URL is judged as a browser sends it (an internationalised host in ASCII, a Unicode path percent-encoded as UTF-8, dot segments resolved) and shown in that form.

            With --build, the claim is resolved as the build's entitlements make iOS resolve it (the longest matching applinks entry; a *. entry reads the apex's file; the build's app IDs, modes and profile), on the same judgement as `ipacheck explain` and `ipacheck links`. With --app-id alone, each URL's host is assumed to be claimed literally, and a note on stderr says so. With --aasa the file is read offline. Without it, each URL's host is fetched live and judged on the copy devices read: Apple's CDN copy (the origin's file with --no-cdn or --offline, said so on stderr); when the origin's file answers otherwise, its answer is shown beside. A URL that is not a universal link is reported with its line number and skipped; the others are answered and the run exits 2. Exit 0 only if every verdict is match.

            Examples:
              ipacheck match https://example.com/products/42 --app-id ABCDE12345.com.example.app --aasa aasa.json
              ipacheck match --urls sitemap-urls.txt --app-id ABCDE12345.com.example.app --aasa aasa.json --format json
              ipacheck match https://example.com/cart --app-id ABCDE12345.com.example.app
              ipacheck match https://shop.example.com/cart --build App.ipa
              ipacheck match --urls sitemap-urls.txt --build App.ipa --offline --aasa-dir aasa/ --format json
            """
    )

    @Argument(help: "The URLs to judge.")
    var urls: [String] = []

    @Option(
        help: """
            The app's application-identifier (TEAMID.bundle.id), as `ipacheck domains` shows it; with --build, the \
            one of an entitlements file that names none.
            """
    )
    var appID: String?

    @Option(help: "The build whose entitlements claim the URLs: .ipa, .app, .xcarchive or an entitlements file.")
    var build: String?

    @Option(help: "An AASA file to judge against, offline.")
    var aasa: String?

    @Option(help: "The service: applinks (the default), webcredentials, appclips or activitycontinuation.")
    var service: CommandLineChoices.Service?

    @Option(name: .customLong("urls"), help: ArgumentHelp("Read more URLs from FILE, one a line.", valueName: "file"))
    var urlFile: String?

    @Flag(help: "Also print every rule tried and why it did or did not match.")
    var explain = false

    @OptionGroup var output: FormatOption

    @OptionGroup var network: NetworkOptions

    @OptionGroup var project: ProjectOptions

    @OptionGroup var archive: ArchiveOptions

    func validate() throws {
        if urls.isEmpty && urlFile == nil { throw ValidationError("give at least one URL, or --urls FILE") }
        if appID == nil && build == nil {
            throw ValidationError("give --app-id TEAMID.bundle.id or --build TARGET")
        }
        if let appID, !appID.contains(".") {
            throw ValidationError("--app-id is TEAMID.bundle.id, e.g. ABCDE12345.com.example.app")
        }
        if build != nil && aasa != nil {
            throw ValidationError("--aasa judges one file for an app ID; with --build, use --offline --aasa-dir DIR")
        }
        if build != nil, let service, !CommandLineChoices.isAppLinks(service) {
            throw ValidationError("--build resolves applinks claims only; other services need --app-id")
        }
    }

    func run() async throws {
        if let build {
            try await MatchRun.run(
                urls: urls,
                urlFile: urlFile,
                build: build,
                appID: appID,
                explain: explain,
                format: output.format,
                project: project.settings,
                network: try network.settings,
                archive: try archive.settings
            )
            return
        }
        try await MatchRun.run(
            urls: urls,
            urlFile: urlFile,
            appID: appID ?? "",
            aasa: aasa,
            service: service,
            explain: explain,
            format: output.format,
            network: try network.settings
        )
    }
}
