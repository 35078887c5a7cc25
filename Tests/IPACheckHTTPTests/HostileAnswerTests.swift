import Foundation
import IPACheckFetching
import IPACheckGate
import IPACheckHTTP
import IPACheckReport
import IPACheckSites
import IPACheckTestSupport
import Testing

/// Answers no honest server sends, written byte for byte by a loopback TLS server: each is classified
/// for what it is, never as a DNS or reachability problem, and none is ever read as the answer to another request.
@Suite struct HostileAnswerTests {
    private static let host = "example.test"
    private static let url = "https://example.test/.well-known/apple-app-site-association"

    /// The answer's head with `Content-Length: length` and the given extra header lines.
    private static func head(length: Int, extra: String = "") -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(extra)Content-Length: \(length)\r\n\r\n"
    }

    /// Fetches the AASA URL once from a ``RawServer`` answering with `reply`.
    private func fetch(_ reply: RawReply) async throws -> FetchOutcome {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let server = try await RawServer.start(identity: try tls.ca.issueServerCertificate(dnsNames: [Self.host])) {
            reply
        }
        let options = tls.options(hosts: [Self.host], port: server.port, cdnHost: nil)
        let outcome = try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
            await fetcher.fetch(try request(Self.url))
        }
        await server.shutdown()
        return outcome
    }

    private func failure(_ outcome: FetchOutcome) throws -> FetchFailure {
        guard case .failure(let failure) = outcome else {
            throw HostileAnswerError.answered("expected a failure, got \(outcome)")
        }
        return failure
    }

    @Test func headersBeyond80KiBAreAHeaderFlood() async throws {
        let flood = "X-Flood: " + String(repeating: "a", count: 100_000) + "\r\n"
        let failure = try failure(await fetch(RawReply(Self.head(length: 2, extra: flood) + "{}")))
        #expect(failure.kind == .oversizeHeaders, "\(failure)")
        #expect(failure.detail.contains("80 KiB"))
    }

    @Test func thousandsOfSmallHeadersAreAHeaderFlood() async throws {
        let lines = (0..<2_000).map { "X-\($0): 1\r\n" }.joined()
        let failure = try failure(await fetch(RawReply(Self.head(length: 2, extra: lines) + "{}")))
        #expect(failure.kind == .oversizeHeaders, "\(failure)")
        #expect(failure.detail.contains("2002 header lines"), "\(failure.detail)")
    }

    @Test(
        "A body shorter than its Content-Length is cut short, whether the connection is closed or reset",
        arguments: [RawReply.Then.close, .reset]
    )
    func aBodyShorterThanItsContentLengthIsTruncated(then: RawReply.Then) async throws {
        let reply = RawReply(Self.head(length: 1_000) + String(repeating: " ", count: 100), then: then)
        let failure = try failure(await fetch(reply))
        #expect(failure.kind == .truncatedBody, "\(failure)")
        #expect(failure.detail.contains("after 100 of the 1000 bytes"), "\(failure.detail)")
    }

    @Test func aResetBeforeAnyAnswerIsAConnectionReset() async throws {
        let failure = try failure(await fetch(RawReply("", then: .reset)))
        #expect(failure.kind == .connectionReset, "\(failure)")
    }

    @Test(
        "Bytes that are not HTTP/1.1 are a malformed answer",
        arguments: [
            "SSH-2.0-OpenSSH_9.6\r\n\r\n",
            "HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
            "HTTP/1.1 200 OK\r\nBad Header Name: x\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        ]
    )
    func notHTTPIsMalformed(answer: String) async throws {
        let failure = try failure(await fetch(RawReply(answer, then: .close)))
        #expect(failure.kind == .malformedResponse, "\(failure)")
    }

    @Test func aSiteWhoseAnswerIsBrokenIsNotCalledUnreachable() async throws {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let identity = try tls.ca.issueServerCertificate(dnsNames: [Self.host])
        let server = try await RawServer.start(identity: identity) {
            RawReply(Self.head(length: 1_000) + "{", then: .close)
        }
        let options = tls.options(hosts: [Self.host], port: server.port, cdnHost: nil)
        let results = try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
            await AASASiteFetcher(fetcher: fetcher, options: options).checkAndJudge([AASAFetchTarget(host: Self.host)])
        }
        await server.shutdown()
        let findings = try #require(results.first).report.findings
        #expect(findings.map(\.rule).filter { $0 != "SERVE040" } == ["SERVE023"], "\(findings)")
        #expect(findings.allSatisfy { !($0.fix ?? "").contains("DNS") })
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
            await AASASiteFetcher(fetcher: fetcher, options: options).checkAndJudge([AASAFetchTarget(host: Self.host)])
        }
        await server.shutdown()
        let report = try #require(results.first).report
        #expect(!report.findings.contains { $0.rule == "SERVE030" }, "\(report.findings)")
        #expect(report.userAgents.allSatisfy { $0.status == 200 }, "\(report.userAgents)")
    }
}

private enum HostileAnswerError: Error {
    case answered(String)
}
