import AsyncHTTPClient
import Foundation
import IPACheckConcurrency
package import IPACheckFetching
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// ``HTTPFetching`` over AsyncHTTPClient, configured the way Apple's AASA fetchers behave: redirects are returned,
/// never followed; certificates are always verified; each request has one deadline; bodies are streamed and
/// reading stops at the cap, so a 1 GB (or endless, or gzip-bomb) body costs no more memory than the cap.
///
/// Every request gets a client, and so a connection, of its own, closed after that one answer:
/// - bytes a server leaves behind (a body longer than its Content-Length) can never be read as the next request's
///   answer;
/// - `--resolve HOST:PORT:ADDRESS` applies to that host and port only, as in curl;
/// - the TLS version is known for each answer.
///
/// A connection that fails is not tried again, so a refused connection or a rejected certificate is reported at
/// once instead of at the deadline. Create one fetcher per run and call ``shutdown()``, or use
/// ``withFetcher(options:_:)`` which always does: it waits until every connection is closed.
package final class AsyncHTTPFetcher: HTTPFetching {
    /// At most this many header lines are accepted in one answer; more is a header flood. (SwiftNIO's parser
    /// already refuses more than 80 KiB of headers.)
    static let maximumHeaderFields = 500

    private let tls: TLSConfiguration
    private let overrides: [ResolveOverride]
    private let closing = ClosingClients()

    /// Creates a fetcher for `options` (extra CA file and `--resolve` overrides; each request brings its own
    /// timeout and body cap).
    ///
    /// - Throws: ``AsyncHTTPFetcher/SetupError`` when the CA file cannot be read or parsed.
    package init(options: FetchOptions) throws(SetupError) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        // TLS 1.0 and 1.1 stay allowed, so that a server offering nothing newer is read and reported (SERVE009)
        // rather than refused without a word.
        tls.minimumTLSVersion = .tlsv1
        // Each connection serves one request and is then closed: waiting for a server's close_notify gains nothing.
        tls.shutdownTimeout = .zero
        if let file = options.extraCAFile {
            let pem: [UInt8]
            do {
                pem = Array(try Data(contentsOf: file))
            } catch {
                throw SetupError(message: "cannot read CA file \(file.path): \(Self.fileWords(error))")
            }
            let certificates = (try? NIOSSLCertificate.fromPEMBytes(pem)) ?? []
            guard !certificates.isEmpty else {
                throw SetupError(
                    message: "CA file \(file.path) holds no PEM certificate (it must hold one or more "
                        + "-----BEGIN CERTIFICATE----- blocks)"
                )
            }
            // NIOSSL (used on every platform, see the event loop group below) adds these to the system roots.
            tls.additionalTrustRoots = [.certificates(certificates)]
        }
        self.tls = tls
        overrides = options.resolve
    }

    /// A file error in words (`no such file`, `permission denied`), never Foundation's `Error Domain=…` dump.
    private static func fileWords(_ error: any Error) -> String {
        let ns = error as NSError
        let posix =
            ns.domain == NSPOSIXErrorDomain
            ? ns
            : (ns.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { $0.domain == NSPOSIXErrorDomain ? $0 : nil }
        if let posix {
            let code = Int32(truncatingIfNeeded: posix.code)
            if code == ENOENT { return "no such file" }
            if code == EISDIR { return "it is a folder, not a file" }
            // strerror returns a pointer to a NUL-terminated static string, copied here at once.
            let reason = unsafe String(cString: strerror(code))
            return reason.prefix(1).lowercased() + reason.dropFirst()
        }
        guard ns.domain == NSCocoaErrorDomain else { return "the system could not read it" }
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "permission denied"
        default: return "the system could not read it"
        }
    }

    /// Runs `body` with a fetcher and shuts it down afterwards, whatever happens.
    package static func withFetcher<Result: Sendable>(
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

    /// Waits until the connections of every request made so far are closed; call once, when done.
    package func shutdown() async {
        await closing.waitForAll()
    }

    /// Why the fetcher could not be created.
    package struct SetupError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong, naming the file.
        package var message: String
        /// The message.
        package var description: String { message }
    }

    // MARK: - Fetching

    /// Performs one request within its timeout; see ``HTTPFetching/fetch(_:)``.
    package func fetch(_ request: FetchRequest) async -> FetchOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        guard request.url.scheme?.lowercased() == "https", let host = request.url.host, !host.isEmpty,
            let route = ConnectionRoute(url: request.url, host: host, overrides: overrides)
        else {
            return .failure(FetchFailure(.invalidRequest, "only https URLs with a host are fetched"))
        }
        let timeout = request.timeout
        do {
            let response = try await withThrowingTaskGroup(of: FetchResponse?.self) { group in
                group.addTask {
                    try await self.perform(request, route: route, clock: clock, start: start)
                }
                group.addTask {
                    // A second guard besides AHC's deadline: nothing outlives the timeout.
                    try await Task.sleep(for: Self.clamped(timeout) + .milliseconds(250))
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
            let endpoint = FetchEndpoint(host: host, address: route.address, port: route.port)
            var failure = Self.classify(error, elapsed: clock.now - start, endpoint: endpoint)
            if failure.kind == .tlsUntrusted,
                let expired = await certificateValidityProblem(host: host, route: route)
            {
                failure = FetchFailure(.tlsExpired, expired, elapsed: clock.now - start)
            }
            return .failure(failure)
        }
    }

    private func perform(
        _ request: FetchRequest,
        route: ConnectionRoute,
        clock: ContinuousClock,
        start: ContinuousClock.Instant
    ) async throws -> FetchResponse {
        let limit = max(1, request.bodyLimit)
        let timeout = TimeAmount.nanoseconds(Self.nanoseconds(request.timeout))
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: .disallow,
            timeout: .init(connect: timeout, read: timeout),
            // Decompressed bytes count against the cap, so a small gzip bomb cannot expand past it.
            decompression: .enabled(limit: .size(limit))
        )
        configuration.httpVersion = .http1Only
        configuration.dnsOverride = route.dnsOverride
        // Fail on the first refused connection or rejected certificate: retrying cannot fix either, and the
        // default retries until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        // The TLS version of the connection, handed over from AsyncHTTPClient's connection initializer.
        let negotiated = Locked<TLSProtocolVersion?>(nil)
        configuration.http1_1ConnectionDebugInitializer = { channel in
            channel.nioSSL_tlsVersion().map { version in negotiated.withLock { $0 = TLSProtocolVersion(version) } }
                .recover { _ in }
        }
        // MultiThreadedEventLoopGroup everywhere: on macOS the default (Network.framework) ignores
        // additionalTrustRoots; NIOSSL behaves the same on both platforms.
        let client = HTTPClient(
            eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton),
            configuration: configuration
        )
        defer { closing.close(client) }

        var outgoing = HTTPClientRequest(url: route.url.absoluteString)
        outgoing.method = .GET
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let hostHeader = route.hostHeader, !outgoing.headers.contains(name: "Host") {
            outgoing.headers.add(name: "Host", value: hostHeader)
        }

        let response = try await client.execute(outgoing, deadline: NIODeadline.now() + timeout)
        guard response.headers.count <= Self.maximumHeaderFields else {
            throw BrokenResponse.tooManyHeaderFields(response.headers.count)
        }
        var body: [UInt8] = []
        body.reserveCapacity(min(limit, 64 * 1024))
        var truncated = false
        do {
            for try await buffer in response.body {
                let room = limit - body.count
                if buffer.readableBytes > room {
                    body += buffer.readableBytesView.prefix(room)
                    truncated = true
                    break
                }
                body += buffer.readableBytesView
            }
        } catch {
            // Content-Length counts the bytes on the wire, which are the body's only when it is not encoded.
            let encoded = response.headers.contains(name: "Content-Encoding")
            throw BrokenResponse.bodyInterrupted(
                error,
                received: body.count,
                announced: encoded ? nil : response.headers.first(name: "Content-Length").flatMap { UInt64($0) }
            )
        }
        return FetchResponse(
            status: Int(response.status.code),
            headers: response.headers.map { HTTPHeaderField($0.name, $0.value) },
            body: body,
            bodyTruncated: truncated,
            elapsed: clock.now - start,
            tlsVersion: negotiated.withLock { $0 }
        )
    }

    /// After a failed verification, looks at the server's certificate once more (without trusting it) to tell an
    /// expired or not-yet-valid certificate apart from an untrusted chain; `nil` when the dates are fine.
    private func certificateValidityProblem(host: String, route: ConnectionRoute) async -> String? {
        // The peer's certificates, handed over from NIOSSL's verification callback.
        let captured = Locked<[NIOSSLCertificate]>([])
        func capturedLeaf() -> NIOSSLCertificate? { captured.withLock { $0.first } }
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
                                captured.withLock { $0 = certificates }
                                // Only looking: never proceed with this connection.
                                promise.succeed(.failed)
                            }
                        )
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
            let channel = try await bootstrap.connect(host: route.address, port: route.port).get()
            for _ in 0..<150 where capturedLeaf() == nil { try await Task.sleep(for: .milliseconds(20)) }
            try? await channel.close()
        } catch {
            // Fall through: whatever was captured before the failure still counts.
        }
        guard let leaf = capturedLeaf() else { return nil }
        let now = time(nil)
        if leaf.notValidAfter < now {
            return "the server's certificate expired on \(Self.format(leaf.notValidAfter)); the server must be given a "
                + "renewed certificate"
        }
        if leaf.notValidBefore > now {
            return "the server's certificate is not valid until \(Self.format(leaf.notValidBefore)) (is this "
                + "machine's clock or the server's certificate dated wrong?)"
        }
        return nil
    }

    private static func format(_ time: time_t) -> String {
        Date(timeIntervalSince1970: TimeInterval(time)).formatted(.iso8601)
    }

    /// `duration`, kept within what the clocks can add to without overflowing (a day is far beyond any timeout).
    private static func clamped(_ duration: Duration) -> Duration {
        min(max(duration, .zero), .seconds(86_400))
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let parts = clamped(duration).components
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }
}

/// Where one request connects: the URL handed to AsyncHTTPClient and the `dnsOverride` for it.
struct ConnectionRoute: Sendable {
    /// The URL to request (its port moved when an override names another port to connect to).
    private(set) var url: URL
    /// `[host: address]` when a `--resolve` override matches this host and port, else empty.
    let dnsOverride: [String: String]
    /// The `Host` header to send when the URL's port was moved, so that the server still sees the original.
    private(set) var hostHeader: String?
    /// The address connected to.
    let address: String
    /// The port connected to.
    let port: Int

    /// The route for `url`: the last override naming its host and port (443 when the URL has none) applies, as
    /// curl applies `--resolve`.
    init?(url: URL, host: String, overrides: [ResolveOverride]) {
        let urlPort = url.port ?? 443
        let name = host.lowercased()
        self.url = url
        guard let override = overrides.last(where: { $0.host == name && $0.port == urlPort }) else {
            dnsOverride = [:]
            address = host
            port = urlPort
            return
        }
        dnsOverride = [host: override.address]
        address = override.address
        port = override.connectPort ?? urlPort
        guard port != urlPort else { return }
        // Another port to connect to (curl's --connect-to): the server still sees the URL's host and port.
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.port = port
        guard let moved = components.url else { return nil }
        self.url = moved
        hostHeader = url.port == nil || urlPort == 443 ? host : "\(host):\(urlPort)"
    }
}

/// Connections AsyncHTTPClient closes in the background, so that an answer is returned without waiting for its
/// connection to close, and ``AsyncHTTPFetcher/shutdown()`` can still wait for all of them.
private struct ClosingClients: Sendable {
    /// The shutdowns not yet waited for.
    private let pending = Locked<[Task<Void, Never>]>([])

    func close(_ client: HTTPClient) {
        let task = Task<Void, Never> { try? await client.shutdown() }
        pending.withLock { $0.append(task) }
    }

    func waitForAll() async {
        while true {
            let tasks = pending.withLock { pending in
                defer { pending = [] }
                return pending
            }
            guard !tasks.isEmpty else { return }
            for task in tasks { await task.value }
        }
    }
}

extension TLSProtocolVersion {
    /// The version NIOSSL reports for a connection, as a fetch outcome states it.
    fileprivate init?(_ version: TLSVersion?) {
        switch version {
        case .tlsv1: self = .tlsv1
        case .tlsv11: self = .tlsv11
        case .tlsv12: self = .tlsv12
        case .tlsv13: self = .tlsv13
        case .none: return nil
        }
    }
}
