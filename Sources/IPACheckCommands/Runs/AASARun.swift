package import IPACheckFetching
import IPACheckGate
import IPACheckLinks
package import IPACheckReport
import IPACheckSites

/// `ipacheck aasa HOST...`: each host's AASA fetched and judged as Apple's CDN would, and the CDN's copy.
package enum AASARun {
    /// Fetches and judges every host (as in the entitlement: `example.com`, `*.example.com`,
    /// `example.com?mode=developer`) and writes the report in `format`; exits 1 when a finding reaches `failOn`, 2
    /// when no network at all can be reached.
    package static func run(
        hosts: [String],
        failOn: Severity,
        format: ReportFormat,
        network: FetchOptions
    ) async throws {
        let targets = try hosts.map { host throws(UsageError) in
            let parts = host.split(separator: "?", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return AASAFetchTarget(host: host) }
            guard parts[1].hasPrefix("mode="),
                let mode = AASAFetchTarget.Mode(rawValue: String(parts[1].dropFirst(5)))
            else {
                throw UsageError("\(host): the only query allowed is ?mode=developer|managed|developer+managed")
            }
            return AASAFetchTarget(host: parts[0], mode: mode)
        }
        let (options, results) = try await network.withFetcher { options, fetcher in
            (options, await AASASiteFetcher(fetcher: fetcher, options: options).checkAndJudge(targets))
        }
        if !options.isOffline, let failure = NetworkUnavailable.diagnose(results) {
            Console.diagnose("ipacheck: error: \(failure)")
            throw CommandExit.badInput
        }
        var report = ReportOutput.report(rules: SiteJudgement.rules, gate: FailThreshold(failOn: failOn), schema: .aasa)
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
        try ReportOutput.finish(report, format: format)
    }
}
