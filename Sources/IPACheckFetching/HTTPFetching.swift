package import Foundation

/// Fetches one HTTPS resource the way Apple's fetchers do: no redirects followed, body capped, one deadline.
///
/// The seam between the pure checks in ``AASASiteFetcher`` and the network: `IPACheckHTTP` implements it with
/// AsyncHTTPClient, and tests implement it with canned responses. It never throws: every transport problem comes
/// back as a classified ``FetchFailure`` so that the caller can turn it into a finding a person can act on.
package protocol HTTPFetching: Sendable {
    /// Performs `request` and returns the response (any status, including 3xx) or why there is none.
    func fetch(_ request: FetchRequest) async -> FetchOutcome
}

/// One header line, kept in the order the server sent it.
package struct HTTPHeaderField: Hashable, Sendable, Codable {
    /// The header name as sent.
    package var name: String
    /// The header value as sent.
    package var value: String

    /// Creates a header line.
    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What to fetch and how long and how much to read.
package struct FetchRequest: Hashable, Sendable {
    /// The absolute `https` URL.
    package var url: URL
    /// Extra request headers (`User-Agent`, `Accept`); `Host` comes from the URL.
    package var headers: [HTTPHeaderField]
    /// The whole request (connect, TLS, headers, body) must finish within this.
    package var timeout: Duration
    /// At most this many body bytes are kept; reading stops once more arrive.
    package var bodyLimit: Int

    /// Creates a request.
    package init(url: URL, headers: [HTTPHeaderField] = [], timeout: Duration, bodyLimit: Int) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.bodyLimit = bodyLimit
    }
}

/// A response as received: status, headers in order, and the body up to the request's limit.
package struct FetchResponse: Hashable, Sendable {
    /// The HTTP status code.
    package var status: Int
    /// The response headers, in order.
    package var headers: [HTTPHeaderField]
    /// The body bytes (after content decoding, if the fetcher decodes), at most the request's `bodyLimit`.
    package var body: [UInt8]
    /// Whether the server sent more than `bodyLimit` bytes (reading stopped there).
    package var bodyTruncated: Bool
    /// Time from sending the request to the end of the body (or the cap).
    package var elapsed: Duration
    /// The TLS version the connection negotiated, when the fetcher knows it.
    package var tlsVersion: TLSProtocolVersion?

    /// Creates a response.
    package init(
        status: Int,
        headers: [HTTPHeaderField],
        body: [UInt8],
        bodyTruncated: Bool = false,
        elapsed: Duration = .zero,
        tlsVersion: TLSProtocolVersion? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyTruncated = bodyTruncated
        self.elapsed = elapsed
        self.tlsVersion = tlsVersion
    }

    /// The first value of header `name` (case-insensitive), if present.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// A TLS protocol version, oldest first, so that versions below Apple's minimum can be told apart.
package enum TLSProtocolVersion: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// TLS 1.0 (RFC 2246), deprecated by RFC 8996.
    case tlsv1 = "TLS 1.0"
    /// TLS 1.1 (RFC 4346), deprecated by RFC 8996.
    case tlsv11 = "TLS 1.1"
    /// TLS 1.2 (RFC 5246), the oldest version Apple's App Transport Security accepts.
    case tlsv12 = "TLS 1.2"
    /// TLS 1.3 (RFC 8446).
    case tlsv13 = "TLS 1.3"

    /// Whether `lhs` is older than `rhs`.
    package static func < (lhs: TLSProtocolVersion, rhs: TLSProtocolVersion) -> Bool {
        let order = allCases
        return (order.firstIndex(of: lhs) ?? 0) < (order.firstIndex(of: rhs) ?? 0)
    }
}

/// Why a request produced no response, classified so that each kind gets its own advice.
package struct FetchFailure: Error, Hashable, Sendable, Codable {
    /// The kinds of transport failure that need different fixes.
    package enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The host name does not resolve.
        case dnsFailure
        /// Nothing listens on the port (or a firewall rejects the connection).
        case connectionRefused
        /// This machine has no route to the host's network (no network, or a sandboxed runner).
        case networkUnreachable
        /// The certificate chain does not lead to a trusted root (self-signed, missing intermediate, private CA).
        case tlsUntrusted
        /// The certificate does not name this host.
        case tlsHostnameMismatch
        /// The certificate has expired or is not valid yet.
        case tlsExpired
        /// Any other TLS handshake failure (protocol version, ciphers, alerts).
        case tlsHandshake
        /// The deadline passed (connect, headers or body too slow).
        case timeout
        /// The server reset the connection, or closed it before any answer.
        case connectionReset
        /// The body ended (the connection closed) before the length its headers announced.
        case truncatedBody
        /// The response headers are larger, or more numerous, than any server sends for a file (a header flood).
        case oversizeHeaders
        /// The bytes the server sent are not an HTTP/1.1 response (bad status line, header syntax or framing).
        case malformedResponse
        /// The body, after decompression, exceeds what the fetcher will read.
        case tooLarge
        /// The URL cannot be requested (not https, no host).
        case invalidRequest
        /// Nothing touched the network: offline mode, or the file is absent from the offline folder.
        case offline
        /// A failure that fits no other kind; `detail` says what it was.
        case other
    }

    /// The classified kind.
    package var kind: Kind
    /// The underlying error, as text, for the person reading the report.
    package var detail: String
    /// Time spent before the failure, in seconds.
    package var elapsedSeconds: Double

    /// Creates a failure.
    package init(_ kind: Kind, _ detail: String, elapsed: Duration = .zero) {
        self.kind = kind
        self.detail = detail
        self.elapsedSeconds = elapsed.seconds
    }
}

extension FetchFailure.Kind {
    /// The kind in a few words, for people (`DNS lookup failed`).
    package var summary: String {
        switch self {
        case .dnsFailure: "DNS lookup failed"
        case .connectionRefused: "connection refused"
        case .networkUnreachable: "network unreachable"
        case .tlsUntrusted: "certificate not trusted"
        case .tlsHostnameMismatch: "certificate for another host"
        case .tlsExpired: "certificate expired or not yet valid"
        case .tlsHandshake: "TLS handshake failed"
        case .timeout: "timed out"
        case .connectionReset: "connection reset"
        case .truncatedBody: "body cut short"
        case .oversizeHeaders: "header flood"
        case .malformedResponse: "not valid HTTP"
        case .tooLarge: "answer too large"
        case .invalidRequest: "not a URL that can be fetched"
        case .offline: "not fetched (offline)"
        case .other: "failed"
        }
    }
}

/// The result of one fetch: a response (any status), or a classified failure.
package enum FetchOutcome: Hashable, Sendable {
    /// The server answered.
    case response(FetchResponse)
    /// The server could not be asked or did not answer.
    case failure(FetchFailure)
}

extension Duration {
    /// The duration in seconds, as a `Double` (for reports and messages).
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
