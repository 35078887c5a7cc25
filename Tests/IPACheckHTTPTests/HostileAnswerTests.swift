import Foundation
import IPACheckCore
import IPACheckHTTP
import IPACheckReport
import IPACheckTestSupport
import Testing

/// Answers no honest server sends, written byte for byte by a loopback TLS server (issue 11): none is ever read
/// as the answer to another request.
@Suite struct HostileAnswerTests {
    private static let host = "example.test"
    private static let url = "https://example.test/.well-known/apple-app-site-association"

    /// The answer's head with `Content-Length: length` and the given extra header lines.
    private static func head(length: Int, extra: String = "") -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(extra)Content-Length: \(length)\r\n\r\n"
    }

    // MARK: - Lying Content-Length

    /// A 200 whose Content-Length covers only the file: a whole 403 follows it on the same connection, waiting
    /// to be read as the answer to whatever is asked next.
    private static let smuggledForbidden =
        head(length: goodAASA.utf8.count) + goodAASA + "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"

    @Test func bytesLeftByALyingContentLengthNeverAnswerTheNextRequest() async throws {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let identity = try tls.ca.issueServerCertificate(dnsNames: [Self.host])
        let server = try await RawServer.start(identity: identity) { RawReply(Self.smuggledForbidden) }
        let options = tls.options(hosts: [Self.host], port: server.port, cdnHost: nil)
        let outcomes = try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
            var outcomes: [FetchOutcome] = []
            for _ in 0..<3 { outcomes.append(await fetcher.fetch(try request(Self.url))) }
            return outcomes
        }
        await server.shutdown()
        for outcome in outcomes {
            guard case .response(let response) = outcome else {
                Issue.record("expected the file, got \(outcome)")
                continue
            }
            #expect(response.status == 200)
            #expect(response.body == Array(goodAASA.utf8))
        }
        #expect(server.accepted == 3, "each request gets a connection of its own")
    }

    @Test func aLyingContentLengthDoesNotMakeApplesFetchersLookBlocked() async throws {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let identity = try tls.ca.issueServerCertificate(dnsNames: [Self.host])
        let server = try await RawServer.start(identity: identity) { RawReply(Self.smuggledForbidden) }
        let options = tls.options(hosts: [Self.host], port: server.port, cdnHost: nil)
        let results = try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
            await AASASiteFetcher(fetcher: fetcher, options: options).check([AASAFetchTarget(host: Self.host)])
        }
        await server.shutdown()
        let report = try #require(results.first).report
        #expect(!report.findings.contains { $0.rule == "SERVE030" }, "\(report.findings)")
        #expect(report.userAgents.allSatisfy { $0.status == 200 }, "\(report.userAgents)")
    }
}
