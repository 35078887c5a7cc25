import ArgumentParser
import Foundation
import IPACheckGate

/// `ipacheck explain URL APP.ipa`: support triage for one link.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Why does this link open Safari instead of the app? The path a tap takes, step by step.",
        discussion: """
            Walks the whole path: the URL, which bundle claims the host and in which mode, what the origin and Apple's CDN serve, and which rule decides; then says in one line where it breaks. Exit 0 when the link opens the app, 1 when it does not.

            Examples:
              ipacheck explain https://example.com/products/42 App.ipa
              ipacheck explain https://example.com/cart App.ipa --offline --aasa-dir aasa/
            """
    )

    @Argument(help: "The link that was tapped.")
    var url: String

    @Argument(help: "The installed build (.ipa).")
    var ipa: String

    @OptionGroup var output: FormatOption

    @OptionGroup var network: NetworkOptions

    @OptionGroup var archive: ArchiveOptions

    func run() async throws {
        let explanation = try await ExitStatus.reportingInputErrors {
            try await network.withFetcher { options, fetcher in
                try await LinkExplainer.explain(
                    url: url,
                    ipaPath: ipa,
                    options: GateOptions(fetch: options, fetcher: fetcher, archiveLimits: archive.limits)
                )
            }
        }
        switch output.format {
        case .json: try Console.printJSON(explanation)
        case .text: Console.printRendered(explanation.text(style: Console.style))
        }
        if !explanation.opensApp { throw ExitStatus.problems }
    }
}
