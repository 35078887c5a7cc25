import ArgumentParser
import Foundation
import IPACheckGate

/// `ipacheck links TARGET`: links a tester taps on a device to try every rule of every applinks domain.
struct LinksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "links",
        abstract: "Links to tap on a device: one per rule of every applinks domain, with what a tap should do.",
        discussion: """
            Runs the same judgement as `ipacheck check` on the build, then, for every bundle × applinks domain × rule of the AASA copy devices read (Apple's CDN copy; the origin's with --no-cdn, the --aasa-dir file offline), makes a URL that the rule decides — placed where no earlier rule decides it first — and says whether a tap should open the app or stay on the web. Every expectation is what `ipacheck match` answers for that URL. --format html writes one self-contained page to open on the device and tap through. Exit 0 when the links were made, 2 when the build or the network could not be read.

            Examples:
              ipacheck links App.ipa
              ipacheck links App.ipa --format html > links.html
              ipacheck links App.ipa --offline --aasa-dir aasa/ --format json
            """
    )

    /// The formats `links` writes.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json, html
    }

    @Argument(help: "The build: .ipa, .app, .xcarchive, or an entitlements file.")
    var ipa: String

    @Option(help: "Output: text (for people), json (for machines) or html (a page to tap through on a device).")
    var format: Format = .text

    @Option(help: "The application identifier (TEAMID.BUNDLE) of an entitlements file that names none.")
    var appID: String?

    @OptionGroup var project: ProjectOptions

    @OptionGroup var network: NetworkOptions

    @OptionGroup var archive: ArchiveOptions

    func run() async throws {
        let configuration = try await ExitStatus.reportingInputErrors { try project.loadConfiguration() }
        let result = try await ExitStatus.reportingInputErrors {
            try await network.withFetcher { options, fetcher in
                try await ReleaseGate.check(
                    path: ipa,
                    options: GateOptions(
                        fetch: options,
                        fetcher: fetcher,
                        configuration: configuration,
                        distribution: project.distribution,
                        archiveLimits: archive.limits,
                        appID: appID
                    )
                )
            }
        }
        let sheet = result.links.linkSheet()
        switch format {
        case .json: try Console.printJSON(sheet)
        case .text: Console.printRendered(sheet.text(style: Console.style))
        case .html: Console.write(Array(sheet.html.utf8))
        }
    }
}
