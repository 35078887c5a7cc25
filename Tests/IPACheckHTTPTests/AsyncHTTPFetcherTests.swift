import Foundation
import IPACheckFetching
import IPACheckHTTP
import IPACheckTestSupport
import NIOCore
import Testing

/// AsyncHTTPFetcher against a real TLS server on 127.0.0.1 that the test starts, one fault at a time.
@Suite struct AsyncHTTPFetcherTests {
    private let host = "example.test"
    private let url = "https://example.test/.well-known/apple-app-site-association"

    private func fetch(
        _ respond: @escaping @Sendable (TestRequest) -> TestResponse,
        certificateNames: [String]? = nil,
        timeout: Duration = .seconds(5),
        bodyLimit: Int = 1 << 20,
        identity: ((LocalTLS) throws -> ServerIdentity)? = nil
    ) async throws -> (FetchOutcome, [TestRequest], [String?], Duration) {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let serverIdentity =
            try identity?(tls) ?? tls.ca.issueServerCertificate(dnsNames: certificateNames ?? [host])
        let server = try await TLSTestServer.start(identity: serverIdentity, respond: respond)
        let options = tls.options(hosts: [host], port: server.port, timeout: timeout, bodyLimit: bodyLimit)
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
            await fetcher.fetch(try request(url, timeout: timeout, bodyLimit: bodyLimit))
        }
        let elapsed = clock.now - start
        let requests = server.requests
        let names = server.serverNames
        await server.shutdown()
        return (outcome, requests, names, elapsed)
    }

    @Test func servesTheFileWithTheRealHostNameInSNIAndHost() async throws {
        let (outcome, requests, names, _) = try await fetch { _ in .ok(goodAASA) }
        guard case .response(let response) = outcome else {
            Issue.record("expected a response, got \(outcome)")
            return
        }
        #expect(response.status == 200)
        #expect(response.body == Array(goodAASA.utf8))
        #expect(response.header("content-type") == "application/json")
        #expect(!response.bodyTruncated)
        #expect(names == ["example.test"])
        let first = try #require(requests.first)
        #expect(first.header("Host") == "example.test")
        #expect(first.header("User-Agent") == "AASA-Bot/1.0.0")
        #expect(first.path == "/.well-known/apple-app-site-association")
    }

    @Test func redirectIsReturnedNotFollowed() async throws {
        let target = "https://www.example.test/.well-known/apple-app-site-association"
        let (outcome, requests, _, _) = try await fetch { _ in
            .full(status: 301, headers: [("Location", target)], body: [])
        }
        guard case .response(let response) = outcome else {
            Issue.record("expected a response, got \(outcome)")
            return
        }
        #expect(response.status == 301)
        #expect(response.header("Location") == target)
        #expect(requests.count == 1)
    }

    @Test func certificateFromAnotherCAIsUntrusted() async throws {
        let (outcome, _, _, _) = try await fetch({ _ in .ok(goodAASA) }) { _ in
            try TestCA(commonName: "someone else").issueServerCertificate(dnsNames: ["example.test"])
        }
        #expect(outcome.failureKind == .tlsUntrusted)
    }

    @Test func certificateForAnotherNameIsAHostnameMismatch() async throws {
        let (outcome, _, _, _) = try await fetch({ _ in .ok(goodAASA) }, certificateNames: ["other.test"])
        #expect(outcome.failureKind == .tlsHostnameMismatch)
    }

    @Test func expiredCertificateIsReportedAsExpired() async throws {
        let (outcome, _, _, _) = try await fetch({ _ in .ok(goodAASA) }) { tls in
            try tls.ca.issueServerCertificate(
                dnsNames: ["example.test"],
                notValidBefore: Date().addingTimeInterval(-7200),
                notValidAfter: Date().addingTimeInterval(-3600)
            )
        }
        #expect(outcome.failureKind == .tlsExpired)
    }

    // The server never finishes, so any end at all is the deadline's doing, and the outcome proves which it was.
    // A hang is the test runner's to catch (far above any load); no wall-clock bound here, which flakes on a
    // loaded 2-core machine.
    @Test(.timeLimit(.minutes(5))) func dripFeedingServerCostsNoMoreThanTheTimeout() async throws {
        let (outcome, _, _, _) = try await fetch(
            { _ in .drip(status: 200, headers: [("Content-Type", "application/json")], interval: .milliseconds(100)) },
            timeout: .seconds(1)
        )
        #expect(outcome.failureKind == .timeout)
    }

    // The server never finishes, so any end at all is the deadline's doing, and the outcome proves which it was.
    // A hang is the test runner's to catch (far above any load); no wall-clock bound here, which flakes on a
    // loaded 2-core machine.
    @Test(.timeLimit(.minutes(5))) func silentServerCostsNoMoreThanTheTimeout() async throws {
        let (outcome, _, _, _) = try await fetch({ _ in .hang }, timeout: .seconds(1))
        #expect(outcome.failureKind == .timeout)
    }

    @Test func resetIsAConnectionReset() async throws {
        let (outcome, _, _, _) = try await fetch { _ in .reset }
        #expect(outcome.failureKind == .connectionReset)
    }

    @Test func oversizeBodyStopsAtTheCap() async throws {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: 300_000)
        let (outcome, _, _, _) = try await fetch(
            { _ in .full(status: 200, headers: [("Content-Type", "application/json")], body: big) },
            bodyLimit: 131_072
        )
        guard case .response(let response) = outcome else {
            Issue.record("expected a response, got \(outcome)")
            return
        }
        #expect(response.bodyTruncated)
        #expect(response.body.count == 131_072)
    }

    @Test func endlessBodyStopsAtTheCap() async throws {
        let (outcome, _, _, _) = try await fetch(
            { _ in .endless(status: 200, headers: [("Content-Type", "application/json")]) },
            timeout: .seconds(10),
            bodyLimit: 65_536
        )
        guard case .response(let response) = outcome else {
            Issue.record("expected a truncated response, got \(outcome)")
            return
        }
        #expect(response.bodyTruncated)
        #expect(response.body.count == 65_536)
    }

    @Test func gzipBodyIsMeasuredDecompressed() async throws {
        let plain = Array(goodAASA.utf8)
        let compressed = try gzip(plain)
        let (outcome, requests, _, _) = try await fetch { _ in
            .full(
                status: 200,
                headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                body: compressed
            )
        }
        guard case .response(let response) = outcome else {
            Issue.record("expected a response, got \(outcome)")
            return
        }
        #expect(response.body == plain)
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(requests.first?.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test func gzipBombIsRefusedAtTheCap() async throws {
        let compressed = try gzip([UInt8](repeating: UInt8(ascii: " "), count: 4_000_000))
        #expect(compressed.count < 65_536)
        let (outcome, _, _, _) = try await fetch(
            { _ in
                .full(
                    status: 200,
                    headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                    body: compressed
                )
            },
            bodyLimit: 65_536
        )
        #expect(outcome.failureKind == .tooLarge)
    }

    @Test func closedPortIsConnectionRefused() async throws {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let outcome = try await RefusingPort.with { port in
            try await AsyncHTTPFetcher.withFetcher(options: tls.options(hosts: [host], port: port)) {
                await $0.fetch(try request(url))
            }
        }
        #expect(outcome.failureKind == .connectionRefused)
    }

    @Test func unreadableCAFileIsASetupError() throws {
        let options = FetchOptions(extraCAFile: URL(fileURLWithPath: "/nonexistent/ca.pem"))
        #expect(throws: AsyncHTTPFetcher.SetupError.self) { _ = try AsyncHTTPFetcher(options: options) }
    }
}

extension FetchOutcome {
    /// The failure kind, or `nil` for a response.
    var failureKind: FetchFailure.Kind? {
        if case .failure(let failure) = self { return failure.kind }
        return nil
    }
}
