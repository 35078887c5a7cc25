import ArgumentParser
import Foundation
import IPACheckFetching
import IPACheckGate
import IPACheckLinks
import IPACheckReport
import IPACheckSites

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

    @Option(help: "Exit 1 when a finding is at least this severe: error, warning or note.")
    var failOn: Severity = .error

    @OptionGroup var output: ReportFormatOption

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
        let (options, results) = try await network.withFetcher { options, fetcher in
            (options, await AASASiteFetcher(fetcher: fetcher, options: options).check(targets))
        }
        if !options.isOffline, let failure = NetworkUnavailable.diagnose(results) {
            Console.diagnose("ipacheck: error: \(failure)")
            throw ExitStatus.badInput
        }
        var report = ReportOutput.report(rules: SiteJudgement.rules, gate: FailThreshold(failOn: failOn))
        for (host, result) in zip(hosts, results) {
            let judged = SiteJudgement.judge(result, options: options)
            report.add(input: host, findings: judged.findings, coverage: judged.coverage)
        }
        let reports = results.map(\.report)
        report.add(
            section: try ReportSection(
                key: "sites",
                value: reports,
                lines: reports.flatMap { $0.lines + [StyledLine()] }.dropLast().map { $0 }
            )
        )
        try ReportOutput.finish(report, format: output.format)
    }
}
