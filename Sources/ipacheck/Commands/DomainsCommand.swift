import ArgumentParser
import Foundation
import IPACheckCore

/// `ipacheck domains APP.ipa`: every bundle's associated domains, parsed.
struct DomainsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "domains",
        abstract: "List every bundle's associated domains: service, host, wildcard, mode.",
        discussion: """
            Reads each bundle's signed entitlements (what iOS obeys), not the project's .entitlements file. Entries iOS would reject or ignore (a port, a path, an unknown service or mode, $(VARIABLES) left unexpanded) are listed with the reason.

            Examples:
              ipacheck domains App.ipa
              ipacheck domains App.ipa --format json | jq '.bundles[].associatedDomains[].host'
            """
    )

    @Argument(help: "The .ipa to read.")
    var ipa: String

    @OptionGroup var output: FormatOption

    func run() async throws {
        let report = try await ExitStatus.reportingInputErrors {
            let file = try IPAFile(path: ipa)
            let facts = try BundleFacts.gatherAll(ipa: file, isReleaseBuild: false, now: Date())
            return DomainsReport.make(for: file, facts: facts)
        }
        switch output.format {
        case .json: try Console.printJSON(report)
        case .text: Console.print(report.text(style: Console.style))
        }
    }
}
