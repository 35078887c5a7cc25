import ArgumentParser
import IPACheckCommands
import IPACheckReport

/// `ipacheck aasa HOST...`: fetch and judge each host's AASA as Apple's CDN would, and the CDN's copy.
struct AASACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "Fetch and judge hosts' apple-app-site-association files as Apple's CDN would.",
        discussion: """
            For each host: https://HOST/.well-known/apple-app-site-association (redirects reported, never followed; certificates verified; status, Content-Type and the 128 KB limit judged), the same URL asked with Apple's user agents (to catch firewalls), and Apple's CDN copy with its failure headers decoded and compared with the origin's file by meaning; the file's content is judged with the same checks as `ipacheck lint`. Offline (--offline --aasa-dir DIR) it says which file it read; no HTTP status is shown for a file. *.example.com is served by example.com. A host may carry a mode (example.com?mode=developer) to skip the CDN, as devices do. Exit 1 when a finding reaches --fail-on, 2 when no network at all can be reached.

            Examples:
              ipacheck aasa example.com www.example.com
              ipacheck aasa example.com --format json
              ipacheck aasa example.com --resolve example.com:443:127.0.0.1 --ca-file test-ca.pem --no-cdn
            """
    )

    @Argument(help: "Hosts (as in the entitlement: example.com, *.example.com, example.com?mode=developer).")
    var hosts: [String]

    @OptionGroup var threshold: FailOnOption

    @OptionGroup var output: ReportFormatOption

    @OptionGroup var network: NetworkOptions

    func validate() throws {
        if hosts.isEmpty { throw ValidationError("name at least one host") }
    }

    func run() async throws {
        try await AASARun.run(
            hosts: hosts,
            failOn: threshold.failOn,
            format: output.format,
            network: try network.settings
        )
    }
}
