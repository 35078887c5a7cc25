import AsyncHTTPClient
import Foundation
public import IPACheckCore
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// ``HTTPFetching`` over AsyncHTTPClient, configured the way Apple's AASA fetchers behave: redirects are returned,
/// never followed; certificates are always verified; each request has one deadline; bodies are streamed and
/// reading stops at the cap, so a 1 GB (or endless, or gzip-bomb) body costs no more memory than the cap.
///
/// Owns its own `HTTPClient` (the shared one follows redirects): create one per run and call ``shutdown()``,
/// or use ``withFetcher(options:_:)`` which always does.
public final class AsyncHTTPFetcher: HTTPFetching {
    private let client: HTTPClient
    private let dnsOverride: [String: String]
    private let connectPorts: [String: [Int: Int]]

    /// Creates a fetcher for `options` (timeout, extra CA file, `--resolve` overrides, body cap).
    ///
    /// - Throws: ``AsyncHTTPFetcher/SetupError`` when the CA file cannot be read or parsed.
    public init(options: FetchOptions) throws(SetupError) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        // Don't wait the default 5 s for a silent server's close_notify when closing a timed-out connection.
        tls.shutdownTimeout = .milliseconds(500)
        if let file = options.extraCAFile {
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(file.path)
            } catch {
                throw SetupError(message: "cannot read CA file \(file.path): \(error)")
            }
            guard !certificates.isEmpty else {
                throw SetupError(message: "CA file \(file.path) holds no PEM certificate")
            }
            // NIOSSL (used on every platform, see the event loop group below) adds these to the system roots.
            tls.additionalTrustRoots = [.certificates(certificates)]
        }
        var dnsOverride: [String: String] = [:]
        var connectPorts: [String: [Int: Int]] = [:]
        for entry in options.resolve {
            dnsOverride[entry.host] = entry.address
            if let port = entry.connectPort { connectPorts[entry.host, default: [:]][entry.port] = port }
        }
        let timeoutAmount = TimeAmount.nanoseconds(Self.nanoseconds(options.timeout))
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: .disallow,
            timeout: .init(connect: timeoutAmount, read: timeoutAmount),
            // Decompressed bytes count against the cap, so a small gzip bomb cannot expand past it.
            decompression: .enabled(limit: .size(options.bodyLimit))
        )
        configuration.dnsOverride = dnsOverride
        configuration.httpVersion = .http1Only
        self.connectPorts = connectPorts
        self.dnsOverride = dnsOverride
        // MultiThreadedEventLoopGroup everywhere: on macOS the default (Network.framework) ignores
        // additionalTrustRoots; NIOSSL behaves the same on both platforms.
        client = HTTPClient(
            eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton),
            configuration: configuration
        )
    }

    /// Runs `body` with a fetcher and shuts it down afterwards, whatever happens.
    public static func withFetcher<Result: Sendable>(
        options: FetchOptions,
        _ body: (AsyncHTTPFetcher) async throws -> Result
    ) async throws -> Result {
        let fetcher = try AsyncHTTPFetcher(options: options)
        do {
            let result = try await body(fetcher)
            await fetcher.shutdown()
            return result
        } catch {
            await fetcher.shutdown()
            throw error
        }
    }

    /// Closes the connections; call exactly once, when done.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Why the fetcher could not be created.
    public struct SetupError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong, naming the file.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    // MARK: - Fetching

    /// Performs one request within its timeout; see ``HTTPFetching/fetch(_:)``.
    public func fetch(_ request: FetchRequest) async -> FetchOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        guard request.url.scheme?.lowercased() == "https", let host = request.url.host, !host.isEmpty else {
            return .failure(FetchFailure(.invalidRequest, "only https URLs with a host are fetched"))
        }
        let limit = max(0, request.bodyLimit)
        let timeout = request.timeout
        do {
            let response = try await withThrowingTaskGroup(of: FetchResponse?.self) { group in
                group.addTask {
                    try await self.perform(request, host: host, limit: limit, clock: clock, start: start)
                }
                group.addTask {
                    // A second guard besides AHC's deadline: nothing outlives the timeout.
                    try await Task.sleep(for: timeout + .milliseconds(250))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else {
                    throw HTTPClientError.deadlineExceeded
                }
                return response
            }
            return .response(response)
        } catch {
            var failure = Self.classify(error, elapsed: clock.now - start)
            if failure.kind == .tlsUntrusted,
                let expired = await certificateValidityProblem(host: host, port: request.url.port ?? 443)
            {
                failure = FetchFailure(.tlsExpired, expired, elapsed: clock.now - start)
            }
            return .failure(failure)
        }
    }

    /// After a failed verification, looks at the server's certificate once more (without trusting it) to tell an
    /// expired or not-yet-valid certificate apart from an untrusted chain; `nil` when the dates are fine.
    private func certificateValidityProblem(host: String, port: Int) async -> String? {
        let address = dnsOverride[host.lowercased()] ?? host
        let connectPort = connectPorts[host.lowercased()]?[port] ?? port
        let captured = CapturedChain()
        do {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .noHostnameVerification
            let context = try NIOSSLContext(configuration: configuration)
            let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(3))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handler = try NIOSSLClientHandler(
                            context: context,
                            serverHostname: host,
                            customVerificationCallback: { certificates, promise in
                                captured.store(certificates)
                                // Only looking: never proceed with this connection.
                                promise.succeed(.failed)
                            }
                        )
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
            let channel = try await bootstrap.connect(host: address, port: connectPort).get()
            for _ in 0..<150 where captured.leaf == nil { try await Task.sleep(for: .milliseconds(20)) }
            try? await channel.close()
        } catch {
            // Fall through: whatever was captured before the failure still counts.
        }
        guard let leaf = captured.leaf else { return nil }
        let now = time(nil)
        if leaf.notValidAfter < now {
            return "the server's certificate expired at \(Self.format(leaf.notValidAfter))"
        }
        if leaf.notValidBefore > now {
            return "the server's certificate is not valid before \(Self.format(leaf.notValidBefore))"
        }
        return nil
    }

    private static func format(_ time: time_t) -> String {
        Date(timeIntervalSince1970: TimeInterval(time)).formatted(.iso8601)
    }

    private func perform(
        _ request: FetchRequest,
        host: String,
        limit: Int,
        clock: ContinuousClock,
        start: ContinuousClock.Instant
    ) async throws -> FetchResponse {
        var url = request.url
        var headers = request.headers
        let port = url.port ?? 443
        if let connectPort = connectPorts[host.lowercased()]?[port],
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        {
            // Connect elsewhere, but keep the Host header the original URL implies.
            components.port = connectPort
            if let moved = components.url { url = moved }
            if !headers.contains(where: { $0.name.lowercased() == "host" }) {
                headers.append(HTTPHeaderField("Host", url.port == nil || port == 443 ? host : "\(host):\(port)"))
            }
        }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = .GET
        for header in headers { outgoing.headers.add(name: header.name, value: header.value) }

        let deadline = NIODeadline.now() + .nanoseconds(Self.nanoseconds(request.timeout))
        let response = try await client.execute(outgoing, deadline: deadline)
        var body: [UInt8] = []
        body.reserveCapacity(min(limit, 64 * 1024))
        var truncated = false
        for try await buffer in response.body {
            let room = limit - body.count
            if buffer.readableBytes > room {
                body += buffer.readableBytesView.prefix(room)
                truncated = true
                break
            }
            body += buffer.readableBytesView
        }
        let fields = response.headers.map { HTTPHeaderField($0.name, $0.value) }
        return FetchResponse(
            status: Int(response.status.code),
            headers: fields,
            body: body,
            bodyTruncated: truncated,
            elapsed: clock.now - start
        )
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let parts = duration.components
        let (whole, overflow) = parts.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return Int64.max / 2 }
        return max(0, whole + parts.attoseconds / 1_000_000_000)
    }

    // MARK: - Error classification

    /// Maps AHC, NIO and NIOSSL errors to the kinds a person can act on.
    static func classify(_ error: any Error, elapsed: Duration) -> FetchFailure {
        let text = String(describing: error)
        func failure(_ kind: FetchFailure.Kind, _ detail: String) -> FetchFailure {
            FetchFailure(kind, detail, elapsed: elapsed)
        }
        if let client = error as? HTTPClientError {
            let timeouts: [HTTPClientError] = [
                .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded, .tlsHandshakeTimeout,
                .getConnectionFromPoolTimeout, .cancelled,
            ]
            if timeouts.contains(client) {
                return failure(.timeout, "no complete answer in time (\(client.shortDescription))")
            }
            if client == .remoteConnectionClosed {
                return failure(.connectionReset, "the server closed the connection before a complete answer")
            }
            if [.invalidURL, .emptyHost, .emptyScheme].contains(client) {
                return failure(.invalidRequest, client.shortDescription)
            }
            return failure(.other, client.shortDescription)
        }
        if let decompression = error as? NIOHTTPDecompression.DecompressionError {
            switch decompression {
            case .limit:
                return failure(.tooLarge, "the decompressed body exceeds the body cap")
            default:
                return failure(.other, "the compressed body is corrupt (\(decompression))")
            }
        }
        if let ssl = error as? NIOSSLExtraError, ssl == .failedToValidateHostname {
            return failure(.tlsHostnameMismatch, "the certificate does not name the host (\(ssl))")
        }
        if let ssl = error as? NIOSSLError {
            switch ssl {
            case .handshakeFailed(let underlying):
                let detail = String(describing: underlying)
                if detail.contains("CERTIFICATE_VERIFY_FAILED") {
                    return failure(.tlsUntrusted, "certificate verification failed (\(detail))")
                }
                return failure(.tlsHandshake, "TLS handshake failed (\(detail))")
            case .uncleanShutdown:
                return failure(.connectionReset, "the TLS connection was cut without close_notify")
            default:
                return failure(.tlsHandshake, "TLS failed (\(ssl))")
            }
        }
        if let connection = error as? NIOConnectionError {
            if connection.connectionErrors.isEmpty {
                return failure(.dnsFailure, "the host name does not resolve (\(connection.host))")
            }
            return classifySocket(connection.connectionErrors.map(\.error), text: text, elapsed: elapsed)
        }
        if error is NIOConnectionError || error is SocketAddressError {
            return failure(.dnsFailure, text)
        }
        if let io = error as? IOError {
            return classifySocket([io], text: text, elapsed: elapsed)
        }
        if error is ChannelError {
            return failure(.connectionReset, "the connection failed (\(text))")
        }
        if error is CancellationError {
            return failure(.timeout, "the request was cancelled at the deadline")
        }
        return failure(.other, text)
    }

    private static func classifySocket(_ errors: [any Error], text: String, elapsed: Duration) -> FetchFailure {
        let codes = errors.compactMap { ($0 as? IOError)?.errnoCode }
        if codes.contains(ECONNREFUSED) {
            return FetchFailure(.connectionRefused, "connection refused (\(text))", elapsed: elapsed)
        }
        if codes.contains(ECONNRESET) || codes.contains(EPIPE) {
            return FetchFailure(.connectionReset, "connection reset (\(text))", elapsed: elapsed)
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

/// The peer's certificates, handed over from NIOSSL's verification callback.
private final class CapturedChain: @unchecked Sendable {
    private let lock = NSLock()
    private var certificates: [NIOSSLCertificate] = []

    func store(_ chain: [NIOSSLCertificate]) { lock.withLock { certificates = chain } }
    var leaf: NIOSSLCertificate? { lock.withLock { certificates.first } }
}
