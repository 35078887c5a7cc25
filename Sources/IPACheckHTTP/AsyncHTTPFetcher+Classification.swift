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

extension AsyncHTTPFetcher {
    /// Maps AHC, NIO and NIOSSL errors to the kinds a person can act on, saying what was observed.
    static func classify(_ error: any Error, elapsed: Duration) -> FetchFailure {
        func failure(_ kind: FetchFailure.Kind, _ detail: String) -> FetchFailure {
            FetchFailure(kind, detail, elapsed: elapsed)
        }
        switch error {
        case let broken as BrokenResponse:
            return classify(broken, elapsed: elapsed)
        case let client as HTTPClientError:
            return classify(client, elapsed: elapsed)
        case let parser as HTTPParserError:
            return classify(parser, elapsed: elapsed)
        case let decoder as NIOHTTPDecoderError where decoder == .unsolicitedResponse:
            return failure(.malformedResponse, "the server sent an answer nobody asked for")
        case let decompression as NIOHTTPDecompression.DecompressionError:
            if case .limit = decompression {
                return failure(.tooLarge, "the decompressed body exceeds the body cap")
            }
            return failure(.malformedResponse, "the compressed body is corrupt (\(decompression))")
        case let ssl as NIOSSLExtraError where ssl == .failedToValidateHostname:
            return failure(.tlsHostnameMismatch, "the certificate does not name the host (\(ssl))")
        case let ssl as NIOSSLError:
            return classify(ssl, elapsed: elapsed)
        case let connection as NIOConnectionError:
            if connection.connectionErrors.isEmpty {
                return failure(.dnsFailure, "the host name does not resolve (\(connection.host))")
            }
            return classifySocket(connection.connectionErrors.map(\.error), error: error, elapsed: elapsed)
        case is SocketAddressError:
            return failure(.dnsFailure, "the host name does not resolve (\(error))")
        case let io as IOError:
            return classifySocket([io], error: error, elapsed: elapsed)
        case is ChannelError:
            return failure(.connectionReset, "the connection closed before a complete answer (\(error))")
        case is CancellationError:
            return failure(.timeout, "the request was cancelled at the deadline")
        default:
            return failure(.other, String(describing: error))
        }
    }

    private static func classify(_ broken: BrokenResponse, elapsed: Duration) -> FetchFailure {
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
            let underlying = classify(cause, elapsed: elapsed)
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
        if timeouts.contains(client) {
            return failure(.timeout, "no complete answer in time (\(client.shortDescription))")
        }
        if client == .remoteConnectionClosed || client == .uncleanShutdown {
            return failure(.connectionReset, "the server closed the connection before a complete answer")
        }
        if [.invalidURL, .emptyHost, .emptyScheme].contains(client) {
            return failure(.invalidRequest, client.shortDescription)
        }
        return failure(.other, client.shortDescription)
    }

    private static func classify(_ parser: HTTPParserError, elapsed: Duration) -> FetchFailure {
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
            return FetchFailure(.other, "the HTTP parser failed (\(parser))", elapsed: elapsed)
        default:
            return FetchFailure(.malformedResponse, "the answer is not valid HTTP/1.1 (\(parser))", elapsed: elapsed)
        }
    }

    private static func classify(_ ssl: NIOSSLError, elapsed: Duration) -> FetchFailure {
        switch ssl {
        case .handshakeFailed(let underlying):
            let detail = String(describing: underlying)
            if detail.contains("CERTIFICATE_VERIFY_FAILED") {
                return FetchFailure(.tlsUntrusted, "certificate verification failed (\(detail))", elapsed: elapsed)
            }
            return FetchFailure(.tlsHandshake, "TLS handshake failed (\(detail))", elapsed: elapsed)
        case .uncleanShutdown:
            return FetchFailure(
                .connectionReset,
                "the server cut the TLS connection without closing it",
                elapsed: elapsed
            )
        default:
            return FetchFailure(.tlsHandshake, "TLS failed (\(ssl))", elapsed: elapsed)
        }
    }

    /// Whether `error` is a TCP reset (or a write into a connection the server reset).
    private static func isReset(_ error: any Error) -> Bool {
        let errors = (error as? NIOConnectionError)?.connectionErrors.map(\.error) ?? [error]
        return errors.contains { [ECONNRESET, EPIPE].contains(($0 as? IOError)?.errnoCode) }
    }

    private static func classifySocket(_ errors: [any Error], error: any Error, elapsed: Duration) -> FetchFailure {
        let text = String(describing: error)
        let codes = errors.compactMap { ($0 as? IOError)?.errnoCode }
        if codes.contains(ECONNREFUSED) {
            return FetchFailure(.connectionRefused, "connection refused (\(text))", elapsed: elapsed)
        }
        if isReset(error) {
            return FetchFailure(.connectionReset, "the server reset the connection (\(text))", elapsed: elapsed)
        }
        if codes.contains(ENETUNREACH) || codes.contains(EHOSTUNREACH) || codes.contains(EADDRNOTAVAIL) {
            return FetchFailure(.networkUnreachable, "no route to the host's network (\(text))", elapsed: elapsed)
        }
        if codes.contains(ETIMEDOUT) {
            return FetchFailure(.timeout, "connect timed out (\(text))", elapsed: elapsed)
        }
        return FetchFailure(.other, text, elapsed: elapsed)
    }
}
