/// What fetching a host's file (or asking Apple's CDN for it) found wrong, in words and with where, for the serving
/// and CDN families to judge (their rules, severities and fixes are the families').
package struct SiteProblem: Hashable, Sendable {
    /// The kinds of problem the fetcher tells apart: each is one rule of the serving or the CDN family.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        case notFound, rootOnly, redirect, badStatus, tls, timeout, unreachable, oldTLS, htmlContentType
        case looseContentType, signedMismatch, tooLarge, compressed, exceedsFetchLimit, brokenAnswer
        case userAgentBlocked, arbitraryAgentRefused, userAgentBodyDiffers, slow, notJSON, offlineMissing
        case invalidHost, developerModeTLS
        case noCopy, stale, current, unavailable, skippedForMode, servingDespiteOriginFailure, fetchedElsewhere
    }

    /// What is wrong.
    package let kind: Kind
    /// What is wrong here, in one or two sentences.
    package var message: String
    /// The host.
    package var domain: String?
    /// The URL asked.
    package var url: String?
    /// The file read, offline.
    package var location: String?
    /// Advice for this problem, when the rule's own fix does not fit it.
    package var fix: String?

    /// A problem of `kind`, said in `message`.
    package init(
        _ kind: Kind,
        _ message: String,
        domain: String? = nil,
        url: String? = nil,
        location: String? = nil,
        fix: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.domain = domain
        self.url = url
        self.location = location
        self.fix = fix
    }
}
