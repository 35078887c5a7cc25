import Foundation
package import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One request as the test server received it.
package struct TestRequest: Sendable {
    /// The request target (`/.well-known/apple-app-site-association`).
    package var path: String
    /// The request headers, in order.
    package var headers: [(name: String, value: String)]

    /// The first value of header `name` (case-insensitive).
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What the test server does with a request: the faults a real origin or CDN can show.
package enum TestResponse: Sendable {
    /// A complete response with `Content-Length`.
    case full(status: Int, headers: [(String, String)], body: [UInt8])
    /// Headers, then one byte of chunked body every `interval`, forever (defeats read timeouts).
    case drip(status: Int, headers: [(String, String)], interval: TimeAmount)
    /// Headers, then chunked body as fast as the client reads, forever.
    case endless(status: Int, headers: [(String, String)])
    /// Read the request and never answer.
    case hang
    /// Reset the TCP connection (SO_LINGER 0) without answering.
    case reset

    /// A 200 with the given body and Content-Type.
    package static func ok(_ body: String, contentType: String = "application/json") -> TestResponse {
        .full(status: 200, headers: [("Content-Type", contentType)], body: Array(body.utf8))
    }
}

/// A programmable HTTPS/1.1 server on `127.0.0.1:<free port>` for fault tests, with a certificate from
/// ``TestCA``; it records every request and every TLS server name (SNI) it was asked for.
package final class TLSTestServer: Sendable {
    /// The port it listens on (127.0.0.1 only).
    package let port: Int
    private let channel: any Channel
    private let log: RequestLog

    private init(port: Int, channel: any Channel, log: RequestLog) {
        self.port = port
        self.channel = channel
        self.log = log
    }

    /// Starts a server presenting `identity` and answering with `respond`, on `host` (a loopback address) and
    /// `port` (0: a free one).
    package static func start(
        identity: ServerIdentity,
        host: String = "127.0.0.1",
        port requestedPort: Int = 0,
        respond: @escaping @Sendable (TestRequest) -> TestResponse
    ) async throws -> TLSTestServer {
        let log = RequestLog()
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(identity.certificatePEM.utf8))
                .map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem))
        )
        tls.sslContextCallback = { values, promise in
            log.recordServerName(values.serverHostname)
            promise.succeed(NIOSSLContextConfigurationOverride())
        }
        let context = try NIOSSLContext(configuration: tls)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(TestHTTPHandler(respond: respond, log: log))
                }
            }
        let channel = try await bootstrap.bind(host: host, port: requestedPort).get()
        guard let port = channel.localAddress?.port else {
            try await channel.close()
            throw ServerError.noPort
        }
        return TLSTestServer(port: port, channel: channel, log: log)
    }

    /// The requests received so far, in order.
    package var requests: [TestRequest] { log.requests }

    /// The TLS server names (SNI) clients asked for, in order (`nil` when a client sent none).
    package var serverNames: [String?] { log.serverNames }

    /// Stops listening.
    package func shutdown() async {
        try? await channel.close()
    }

    private enum ServerError: Error { case noPort }
}

private final class RequestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storedRequests: [TestRequest] = []
    private var storedNames: [String?] = []

    func record(_ request: TestRequest) { lock.withLock { storedRequests.append(request) } }
    func recordServerName(_ name: String?) { lock.withLock { storedNames.append(name) } }
    var requests: [TestRequest] { lock.withLock { storedRequests } }
    var serverNames: [String?] { lock.withLock { storedNames } }
}

private final class TestHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let respond: @Sendable (TestRequest) -> TestResponse
    private let log: RequestLog
    private var head: HTTPRequestHead?
    private var drip: RepeatedTask?

    init(respond: @escaping @Sendable (TestRequest) -> TestResponse, log: RequestLog) {
        self.respond = respond
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            let request = TestRequest(path: head.uri, headers: head.headers.map { ($0.name, $0.value) })
            log.record(request)
            act(respond(request), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        drip?.cancel()
        context.fireChannelInactive()
    }

    private func writeHead(status: Int, headers: [(String, String)], context: ChannelHandlerContext) {
        let head = HTTPResponseHead(
            version: .http1_1,
            status: HTTPResponseStatus(statusCode: status),
            headers: HTTPHeaders(headers)
        )
        context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
    }

    private func act(_ response: TestResponse, context: ChannelHandlerContext) {
        let channel = context.channel
        switch response {
        case .full(let status, var headers, let body):
            if !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
                headers.append(("Content-Length", String(body.count)))
            }
            writeHead(status: status, headers: headers, context: context)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .drip(let status, let headers, let interval):
            writeHead(status: status, headers: headers, context: context)
            drip = channel.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { task in
                guard channel.isActive else {
                    task.cancel()
                    return
                }
                channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: " "))), promise: nil)
            }
        case .endless(let status, let headers):
            writeHead(status: status, headers: headers, context: context)
            Self.pump(channel, chunk: ByteBuffer(repeating: UInt8(ascii: " "), count: 16_384))
        case .hang:
            break
        case .reset:
            guard let socket = channel as? any SocketOptionProvider else {
                channel.close(promise: nil)
                return
            }
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    /// Writes `chunk` again each time the previous write completed, until the connection closes.
    private static func pump(_ channel: any Channel, chunk: ByteBuffer) {
        guard channel.isActive else { return }
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(chunk))).whenSuccess {
            channel.eventLoop.execute { pump(channel, chunk: chunk) }
        }
    }
}
