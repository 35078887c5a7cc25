public import IPACheckFetching
public import IPACheckLinks
public import IPACheckReport

/// One host to check, as an associated-domain entry names it: the host (maybe `*.`-prefixed) and its mode.
public struct AASAFetchTarget: Hashable, Sendable, Codable {
    /// The entry's alternate mode (`?mode=`), which decides whether devices use Apple's CDN: the entitlement's.
    public typealias Mode = AssociatedDomain.Mode

    /// The host as the entitlement writes it (`example.com`, `*.example.com`).
    public var host: String
    /// The alternate mode, or `nil` for a normal entry served through Apple's CDN.
    public var mode: Mode?

    /// Creates a target.
    public init(host: String, mode: Mode? = nil) {
        self.host = host
        self.mode = mode
    }

    /// The host whose file serves this entry: lowercased, without a trailing dot, and for `*.example.com` the
    /// apex `example.com` (TN3155: a wildcard entry is served by the apex's file).
    public var fetchHost: String {
        var name = host.lowercased()
        if name.hasPrefix("*.") { name.removeFirst(2) }
        while name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// Whether devices get this entry's file from Apple's CDN (normal entries) rather than from the origin.
    public var usesCDN: Bool { mode == nil }
}

/// Everything ipacheck learned about one host's AASA; the JSON of `ipacheck aasa HOST...`.
///
/// It holds the origin's answer, Apple's user agents compared with a browser's, Apple's CDN copy, and the findings.
public struct AASASiteReport: Hashable, Sendable, Codable {
    /// The host as asked (`*.example.com`).
    public var host: String
    /// The host whose file was fetched (`example.com`).
    public var fetchHost: String
    /// The entry's alternate mode, if any.
    public var mode: AASAFetchTarget.Mode?
    /// The origin's answer for the file that counts (the `.well-known` URL, or the root URL when only it works).
    public var origin: OriginObservation?
    /// The same URL asked again with other user agents.
    public var userAgents: [UserAgentObservation]
    /// Apple's CDN answer, or `nil` when the CDN was skipped (mode, `--no-cdn`, offline).
    public var cdn: CDNObservation?
    /// How the CDN copy differs in meaning from the origin's file, per app ID; `nil` when not both were readable.
    public var cdnDifferences: [AASAAppIDDifference]?
    /// The findings, worst first.
    public var findings: [Finding]

    /// Creates a report.
    public init(
        host: String,
        fetchHost: String,
        mode: AASAFetchTarget.Mode?,
        origin: OriginObservation? = nil,
        userAgents: [UserAgentObservation] = [],
        cdn: CDNObservation? = nil,
        cdnDifferences: [AASAAppIDDifference]? = nil,
        findings: [Finding] = []
    ) {
        self.host = host
        self.fetchHost = fetchHost
        self.mode = mode
        self.origin = origin
        self.userAgents = userAgents
        self.cdn = cdn
        self.cdnDifferences = cdnDifferences
        self.findings = findings
    }
}

/// The origin's answer for the AASA URL.
public struct OriginObservation: Hashable, Sendable, Codable {
    /// Which location the observation is about.
    public enum Location: String, Hashable, Sendable, Codable {
        /// `https://HOST/.well-known/apple-app-site-association`.
        case wellKnown
        /// `https://HOST/apple-app-site-association` (legacy fallback).
        case root
        /// `DIR/HOST/apple-app-site-association` in offline mode.
        case offlineFile
    }

    /// The URL fetched (or the file path read, offline).
    public var url: String
    /// Which location this is.
    public var location: Location
    /// The user agent sent.
    public var userAgent: String?
    /// The HTTP status, when the server answered.
    public var status: Int?
    /// The transport failure, when it did not.
    public var failure: FetchFailure?
    /// `Location` of a redirect.
    public var redirectLocation: String?
    /// `Content-Type` as sent.
    public var contentType: String?
    /// `Content-Encoding` as sent.
    public var contentEncoding: String?
    /// Body bytes read (decompressed), at most the body cap.
    public var bodyBytes: Int?
    /// Whether the body was longer than the cap.
    public var bodyTruncated: Bool
    /// Seconds from request to end of body.
    public var elapsedSeconds: Double?
    /// The TLS version the connection negotiated, when known.
    public var tlsVersion: TLSProtocolVersion?

    init(url: String, location: Location, userAgent: String?, outcome: FetchOutcome) {
        self.url = url
        self.location = location
        self.userAgent = userAgent
        bodyTruncated = false
        switch outcome {
        case .failure(let failure):
            self.failure = failure
            elapsedSeconds = failure.elapsedSeconds
        case .response(let response) where location == .offlineFile:
            // A file read from --aasa-dir: no server answered, so there is no status or header to report.
            bodyBytes = response.body.count
            bodyTruncated = response.bodyTruncated
        case .response(let response):
            status = response.status
            if (300..<400).contains(response.status) { redirectLocation = response.header("Location") }
            contentType = response.header("Content-Type")
            contentEncoding = response.header("Content-Encoding")
            bodyBytes = response.body.count
            bodyTruncated = response.bodyTruncated
            elapsedSeconds = response.elapsed.seconds
            tlsVersion = response.tlsVersion
        }
    }
}

/// The AASA URL asked with one more user agent, compared with the primary answer.
public struct UserAgentObservation: Hashable, Sendable, Codable {
    /// The user agent sent.
    public var userAgent: String
    /// Whether it is one of Apple's fetchers (AASA-Bot, CFNetwork) rather than a browser.
    public var isApple: Bool
    /// The HTTP status, when the server answered.
    public var status: Int?
    /// The transport failure, when it did not.
    public var failure: FetchFailure?
    /// Body bytes read.
    public var bodyBytes: Int?
}

/// How one app ID's association differs between Apple's CDN copy and the origin's file.
public struct AASAAppIDDifference: Hashable, Sendable, Codable {
    /// What differs.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The origin's file lists the app ID for the service; the CDN copy does not (devices don't see it yet).
        case onlyAtOrigin
        /// The CDN copy lists the app ID; the origin's file no longer does (devices still use it).
        case onlyOnCDN
        /// Both list it, with different rules (components, paths, defaults or substitution variables).
        case rulesDiffer
    }

    /// The app ID (`ABCDE12345.com.example.app`).
    public var appID: String
    /// The service (`applinks`, `webcredentials`, `appclips`, `activitycontinuation`).
    public var service: String
    /// What differs.
    public var kind: Kind
    /// What would change for this app once the CDN catches up, in one sentence.
    public var detail: String
}
