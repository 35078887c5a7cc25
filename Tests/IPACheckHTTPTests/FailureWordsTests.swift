import Foundation
import IPACheckFetching
import IPACheckTestSupport
import NIOCore
import Testing

@testable import IPACheckHTTP

/// Every way a fetch fails reaches a person in words: what happened and what to do, never a type's dump, an
/// errno tuple or a path into `.build/checkouts` (the issue "Failures are said in words").
@Suite struct FailureWordsTests {
    private let host = "example.test"
    private let url = "https://example.test/.well-known/apple-app-site-association"

    /// Text that only a dump would contain.
    static let dumps = ["Error Domain=", "errno", ".build/", "Certificate(", "sslError", "handshake.cc", "Error: "]

    private func expectWords(
        _ detail: String,
        contains hints: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for dump in Self.dumps {
            #expect(!detail.contains(dump), "\(detail)", sourceLocation: sourceLocation)
        }
        for hint in hints {
            #expect(detail.contains(hint), "\(detail)", sourceLocation: sourceLocation)
        }
    }

    /// Fetches the URL from a server presenting `identity`, trusting the test CA.
    private func failure(presenting identity: (LocalTLS) throws -> ServerIdentity) async throws -> FetchFailure {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let server = try await TLSTestServer.start(identity: try identity(tls), respond: { _ in .ok(goodAASA) })
        let outcome = try await AsyncHTTPFetcher.withFetcher(options: tls.options(hosts: [host], port: server.port)) {
            await $0.fetch(try request(url))
        }
        await server.shutdown()
        guard case .failure(let failure) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return FetchFailure(.other, "")
        }
        return failure
    }

    @Test func anUntrustedCertificateNamesTheSystemCAsAndCAFile() async throws {
        let failure = try await failure { _ in
            try TestCA(commonName: "someone else").issueServerCertificate(dnsNames: ["example.test"])
        }
        #expect(failure.kind == .tlsUntrusted)
        expectWords(failure.detail, contains: ["not trusted by this system's certificate authorities", "--ca-file"])
    }

    @Test func aCertificateForAnotherNameSaysWhichNameIsMissing() async throws {
        let failure = try await failure { tls in try tls.ca.issueServerCertificate(dnsNames: ["other.test"]) }
        #expect(failure.kind == .tlsHostnameMismatch)
        expectWords(failure.detail, contains: ["not valid for example.test", "certificate for example.test"])
        #expect(!failure.detail.contains("NIOSSLExtraError"), "\(failure.detail)")
    }

    @Test func anExpiredCertificateSaysWhenAndWhatToDo() async throws {
        let failure = try await failure { tls in
            try tls.ca.issueServerCertificate(
                dnsNames: ["example.test"],
                notValidBefore: Date().addingTimeInterval(-7200),
                notValidAfter: Date().addingTimeInterval(-3600)
            )
        }
        #expect(failure.kind == .tlsExpired)
        expectWords(failure.detail, contains: ["expired on", "renewed certificate"])
    }

    @Test func aClosedPortIsRefusedByThatAddressAndPort() async throws {
        let tls = try LocalTLS()
        defer { tls.remove() }
        let (outcome, port) = try await RefusingPort.with { port in
            let outcome = try await AsyncHTTPFetcher.withFetcher(options: tls.options(hosts: [host], port: port)) {
                await $0.fetch(try request(url))
            }
            return (outcome, port)
        }
        guard case .failure(let failure) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(failure.kind == .connectionRefused)
        expectWords(
            failure.detail,
            contains: ["connection refused by 127.0.0.1:\(port) (for example.test)", "is the server running"]
        )
    }

    @Test func aNameThatDoesNotResolveIsNamed() {
        let endpoint = FetchEndpoint(host: "nowhere.test", address: "nowhere.test", port: 443)
        let failure = AsyncHTTPFetcher.classify(
            SocketAddressError.unknown(host: "nowhere.test", port: 443),
            elapsed: .zero,
            endpoint: endpoint
        )
        #expect(failure.kind == .dnsFailure)
        expectWords(failure.detail, contains: ["nowhere.test could not be resolved"])
        #expect(!failure.detail.contains("SocketAddressError"), "\(failure.detail)")
    }

    @Test func socketErrorsNameTheEndpointWithoutAnErrnoTuple() {
        let endpoint = FetchEndpoint(host: "example.test", address: "::1", port: 8443)
        let cases: [(Int32, FetchFailure.Kind, String)] = [
            (ECONNREFUSED, .connectionRefused, "connection refused by [::1]:8443 (for example.test)"),
            (ENETUNREACH, .networkUnreachable, "[::1]:8443 (for example.test) cannot be reached"),
            (ECONNRESET, .connectionReset, "[::1]:8443 (for example.test) reset the connection"),
            (ETIMEDOUT, .timeout, "connecting to [::1]:8443 (for example.test) timed out"),
        ]
        for (code, kind, hint) in cases {
            let error = IOError(errnoCode: code, reason: "connect")
            let failure = AsyncHTTPFetcher.classify(error, elapsed: .zero, endpoint: endpoint)
            #expect(failure.kind == kind)
            expectWords(failure.detail, contains: [hint])
        }
    }

    @Test func unknownErrorsAreNotDumped() {
        struct Opaque: Error { let path = "/work/main/.build/checkouts/x.swift" }
        let failure = AsyncHTTPFetcher.classify(Opaque(), elapsed: .zero, endpoint: nil)
        expectWords(failure.detail, contains: ["failed"])
        #expect(!failure.detail.contains("Opaque"), "\(failure.detail)")
    }

    @Test func aMissingCAFileSaysSoInWords() {
        let options = FetchOptions(extraCAFile: URL(fileURLWithPath: "/nonexistent/ca.pem"))
        #expect {
            _ = try AsyncHTTPFetcher(options: options)
        } throws: { error in
            let message = (error as? AsyncHTTPFetcher.SetupError)?.message ?? ""
            return message.contains("/nonexistent/ca.pem: no such file") && !message.contains("Error Domain=")
        }
    }

    @Test func aCAFileWithoutCertificatesSaysWhatItMustHold() throws {
        let file = Scratch.folder.appendingPathComponent("not-a-ca-\(UUID()).pem")
        try Data("hello".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            _ = try AsyncHTTPFetcher(options: FetchOptions(extraCAFile: file))
        } throws: { error in
            let message = (error as? AsyncHTTPFetcher.SetupError)?.message ?? ""
            return message.contains("BEGIN CERTIFICATE") && !message.contains("failedToLoadCertificate")
        }
    }
}
