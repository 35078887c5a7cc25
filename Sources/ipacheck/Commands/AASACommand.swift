import ArgumentParser
import Foundation
import IPACheckCore
import IPACheckReport

/// `ipacheck aasa HOST...`: fetch and judge each host's AASA as Apple's CDN would, and the CDN's copy.
struct AASACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "Fetch and judge hosts' apple-app-site-association files as Apple's CDN would.",
        discussion: """
            For each host: https://HOST/.well-known/apple-app-site-association (redirects reported, never followed; certificates verified; status, Content-Type and the 128 KB limit judged), the same URL asked with Apple's user agents (to catch firewalls), and Apple's CDN copy with its failure headers decoded and compared with the origin's file by meaning. *.example.com is served by example.com. A host may carry a mode (example.com?mode=developer) to skip the CDN, as devices do. Exit 1 when a finding reaches --fail-on.

            Examples:
              ipacheck aasa example.com www.example.com
              ipacheck aasa example.com --format json
              ipacheck aasa example.com --resolve example.com:443:127.0.0.1 --ca-file test-ca.pem --no-cdn
            """
    )

    @Argument(help: "Hosts (as in the entitlement: example.com, *.example.com, example.com?mode=developer).")
    var hosts: [String]

    @Option(help: "Exit 1 when a finding is at least this severe: error, warning or note.")
    var failOn: Severity = .error

    @OptionGroup var output: FormatOption

    @OptionGroup var network: NetworkOptions

    func validate() throws {
        if hosts.isEmpty { throw ValidationError("name at least one host") }
    }

    func run() async throws {
        let targets = try hosts.map { host in
            let parts = host.split(separator: "?", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return AASAFetchTarget(host: host) }
            guard parts[1].hasPrefix("mode="),
                let mode = AASAFetchTarget.Mode(rawValue: String(parts[1].dropFirst(5)))
            else {
                throw ValidationError("\(host): the only query allowed is ?mode=developer|managed|developer+managed")
            }
            return AASAFetchTarget(host: parts[0], mode: mode)
        }
        let results = try await network.withFetcher { options, fetcher in
            await AASASiteFetcher(fetcher: fetcher, options: options).check(targets)
        }
        let reports = results.map(\.report)
        switch output.format {
        case .json: try Console.printJSON(SitesOutput(sites: reports))
        case .text: Console.print(reports.map { $0.text(style: Console.style) }.joined(separator: "\n"))
        }
        if reports.flatMap(\.findings).contains(where: { $0.severity >= failOn }) { throw ExitStatus.problems }
    }
}

/// `ipacheck aasa --format json`.
private struct SitesOutput: Encodable {
    let sites: [AASASiteReport]
}
