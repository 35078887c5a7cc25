package import IPACheckFetching
package import IPACheckReport

/// Everything ipacheck learned about one host's AASA; the JSON of `ipacheck aasa HOST...`.
///
/// It holds the origin's answer, Apple's user agents compared with a browser's, Apple's CDN copy, and the findings.
package struct AASASiteReport: Hashable, Sendable, Codable {
    /// The host as asked (`*.example.com`).
    package var host: String
    /// The host whose file was fetched (`example.com`).
    package var fetchHost: String
    /// The entry's alternate mode, if any.
    package var mode: AASAFetchTarget.Mode?
    /// The origin's answer for the file that counts (the `.well-known` URL, or the root URL when only it works).
    package var origin: OriginObservation?
    /// The same URL asked again with other user agents.
    package var userAgents: [UserAgentObservation]
    /// Apple's CDN answer, or `nil` when the CDN was skipped (mode, `--no-cdn`, offline).
    package var cdn: CDNObservation?
    /// How the CDN copy differs in meaning from the origin's file, per app ID; `nil` when not both were readable.
    package var cdnDifferences: [AASAAppIDDifference]?
    /// What the fetch found wrong, in the order found; not written (``findings`` says it).
    package var problems: [SiteProblem] = []
    /// The problems as the serving and CDN rules judge them, worst first: filled by that judgement, empty until then.
    package var findings: [Finding]
    /// Whether a managed entry was judged as on a device whose MDM enables direct downloads (written only then).
    package var mdmDirectDownloads: Bool?

    private enum CodingKeys: String, CodingKey {
        case host, fetchHost, mode, origin, userAgents, cdn, cdnDifferences, findings, mdmDirectDownloads
    }

    /// The entry this report answers for.
    package var target: AASAFetchTarget {
        AASAFetchTarget(host: host, mode: mode, mdmDirectDownloads: mdmDirectDownloads == true)
    }

    /// Creates a report.
    package init(
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
package struct OriginObservation: Hashable, Sendable, Codable {
    /// Which location the observation is about.
    package enum Location: String, Hashable, Sendable, Codable {
        /// `https://HOST/.well-known/apple-app-site-association`.
        case wellKnown
        /// `https://HOST/apple-app-site-association` (legacy fallback).
        case root
        /// `DIR/HOST/apple-app-site-association` in offline mode.
        case offlineFile
    }

    /// The URL fetched (or the file path read, offline).
    package var url: String
    /// Which location this is.
    package var location: Location
    /// The user agent sent.
    package var userAgent: String?
    /// The HTTP status, when the server answered.
    package var status: Int?
    /// The transport failure, when it did not.
    package var failure: FetchFailure?
    /// `Location` of a redirect.
    package var redirectLocation: String?
    /// `Content-Type` as sent.
    package var contentType: String?
    /// `Content-Encoding` as sent.
    package var contentEncoding: String?
    /// `Last-Modified` as sent: when the site says its file last changed (a device's verdict from before it is stale).
    package var lastModified: String?
    /// Body bytes read (decompressed), at most the body cap.
    package var bodyBytes: Int?
    /// Whether the body was longer than the cap.
    package var bodyTruncated: Bool
    /// Seconds from request to end of body.
    package var elapsedSeconds: Double?
    /// The TLS version the connection negotiated, when known.
    package var tlsVersion: TLSProtocolVersion?

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
            lastModified = response.header("Last-Modified")
            bodyBytes = response.body.count
            bodyTruncated = response.bodyTruncated
            elapsedSeconds = response.elapsed.seconds
            tlsVersion = response.tlsVersion
        }
    }
}

/// The AASA URL asked with one more user agent, compared with the primary answer.
package struct UserAgentObservation: Hashable, Sendable, Codable {
    /// The user agent sent.
    package var userAgent: String
    /// Whether it is one of Apple's fetchers (AASA-Bot, CFNetwork) rather than a browser.
    package var isApple: Bool
    /// The HTTP status, when the server answered.
    package var status: Int?
    /// The transport failure, when it did not.
    package var failure: FetchFailure?
    /// Body bytes read.
    package var bodyBytes: Int?
}

/// How one app ID's association differs between Apple's CDN copy and the origin's file.
package struct AASAAppIDDifference: Hashable, Sendable, Codable {
    /// What differs.
    package enum Kind: String, Hashable, Sendable, Codable {
        /// The origin's file lists the app ID for the service; the CDN copy does not (devices don't see it yet).
        case onlyAtOrigin
        /// The CDN copy lists the app ID; the origin's file no longer does (devices still use it).
        case onlyOnCDN
        /// Both list it, with different rules (components, paths, defaults or substitution variables).
        case rulesDiffer
    }

    /// The app ID (`ABCDE12345.com.example.app`).
    package var appID: String
    /// The service (`applinks`, `webcredentials`, `appclips`, `activitycontinuation`).
    package var service: String
    /// What differs.
    package var kind: Kind
    /// What would change for this app once the CDN catches up, in one sentence.
    package var detail: String
}
