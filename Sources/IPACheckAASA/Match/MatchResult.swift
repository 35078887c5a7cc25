/// Whether iOS would open a URL in the app.
package enum AASAVerdict: String, Sendable, Hashable, Codable {
    /// A rule accepts the URL: the app opens it.
    case match
    /// The first matching rule is an `exclude` (or legacy `NOT `): the link opens in the browser.
    case block
    /// No rule for this app matches: the link opens in the browser.
    case none
}

/// Which rule decided: indices into the document (`applinks.details[detail].components[component]`, or the index
/// in `paths` for legacy entries).
package struct AASAPathRuleReference: Sendable, Hashable, Codable {
    /// Index of the details entry (source order for the legacy dictionary form).
    package var detail: Int
    /// Index in `components`, or in `paths` for legacy entries.
    package var component: Int

    /// Creates a reference.
    package init(detail: Int, component: Int) {
        self.detail = detail
        self.component = component
    }
}

/// The answer for one URL and app ID, in the shape of `ipacheck match --format json` results.
package struct AASAMatchResult: Sendable, Hashable, Codable {
    /// The URL as given.
    package var url: String
    /// The app ID asked about.
    package var appID: String
    /// What iOS would do.
    package var verdict: AASAVerdict
    /// The deciding rule, or nil when no rule decided.
    package var rule: AASAPathRuleReference?
    /// One sentence a person understands: which rule did what to which part of the URL.
    package var why: String
    /// The origin's answer, when devices read another copy (Apple's CDN) and the origin's file answers otherwise:
    /// what devices will do once that copy refreshes.
    package var origin: OriginAnswer?

    /// How the origin's file answers a URL that devices judge on Apple's CDN copy.
    package struct OriginAnswer: Sendable, Hashable, Codable {
        /// The origin's verdict.
        package var verdict: AASAVerdict
        /// Why, in one sentence.
        package var why: String

        /// Creates an answer.
        package init(verdict: AASAVerdict, why: String) {
            self.verdict = verdict
            self.why = why
        }
    }

    /// Creates a result.
    package init(url: String, appID: String, verdict: AASAVerdict, rule: AASAPathRuleReference?, why: String) {
        self.url = url
        self.appID = appID
        self.verdict = verdict
        self.rule = rule
        self.why = why
    }

    private enum CodingKeys: String, CodingKey {
        case url, appID, verdict, rule, why, origin
    }

    /// Encodes `rule` as `null` when absent, as match.schema.json requires.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(appID, forKey: .appID)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(rule, forKey: .rule)
        try container.encode(why, forKey: .why)
        try container.encodeIfPresent(origin, forKey: .origin)
    }

    /// `MATCH  https://example.com/r/1  component 0 {"/": "/r/*"} matches /r/1` (for text output).
    package var textLine: String {
        let label: String
        switch verdict {
        case .match: label = "MATCH"
        case .block: label = "BLOCK"
        case .none: label = "NONE "
        }
        return "\(label)  \(url)  \(why)"
    }
}
