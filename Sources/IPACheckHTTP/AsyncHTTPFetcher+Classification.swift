import AsyncHTTPClient
import Foundation
import IPACheckFetching
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// An answer that arrived, at least in part, but cannot be used as it is.
enum BrokenResponse: Error {
    /// More header lines than ``AsyncHTTPFetcher/maximumHeaderFields``.
    case tooManyHeaderFields(Int)
    /// Reading the body failed after the headers: `received` bytes (decoded) had been read, of `announced` bytes
    /// (the Content-Length, when the body is not content-encoded).
    case bodyInterrupted(any Error, received: Int, announced: UInt64?)
}

/// Where a request was going, for messages that name it: `example.com:443`, or with `--resolve`,
/// `127.0.0.1:8443 (for example.com)`.
struct FetchEndpoint: Sendable, Hashable {
    /// The host name of the URL.
    let host: String
    /// The address connected to (the host itself unless `--resolve` names another).
    let address: String
    /// The port connected to.
    let port: Int

    /// `HOST:PORT`, bracketing an IPv6 address, and naming the URL's host when `--resolve` sent it elsewhere.
    var described: String {
        let shown = address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
        return address.lowercased() == host.lowercased() ? shown : "\(shown) (for \(host))"
    }
}

extension AsyncHTTPFetcher {
    /// Maps AHC, NIO and NIOSSL errors to the kinds a person can act on, saying in words what was observed and,
    /// where there is one, what to do: never a type's dump, a source path or an errno tuple.
    ///
    /// - Parameter endpoint: Where the request went, to name it (`connection refused by example.com:443`).
    static func classify(_ error: any Error, elapsed: Duration, endpoint: FetchEndpoint? = nil) -> FetchFailure {
        func failure(_ kind: FetchFailure.Kind, _ detail: String) -> FetchFailure {
            FetchFailure(kind, detail, elapsed: elapsed)
        }
        let target = endpoint?.described ?? "the server"
        switch error {
        case let broken as BrokenResponse:
            return classify(broken, elapsed: elapsed, endpoint: endpoint)
        case let client as HTTPClientError:
            return classify(client, elapsed: elapsed)
        case let parser as HTTPParserError:
            return classify(parser, elapsed: elapsed)
        case let decoder as NIOHTTPDecoderError where decoder == .unsolicitedResponse:
            return failure(.malformedResponse, "the server sent an answer nobody asked for")
        case let decompression as NIOHTTPDecompression.DecompressionError:
            switch decompression {
            case .limit: return failure(.tooLarge, "the decompressed body exceeds the body cap")
            case .inflationError:
                return failure(.malformedResponse, "the compressed body is corrupt (it cannot be inflated)")
            case .initializationError: return failure(.other, "the compressed body could not be decompressed here")
            }
        case let extra as NIOHTTPDecompression.ExtraDecompressionError:
            let what = extra == .truncatedData ? "it ends too early" : "data follows its end"
            return failure(.malformedResponse, "the compressed body is corrupt (\(what))")
        case let ssl as NIOSSLExtraError where ssl == .failedToValidateHostname:
            return failure(.tlsHostnameMismatch, hostnameMismatch(endpoint))
        case let ssl as NIOSSLExtraError:
            let name = String(describing: ssl).split(separator: ":").first.map(String.init) ?? ""
            return failure(.tlsHandshake, "TLS failed (\(words(caseName: name)))")
        case let ssl as NIOSSLError:
            return classify(ssl, elapsed: elapsed, endpoint: endpoint)
        case let connection as NIOConnectionError:
            if connection.connectionErrors.isEmpty {
                return failure(.dnsFailure, unresolved(endpoint, fallback: connection.host))
            }
            return classifySocket(connection.connectionErrors.map(\.error), elapsed: elapsed, endpoint: endpoint)
        case is SocketAddressError:
            return failure(.dnsFailure, unresolved(endpoint, fallback: nil))
        case let io as IOError:
            return classifySocket([io], elapsed: elapsed, endpoint: endpoint)
        case is ChannelError:
            return failure(.connectionReset, "the connection to \(target) closed before a complete answer")
        case is CancellationError:
            return failure(.timeout, "the request was cancelled at the deadline")
        default:
            return failure(.other, "the request to \(target) failed for a reason the HTTP client did not name")
        }
    }

    private static func classify(_ broken: BrokenResponse, elapsed: Duration, endpoint: FetchEndpoint?) -> FetchFailure
    {
        switch broken {
        case .tooManyHeaderFields(let count):
            return FetchFailure(
                .oversizeHeaders,
                "the answer has \(count) header lines, more than the \(maximumHeaderFields) ipacheck reads",
                elapsed: elapsed
            )
        case .bodyInterrupted(let cause, let received, let announced):
            let progress =
                announced.map { "after \(received) of the \($0) bytes its Content-Length announced" }
                ?? "after \(received) bytes of the body"
            if isReset(cause) {
                return FetchFailure(.connectionReset, "the server reset the connection \(progress)", elapsed: elapsed)
            }
            let underlying = classify(cause, elapsed: elapsed, endpoint: endpoint)
            switch underlying.kind {
            case .connectionReset, .other:
                return FetchFailure(
                    .truncatedBody,
                    "the connection ended \(progress) (\(underlying.detail))",
                    elapsed: elapsed
                )
            case .malformedResponse:
                return FetchFailure(.malformedResponse, "\(underlying.detail), \(progress)", elapsed: elapsed)
            default:
                return underlying
            }
        }
    }

    private static func classify(_ client: HTTPClientError, elapsed: Duration) -> FetchFailure {
        func failure(_ kind: FetchFailure.Kind, _ detail: String) -> FetchFailure {
            FetchFailure(kind, detail, elapsed: elapsed)
        }
        let timeouts: [HTTPClientError] = [
            .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded, .tlsHandshakeTimeout,
            .getConnectionFromPoolTimeout, .cancelled,
        ]
        // AHC's short descriptions are words without associated values ("Read timeout"); lower-cased to fit.
        let what = client.shortDescription.prefix(1).lowercased() + client.shortDescription.dropFirst()
        if timeouts.contains(client) {
            return failure(.timeout, "no complete answer in time (\(what))")
        }
        if client == .remoteConnectionClosed || client == .uncleanShutdown {
            return failure(.connectionReset, "the server closed the connection before a complete answer")
        }
        if [.invalidURL, .emptyHost, .emptyScheme].contains(client) {
            return failure(.invalidRequest, what)
        }
        return failure(.other, "the HTTP client gave up: \(what)")
    }

    private static func classify(_ parser: HTTPParserError, elapsed: Duration) -> FetchFailure {
        let what = words(caseName: String(describing: parser))
        switch parser {
        case .headerOverflow:
            return FetchFailure(
                .oversizeHeaders,
                "the answer's headers exceed the 80 KiB ipacheck reads (a header flood)",
                elapsed: elapsed
            )
        case .invalidEOFState, .closedConnection:
            return FetchFailure(
                .connectionReset,
                "the server closed the connection before a complete answer",
                elapsed: elapsed
            )
        case .paused, .invalidInternalState, .strictModeAssertion:
            return FetchFailure(.other, "the HTTP parser failed (\(what))", elapsed: elapsed)
        default:
            return FetchFailure(.malformedResponse, "the answer is not valid HTTP/1.1 (\(what))", elapsed: elapsed)
        }
    }

    private static func classify(_ ssl: NIOSSLError, elapsed: Duration, endpoint: FetchEndpoint?) -> FetchFailure {
        switch ssl {
        case .handshakeFailed(let underlying):
            let reasons = boringSSLReasons(underlying)
            if reasons.contains("CERTIFICATE_VERIFY_FAILED") {
                return FetchFailure(.tlsUntrusted, untrusted, elapsed: elapsed)
            }
            return FetchFailure(.tlsHandshake, handshakeWords(reasons, underlying), elapsed: elapsed)
        case .uncleanShutdown:
            return FetchFailure(
                .connectionReset,
                "the server cut the TLS connection without closing it",
                elapsed: elapsed
            )
        default:
            return FetchFailure(
                .tlsHandshake,
                "TLS failed (\(words(caseName: String(describing: ssl))))",
                elapsed: elapsed
            )
        }
    }

    /// The words for a certificate that no trusted CA vouches for.
    static let untrusted =
        "the server's certificate is not trusted by this system's certificate authorities: it is self-signed, "
        + "issued by a private CA, or sent without its intermediate certificates — if the site uses a private CA, "
        + "pass that CA with --ca-file PEM"

    private static func hostnameMismatch(_ endpoint: FetchEndpoint?) -> String {
        guard let endpoint else { return "the server's certificate does not name the host it was asked for" }
        return "the server's certificate is not valid for \(endpoint.host): \(endpoint.host) is not among the names it "
            + "lists — the server must present a certificate for \(endpoint.host)"
    }

    private static func unresolved(_ endpoint: FetchEndpoint?, fallback: String?) -> String {
        guard let endpoint else {
            return "\(fallback ?? "the host") could not be resolved: check the name and this machine's DNS"
        }
        if endpoint.address.lowercased() != endpoint.host.lowercased() {
            return "\(endpoint.address), the address --resolve gives for \(endpoint.host), could not be resolved"
        }
        return "\(endpoint.host) could not be resolved: check the name's spelling and its DNS records"
    }

    /// BoringSSL's reason codes in `error` (`CERTIFICATE_VERIFY_FAILED`, `WRONG_VERSION_NUMBER`), taken from its
    /// error strings (`error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at FILE:LINE`) so that
    /// neither the number nor the source path reaches a person.
    private static func boringSSLReasons(_ error: BoringSSLError) -> [String] {
        let stack: NIOBoringSSLErrorStack
        switch error {
        case .sslError(let errors), .unknownError(let errors), .invalidSNIName(let errors),
            .failedToSetALPN(let errors):
            stack = errors
        default:
            return []
        }
        return stack.compactMap { entry in
            let text = entry.description
            let beforeLocation = text.range(of: " at ").map { text[..<$0.lowerBound] } ?? text[...]
            guard let reason = beforeLocation.split(separator: ":").last else { return nil }
            let token = reason.trimmingCharacters(in: .whitespaces)
            return token.isEmpty ? nil : token
        }
    }

    /// A failed handshake in words, from BoringSSL's reason codes.
    private static func handshakeWords(_ reasons: [String], _ error: BoringSSLError) -> String {
        let known: [(code: String, words: String)] = [
            ("WRONG_VERSION_NUMBER", "the server did not answer in TLS (is it plain HTTP on this port?)"),
            ("HTTP_REQUEST", "the server did not answer in TLS (is it plain HTTP on this port?)"),
            ("UNSUPPORTED_PROTOCOL", "the server and ipacheck have no TLS version in common"),
            ("TLSV1_ALERT_PROTOCOL_VERSION", "the server refused every TLS version ipacheck offers"),
            ("NO_SHARED_CIPHER", "the server and ipacheck have no cipher suite in common"),
            (
                "SSLV3_ALERT_HANDSHAKE_FAILURE",
                "the server refused the handshake (no cipher suite or version in common)"
            ),
            ("TLSV1_ALERT_UNRECOGNIZED_NAME", "the server does not serve this host name (it rejected the SNI name)"),
            ("TLSV1_ALERT_INTERNAL_ERROR", "the server failed during the handshake"),
            ("CERTIFICATE_REQUIRED", "the server asks for a client certificate"),
            ("TLSV13_ALERT_CERTIFICATE_REQUIRED", "the server asks for a client certificate"),
            ("UNEXPECTED_RECORD", "the server sent something other than a TLS handshake"),
        ]
        for reason in reasons {
            if let match = known.first(where: { $0.code == reason }) { return match.words }
        }
        if let reason = reasons.first(where: { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }) {
            return "the handshake failed: \(reason.lowercased().replacingOccurrences(of: "_", with: " "))"
        }
        switch error {
        case .zeroReturn, .syscallError:
            return "the server closed the connection during the handshake"
        default:
            if reasons.contains(where: { $0.contains("EOF") }) {
                return "the server closed the connection during the handshake"
            }
            return "the handshake did not complete"
        }
    }

    /// `invalidHeaderToken` → `invalid header token`: an enum case's name in words, for errors whose only
    /// description is the case.
    static func words(caseName: String) -> String {
        let name = caseName.split(separator: ".").last.map(String.init) ?? caseName
        guard name.allSatisfy({ $0.isLetter || $0.isNumber }) else { return "an error it did not describe" }
        var result = ""
        for character in name {
            if character.isUppercase, !result.isEmpty { result += " " }
            result += character.lowercased()
        }
        return result
    }

    /// Whether `error` is a TCP reset (or a write into a connection the server reset).
    private static func isReset(_ error: any Error) -> Bool {
        let errors = (error as? NIOConnectionError)?.connectionErrors.map(\.error) ?? [error]
        return errors.contains { [ECONNRESET, EPIPE].contains(($0 as? IOError)?.errnoCode) }
    }

    private static func classifySocket(
        _ errors: [any Error],
        elapsed: Duration,
        endpoint: FetchEndpoint?
    ) -> FetchFailure {
        let target = endpoint?.described ?? "the server"
        let codes = errors.compactMap { ($0 as? IOError)?.errnoCode }
        if codes.contains(ECONNREFUSED) {
            return FetchFailure(
                .connectionRefused,
                "connection refused by \(target) — is the server running, and is the port right?",
                elapsed: elapsed
            )
        }
        if codes.contains(ECONNRESET) || codes.contains(EPIPE) {
            return FetchFailure(.connectionReset, "\(target) reset the connection", elapsed: elapsed)
        }
        if codes.contains(ENETUNREACH) || codes.contains(EHOSTUNREACH) || codes.contains(EADDRNOTAVAIL) {
            return FetchFailure(
                .networkUnreachable,
                "\(target) cannot be reached: there is no route to its network from this machine",
                elapsed: elapsed
            )
        }
        if codes.contains(ETIMEDOUT) {
            return FetchFailure(.timeout, "connecting to \(target) timed out", elapsed: elapsed)
        }
        if let code = codes.first {
            let reason = unsafe String(cString: strerror(code))  // a NUL-terminated C string, copied at once
            let phrase = reason.prefix(1).lowercased() + reason.dropFirst()
            return FetchFailure(.other, "connecting to \(target) failed: \(phrase)", elapsed: elapsed)
        }
        return FetchFailure(.other, "connecting to \(target) failed", elapsed: elapsed)
    }
}
