import Foundation
import IPACheckTestSupport
import NIOCore
import NIOPosix
import NIOSSL

/// What ``RawServer`` sends for each request it reads: bytes exactly as given (no HTTP encoder in between), then
/// what happens to the connection.
struct RawReply: Sendable {
    /// What to do once the bytes are written.
    enum Then: Sendable {
        /// Keep the connection open and answer the next request on it the same way.
        case keepOpen
        /// Close the connection (TLS close_notify, then FIN).
        case close
        /// Reset the connection (SO_LINGER 0), mid-answer if the bytes were incomplete.
        case reset
    }

    var bytes: [UInt8]
    var then: Then

    init(_ text: String, then: Then = .keepOpen) {
        bytes = Array(text.utf8)
        self.then = then
    }

    init(bytes: [UInt8], then: Then = .keepOpen) {
        self.bytes = bytes
        self.then = then
    }
}

/// A TCP server on `127.0.0.1:<free port>`, with or without TLS, that writes raw bytes.
///
/// It sends the malformed, lying and silent answers no well-behaved HTTP server library can be made to send, and
/// counts connections, including how many were open at the same time.
final class RawServer: Sendable {
    /// The port it listens on.
    let port: Int
    private let channel: any Channel
    private let connections: ConnectionCounter

    private init(port: Int, channel: any Channel, connections: ConnectionCounter) {
        self.port = port
        self.channel = channel
        self.connections = connections
    }

    /// Starts a server.
    ///
    /// - Parameters:
    ///   - identity: The TLS certificate to present, or `nil` for plain TCP (a TLS client then waits forever for
    ///     the server's hello: a stalled host).
    ///   - maximumTLSVersion: The newest TLS version the server will negotiate.
    ///   - reply: The answer to each request (its head ends with an empty line), or `nil` to read and never
    ///     answer.
    static func start(
        identity: ServerIdentity?,
        maximumTLSVersion: TLSVersion? = nil,
        reply: @escaping @Sendable () -> RawReply?
    ) async throws -> RawServer {
        let connections = ConnectionCounter()
        let context: NIOSSLContext?
        if let identity {
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(identity.certificatePEM.utf8))
                    .map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem))
            )
            if let maximumTLSVersion {
                tls.maximumTLSVersion = maximumTLSVersion
                tls.minimumTLSVersion = .tlsv1
            }
            context = try NIOSSLContext(configuration: tls)
        } else {
            context = nil
        }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        RawReplyHandler(reply: reply, connections: connections)
                    )
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try await channel.close()
            throw RawServerError.noPort
        }
        return RawServer(port: port, channel: channel, connections: connections)
    }

    /// How many connections were accepted.
    var accepted: Int { connections.accepted }
    /// The most connections that were open at the same time.
    var peakOpen: Int { connections.peakOpen }

    /// Stops listening (connections already accepted stay until their clients close them).
    func shutdown() async {
        try? await channel.close()
    }

    private enum RawServerError: Error { case noPort }
}

private final class ConnectionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var open = 0
    private var storedPeak = 0
    private var storedAccepted = 0

    func opened() {
        lock.withLock {
            open += 1
            storedAccepted += 1
            storedPeak = max(storedPeak, open)
        }
    }

    func closed() { lock.withLock { open -= 1 } }
    var accepted: Int { lock.withLock { storedAccepted } }
    var peakOpen: Int { lock.withLock { storedPeak } }
}

private final class RawReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let endOfHead: [UInt8] = Array("\r\n\r\n".utf8)
    private let reply: @Sendable () -> RawReply?
    private let connections: ConnectionCounter
    private var received: [UInt8] = []

    init(reply: @escaping @Sendable () -> RawReply?, connections: ConnectionCounter) {
        self.reply = reply
        self.connections = connections
    }

    func channelActive(context: ChannelHandlerContext) {
        connections.opened()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        connections.closed()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received += unwrapInboundIn(data).readableBytesView
        // Answer each complete request head; the requests carry no body.
        while let end = Self.firstHeadEnd(in: received) {
            received.removeFirst(end)
            guard let answer = reply() else { continue }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: answer.bytes))).whenComplete { _ in
                switch answer.then {
                case .keepOpen:
                    break
                case .close:
                    channel.close(promise: nil)
                case .reset:
                    guard let socket = channel as? any SocketOptionProvider else {
                        channel.close(promise: nil)
                        return
                    }
                    socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                        channel.close(promise: nil)
                    }
                }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// The index just past the first `CRLF CRLF` in `bytes`.
    private static func firstHeadEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= endOfHead.count else { return nil }
        for start in 0...(bytes.count - endOfHead.count)
        where bytes[start..<(start + endOfHead.count)].elementsEqual(endOfHead) {
            return start + endOfHead.count
        }
        return nil
    }
}
