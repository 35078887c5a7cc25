/// A question for the AASA matcher.
///
/// Would `url` open app `appID`, according to copy `copy` of `host`'s AASA?
package struct AASAMatchRequest: Hashable, Sendable {
    /// The host whose AASA decides (the entry host, or the apex for a `*.` entry).
    package var host: String
    /// The full URL, query included, as iOS receives it.
    package var url: String
    /// `APPIDPREFIX.bundle.id`, from the `application-identifier` entitlement.
    package var appID: String
    /// Which copy of the file.
    package var copy: AASACopy

    /// Creates a question.
    package init(host: String, url: String, appID: String, copy: AASACopy) {
        self.host = host
        self.url = url
        self.appID = appID
        self.copy = copy
    }
}

/// The matcher's answer, as the App Flip and Firebase checks need it.
package enum AASAMatchOutcome: Hashable, Sendable {
    /// A rule for the app matches: iOS opens the app.
    case match
    /// An `exclude` / `NOT` rule stops the URL first; `why` names the rule.
    case block(why: String)
    /// No rule for this app matches the URL; `why` says what was looked at.
    case none(why: String)
    /// The copy could not be read or parsed; `why` says what failed.
    case unavailable(why: String)
}

/// Answers AASA match questions from files the caller fetched beforehand (origin and CDN), so checks stay pure.
package struct AASALinkMatcher: Sendable {
    private let copiesOf: @Sendable (String) -> [AASACopy]
    private let answer: @Sendable (AASAMatchRequest) -> AASAMatchOutcome

    /// Creates a matcher.
    ///
    /// - Parameters:
    ///   - copies: The copies of a host's file that were fetched (the origin's, and Apple's CDN copy when it was
    ///     asked): the only ones a check should ask about.
    ///   - match: The answer to one question.
    package init(
        copies: @escaping @Sendable (String) -> [AASACopy],
        match: @escaping @Sendable (AASAMatchRequest) -> AASAMatchOutcome
    ) {
        self.copiesOf = copies
        self.answer = match
    }

    /// The copies of `host`'s file there is an answer about.
    package func copies(of host: String) -> [AASACopy] { copiesOf(host) }

    /// The answer to one question.
    package func callAsFunction(_ request: AASAMatchRequest) -> AASAMatchOutcome { answer(request) }
}

/// How a universal-link host is claimed by an app's `applinks:` entries.
package struct LinkHostCoverage: Hashable, Sendable {
    /// The entry that claims the host (a public one when there is any).
    package var entry: AssociatedDomain
    /// The host whose AASA iOS reads for it: the host itself, or the wildcard's apex (Apple TN3155).
    package var aasaHost: String

    /// Finds the `applinks:` entry that claims `host`: exact entries first, then the longest wildcard, preferring
    /// entries without an alternate mode; `nil` when none does.
    package static func find(host: String, in entries: [AssociatedDomain]) -> LinkHostCoverage? {
        let covering = entries.filter { $0.service == .applinks && $0.isUsable && $0.covers(host: host) }
        let ranked = covering.sorted { left, right in
            if left.isPublic != right.isPublic { return left.isPublic }
            if left.wildcard != right.wildcard { return !left.wildcard }
            return left.host.count > right.host.count
        }
        guard let best = ranked.first else { return nil }
        return LinkHostCoverage(entry: best, aasaHost: best.host)
    }
}
