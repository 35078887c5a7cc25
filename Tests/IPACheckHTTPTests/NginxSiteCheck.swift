import Foundation
import IPACheckGate
import IPACheckHTTP
import IPACheckSites
import IPACheckTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs where nginx is installed, and always in CI, where a missing nginx is a failure, not a skip.
    static var nginxInstalled: Self {
        .enabled(
            if: NginxServer.executable != nil || NginxServer.isCI,
            "nginx is not installed (scripts/ensure-nginx.sh installs it)"
        )
    }
}

/// What `AASASiteFetcher` found on each site a real nginx served.
struct NginxSiteCheck {
    let results: [AASASiteResult]
    /// Each host's report.
    let byHost: [String: AASASiteReport]

    /// Starts nginx with `sites` under a certificate from a fresh test CA, checks every site (the CDN not asked)
    /// with `timeout`, and stops nginx.
    static func run(_ sites: [NginxServer.Site], timeout: Duration = .seconds(5)) async throws -> NginxSiteCheck {
        let executable = try #require(
            NginxServer.executable,
            "nginx is required when CI=true: run scripts/ensure-nginx.sh before swift test"
        )
        let tls = try LocalTLS()
        defer { tls.remove() }
        let names = sites.map(\.name)
        let nginx = try await NginxServer.start(
            executable: executable,
            sites: sites,
            identity: try tls.ca.issueServerCertificate(dnsNames: names),
            in: tls.directory.appendingPathComponent("nginx")
        )
        defer { nginx.stop() }
        let options = tls.options(hosts: names, port: nginx.port, timeout: timeout, cdnHost: nil)
        let results = try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
            await AASASiteFetcher(fetcher: fetcher, options: options).checkAndJudge(
                names.map { AASAFetchTarget(host: $0) }
            )
        }
        var byHost: [String: AASASiteReport] = [:]
        for result in results { byHost[result.report.host] = result.report }
        return NginxSiteCheck(results: results, byHost: byHost)
    }
}
