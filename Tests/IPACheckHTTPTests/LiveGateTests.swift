import Foundation
import IPACheckGate
import IPACheckHTTP
import IPACheckReport
import IPACheckTestSupport
import Testing

/// The release gate against a live TLS server on 127.0.0.1: the sample app's domains and its App Flip link,
/// fetched through AsyncHTTPClient exactly as `ipacheck check` does without --offline.
@Suite struct LiveGateTests {
    private static let appID = "7QX3KD52VH.com.acme.shop"

    /// The sample's own offline AASA for acme.example (Samples/aasa), served live.
    private static func sampleAASA() throws -> String {
        let url = Repository.samples.appendingPathComponent("aasa/acme.example/apple-app-site-association")
        return String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    /// An AASA that lists the app but not the App Flip path (Samples/README.md: /appflip/link).
    private static let withoutAppFlipPath = """
        {"applinks": {"details": [{"appIDs": ["\(appID)"], "components": [{"/": "/products/*"}]}]}}
        """

    private func runGate(serving body: String) async throws -> [Finding] {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let config = try AppFlipConfig.parse(
            try Data(contentsOf: Repository.samples.appendingPathComponent("appflip.json")),
            file: "appflip.json"
        )
        var configuration = GateConfiguration()
        configuration.appFlip = config
        return try await withServer(tls, names: ["acme.example"]) { request in
            request.path.hasPrefix("/.well-known/apple-app-site-association")
                ? .ok(body) : .full(status: 404, headers: [], body: Array("Not Found".utf8))
        } body: { server in
            let options = tls.options(hosts: ["acme.example"], port: server.port, cdnHost: nil)
            return try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
                let gate = GateOptions(fetch: options, fetcher: fetcher, configuration: configuration)
                let path = Repository.samples.appendingPathComponent("Acme.ipa").path
                return try await ReleaseGate.check(path: path, options: gate).findings
            }
        }
    }

    @Test func appFlipLinkOpensTheAppWhenTheLiveAASACoversIt() async throws {
        let findings = try await runGate(serving: try Self.sampleAASA())
        #expect(!findings.contains { $0.rule.hasPrefix("FLIP") && $0.severity == .error })
        // The live file lists the app for every service the sample claims on acme.example (Samples/README.md).
        #expect(!findings.contains { $0.rule == "LINK001" && $0.domain == "acme.example" })
    }

    @Test func appFlipLinkFailsWhenTheLiveAASALacksItsPath() async throws {
        let findings = try await runGate(serving: Self.withoutAppFlipPath)
        let flip = findings.filter { $0.rule == "FLIP005" }
        #expect(!flip.isEmpty)
        #expect(flip.allSatisfy { $0.domain == "acme.example" })
    }
}
