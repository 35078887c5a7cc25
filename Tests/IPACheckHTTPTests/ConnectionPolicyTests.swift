import Foundation
import IPACheckFetching
import IPACheckGate
import IPACheckReport
import IPACheckSites
import IPACheckTestSupport
import NIOSSL
import Testing

@testable import IPACheckHTTP

/// How connections are made.
///
/// Every host at once, no retry after a refusal or a rejected certificate, the TLS version recorded, and
/// `--resolve` bound to its port. Loopback servers only; every assertion is about what the servers saw or what
/// the fetcher reported, never about how long it took.
@Suite struct ConnectionPolicyTests {
    private static let host = "example.test"
    private static let url = "https://example.test/.well-known/apple-app-site-association"

    // MARK: - All hosts at once

    @Test func tenStalledHostsAreAllAskedAtOnce() async throws {
        let tls = try LocalTLS()
        defer { tls.remove() }
        // Plain TCP: each TLS client hello is read and never answered, so every connection stays open until the
        // client's timeout closes it.
        let server = try await RawServer.start(identity: nil) { nil }
        let hosts = (1...10).map { "stalled\($0).test" }
        let options = tls.options(hosts: hosts, port: server.port, timeout: .seconds(2), cdnHost: nil)
        let results = try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
            await AASASiteFetcher(fetcher: fetcher, options: options).checkAndJudge(
                hosts.map { AASAFetchTarget(host: $0) }
            )
        }
        await server.shutdown()
        for result in results {
            #expect(
                result.report.findings.map(\.rule).filter { $0 != "SERVE040" } == ["SERVE006"],
                "\(result.report.findings)"
            )
        }
        // No connection was ever answered, so ten open together means the ten timeouts ran at the same time.
        #expect(server.peakOpen == 10)
        #expect(server.accepted == 10)
    }

    // MARK: - Failing fast

    /// Fetches from a TLS server presenting `identity` (made with `tls`'s CA unless it says otherwise), with a
    /// long timeout: a fetcher that retried until the deadline would show as more than one handshake.
    private func fetchOnce(
        identity: (LocalTLS) throws -> ServerIdentity
    ) async throws -> (FetchOutcome, handshakes: Int) {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let server = try await TLSTestServer.start(identity: try identity(tls)) { _ in .ok(goodAASA) }
        let options = tls.options(hosts: [Self.host], port: server.port, timeout: .seconds(5))
        let outcome = try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
            await fetcher.fetch(try request(Self.url, timeout: .seconds(5)))
        }
        let handshakes = server.serverNames.count
        await server.shutdown()
        return (outcome, handshakes)
    }

    @Test func aCertificateForAnotherNameIsRefusedOnTheFirstHandshake() async throws {
        let (outcome, handshakes) = try await fetchOnce { try $0.ca.issueServerCertificate(dnsNames: ["other.test"]) }
        #expect(outcome.failureKind == .tlsHostnameMismatch)
        #expect(handshakes == 1)
    }

    @Test func anUntrustedCertificateIsRefusedOnTheFirstHandshake() async throws {
        let (outcome, handshakes) = try await fetchOnce { _ in
            try TestCA(commonName: "someone else").issueServerCertificate(dnsNames: [Self.host])
        }
        #expect(outcome.failureKind == .tlsUntrusted)
        // The request's handshake, then one more that only reads the certificate's dates (expired or untrusted?).
        #expect(handshakes == 2)
    }

    /// With a deadline far beyond the time limit, only a fetcher that gives up on the refusal itself passes.
    @Test(.timeLimit(.minutes(1)))
    func aRefusedConnectionFailsWithoutWaitingForTheDeadline() async throws {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let outcome = try await RefusingPort.with { port in
            let options = tls.options(hosts: [Self.host], port: port, timeout: .seconds(300))
            return try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
                await fetcher.fetch(try request(Self.url, timeout: .seconds(300)))
            }
        }
        #expect(outcome.failureKind == .connectionRefused)
    }

    // MARK: - TLS version

    @Test(arguments: [TLSVersion.tlsv1, .tlsv11])
    func aServerOfferingOnlyOldTLSIsReadAndWarnedAbout(maximum: TLSVersion) async throws {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let identity = try tls.ca.issueServerCertificate(dnsNames: [Self.host])
        let answer =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(goodAASA.utf8.count)\r\n\r\n"
            + goodAASA
        let server = try await RawServer.start(identity: identity, maximumTLSVersion: maximum) {
            RawReply(answer, then: .close)
        }
        let options = tls.options(hosts: [Self.host], port: server.port, cdnHost: nil)
        let results = try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
            await AASASiteFetcher(fetcher: fetcher, options: options).checkAndJudge([AASAFetchTarget(host: Self.host)])
        }
        await server.shutdown()
        let report = try #require(results.first).report
        let expected: TLSProtocolVersion = maximum == .tlsv1 ? .tlsv1 : .tlsv11
        #expect(report.origin?.tlsVersion == expected)
        #expect(results.first?.originBody == Array(goodAASA.utf8))
        let finding = try #require(report.findings.first { $0.rule == "SERVE009" }, "\(report.findings)")
        #expect(finding.severity == .warning)
        #expect(finding.message.contains(expected.rawValue))
    }

    @Test func aModernServerRaisesNoTLSWarning() async throws {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let results = try await withServer(tls, names: [Self.host], respond: { _ in .ok(goodAASA) }) { server in
            let options = tls.options(hosts: [Self.host], port: server.port, cdnHost: nil)
            return try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
                await AASASiteFetcher(fetcher: fetcher, options: options).checkAndJudge([
                    AASAFetchTarget(host: Self.host)
                ])
            }
        }
        let report = try #require(results.first).report
        #expect(report.origin?.tlsVersion == .tlsv13)
        #expect(!report.findings.contains { $0.rule == "SERVE009" }, "\(report.findings)")
    }

    // MARK: - --resolve HOST:PORT:ADDRESS

    /// Fetches `https://example.test:<server port>/…` with `overrides` (nothing else routes the name).
    private func fetchThroughResolve(
        _ overrides: (Int) throws -> [ResolveOverride]
    ) async throws -> (FetchOutcome, requests: Int) {
        let tls = try LocalTLS()
        defer { tls.remove() }
        return try await withServer(tls, names: [Self.host], respond: { _ in .ok(goodAASA) }) { server in
            let options = FetchOptions(extraCAFile: tls.caFile, resolve: try overrides(server.port))
            let url = "https://\(Self.host):\(server.port)/.well-known/apple-app-site-association"
            let outcome = try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
                await fetcher.fetch(try request(url))
            }
            return (outcome, server.requests.count)
        }
    }

    @Test func resolveAppliesToTheHostOnItsPort() async throws {
        let (outcome, requests) = try await fetchThroughResolve { port in
            [try ResolveOverride(parsing: "example.test:\(port):127.0.0.1")]
        }
        #expect(outcome.failureKind == nil, "\(outcome)")
        #expect(requests == 1)
    }

    @Test func resolveForAnotherPortLeavesTheHostAlone() async throws {
        // curl's rule: example.test:443 is mapped, example.test:<server port> is not, so the name is looked up
        // (and .test never resolves); the server must not be reached.
        let (outcome, requests) = try await fetchThroughResolve { _ in
            [try ResolveOverride(parsing: "example.test:443:127.0.0.1")]
        }
        #expect(outcome.failureKind != nil, "\(outcome)")
        #expect(requests == 0)
    }

    @Test func routesMatchHostAndPort() throws {
        let overrides = [
            try ResolveOverride(parsing: "example.com:443:127.0.0.1"),
            try ResolveOverride(parsing: "example.com:8443:[::1]"),
            ResolveOverride(host: "cdn.test", port: 443, address: "127.0.0.1", connectPort: 9000),
        ]
        func route(_ text: String) throws -> ConnectionRoute {
            let url = try #require(URL(string: text))
            let host = try #require(url.host)
            return try #require(ConnectionRoute(url: url, host: host, overrides: overrides))
        }
        #expect(try route("https://example.com/x").dnsOverride == ["example.com": "127.0.0.1"])
        #expect(try route("https://EXAMPLE.com:443/x").port == 443)
        #expect(try route("https://example.com:8443/x").dnsOverride == ["example.com": "::1"])
        #expect(try route("https://example.com:9443/x").dnsOverride == [:])
        #expect(try route("https://www.example.com/x").dnsOverride == [:])
        let moved = try route("https://cdn.test/a/v1/example.com")
        #expect(moved.url.port == 9000)
        #expect(moved.hostHeader == "cdn.test")
        #expect(moved.address == "127.0.0.1")
    }
}
