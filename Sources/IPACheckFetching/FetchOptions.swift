package import Foundation

/// The network options every fetching subcommand shares (`--timeout`, `--ca-file`, `--resolve`, `--cdn-url`,
/// `--no-cdn`, `--offline --aasa-dir`), as one value the CLI fills and the fetchers read.
package struct FetchOptions: Hashable, Sendable {
    /// Apple's public AASA CDN lookup base, as text (`--cdn-url`'s default); the host name is appended.
    package static let appleCDN = "https://app-site-association.cdn-apple.com/a/v1/"
    /// Apple's public AASA CDN lookup base.
    package static let appleCDNBase = URL(string: appleCDN)
    /// The default per-request timeout in seconds (`--timeout`'s documented default, docs/configuration.md).
    package static let defaultTimeoutSeconds = 10
    /// The default per-request timeout.
    package static let defaultTimeout: Duration = .seconds(defaultTimeoutSeconds)
    /// The default body cap: well above Apple's 128 KB limit, so an oversize file's real size can be reported.
    package static let defaultBodyLimit = 1 << 20

    /// Each request (connect, TLS, headers and body) must finish within this.
    package var timeout: Duration
    /// A PEM file of extra trust anchors, used on top of the system's roots.
    package var extraCAFile: URL?
    /// `--resolve HOST:PORT:ADDRESS` overrides: connect to the address, keep the name for SNI and `Host`.
    package var resolve: [ResolveOverride]
    /// The CDN lookup base (must end in `/`); `nil` only if the default could not be built.
    package var cdnBase: URL?
    /// Skip Apple's CDN entirely.
    package var skipCDN: Bool
    /// When set, nothing touches the network: `DIR/HOST/apple-app-site-association` is read instead.
    package var offlineDirectory: URL?
    /// At most this many body bytes are read per response.
    package var bodyLimit: Int
    /// At most this many hosts are fetched at the same time (see ``defaultMaximumConcurrentHosts``).
    package var maximumConcurrentHosts: Int
    /// When a signed (iOS 8) file's certificate is judged: the run's judgement time.
    package var now: Date
    /// The default cap on hosts fetched at once: high enough that an app's hosts all run together.
    ///
    /// Slow hosts then cost one timeout, not one per batch. The cap only bounds open connections: a host has at most three open at once (its file and Apple's CDN, then two
    /// more user agents), so 64 hosts stay under 200 file descriptors, within macOS's default limit of 256 per
    /// process (Linux allows 1,024). Apps rarely claim more than 30 domains.
    package static let defaultMaximumConcurrentHosts = 64

    /// Creates options; the defaults are the documented ones (docs/configuration.md).
    package init(
        timeout: Duration = FetchOptions.defaultTimeout,
        extraCAFile: URL? = nil,
        resolve: [ResolveOverride] = [],
        cdnBase: URL? = FetchOptions.appleCDNBase,
        skipCDN: Bool = false,
        offlineDirectory: URL? = nil,
        bodyLimit: Int = FetchOptions.defaultBodyLimit,
        maximumConcurrentHosts: Int = FetchOptions.defaultMaximumConcurrentHosts,
        now: Date = Date()
    ) {
        self.now = now
        self.timeout = timeout
        self.extraCAFile = extraCAFile
        self.resolve = resolve
        self.cdnBase = cdnBase
        self.skipCDN = skipCDN
        self.offlineDirectory = offlineDirectory
        self.bodyLimit = max(1, bodyLimit)
        self.maximumConcurrentHosts = max(1, maximumConcurrentHosts)
    }

    /// Whether the options forbid network access.
    package var isOffline: Bool { offlineDirectory != nil }
}

/// One `--resolve HOST:PORT:ADDRESS` override, as curl spells it.
package struct ResolveOverride: Hashable, Sendable, Codable {
    /// The host name as it appears in URLs (lowercased).
    package var host: String
    /// The port the override applies to.
    package var port: Int
    /// The address to connect to instead (IPv4, IPv6 without brackets, or a host name).
    package var address: String
    /// The port to connect to instead of ``port`` (curl's `--connect-to`); `nil` keeps the port.
    ///
    /// Lets tests serve `https://example.com/` (port 443) from a server on `127.0.0.1:<free port>` while SNI and
    /// `Host` still say `example.com`.
    package var connectPort: Int?

    /// Creates an override.
    package init(host: String, port: Int, address: String, connectPort: Int? = nil) {
        self.host = host.lowercased()
        self.port = port
        self.address = address
        self.connectPort = connectPort
    }

    /// Parses `HOST:PORT:ADDRESS` (`example.com:443:127.0.0.1`, `example.com:443:[::1]`).
    ///
    /// - Throws: ``ResolveOverride/SyntaxError`` naming what is wrong with the value.
    package init(parsing text: String) throws(SyntaxError) {
        let pieces = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { throw SyntaxError(value: text, reason: "expected HOST:PORT:ADDRESS") }
        let host = String(pieces[0])
        guard !host.isEmpty, !host.contains("/") else {
            throw SyntaxError(value: text, reason: "the host is empty or not a host name")
        }
        guard let port = Int(pieces[1]), (1...65535).contains(port) else {
            throw SyntaxError(value: text, reason: "the port '\(pieces[1])' is not a number from 1 to 65535")
        }
        var address = String(pieces[2])
        if address.hasPrefix("["), address.hasSuffix("]") {
            address = String(address.dropFirst().dropLast())
        }
        guard !address.isEmpty else { throw SyntaxError(value: text, reason: "the address is empty") }
        guard Self.isIPAddress(address) else {
            throw SyntaxError(
                value: text,
                reason: "'\(address)' is not an IP address (as with curl, ADDRESS is 127.0.0.1 or [::1])"
            )
        }
        self.init(host: host, port: port, address: address)
    }

    /// Whether `text` is an IPv4 or IPv6 address, as inet_pton(3) reads one.
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        // inet_pton writes at most the size of the address structure it is given, a local here.
        let isV4 = unsafe inet_pton(AF_INET, text, &v4) == 1
        let isV6 = unsafe inet_pton(AF_INET6, text, &v6) == 1
        return isV4 || isV6
    }

    /// Why a `--resolve` value was refused.
    package struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The value as given.
        package var value: String
        /// What is wrong with it.
        package var reason: String

        /// A one-line message naming the value and the problem.
        package var description: String { "--resolve '\(value)': \(reason)" }
    }
}
