package import IPACheckAASA

/// The AASA files fetched for the App Flip and Firebase checks (origin and CDN copy per host), answering their
/// match questions through IPACheckAASA's matcher, so the checks themselves never touch the network.
package struct AASADocumentSet: Sendable {
    private enum Entry: Sendable {
        case document(AASADocument)
        case failure(String)
    }

    private struct Key: Hashable, Sendable {
        let host: String
        let copy: AASACopy
    }

    private var entries: [Key: Entry] = [:]

    /// Creates an empty set; every question is then `unavailable`.
    package init() {}

    /// Records the parsed file of `host` as served by `copy`.
    package mutating func add(_ document: AASADocument, host: String, copy: AASACopy) {
        entries[Key(host: host.lowercased(), copy: copy)] = .document(document)
    }

    /// Records why `host`'s `copy` could not be used (HTTP status, redirect, parse error, ...).
    package mutating func addFailure(_ reason: String, host: String, copy: AASACopy) {
        entries[Key(host: host.lowercased(), copy: copy)] = .failure(reason)
    }

    /// The matcher the checks take.
    package var matcher: AASALinkMatcher {
        let entries = self.entries
        // The copies fetched for the host; with none at all, the origin is still asked, so a check about a host
        // nobody fetched says so ("not fetched") instead of passing in silence.
        let copies: @Sendable (String) -> [AASACopy] = { host in
            let fetched = AASACopy.allCases.filter { entries[Key(host: host.lowercased(), copy: $0)] != nil }
            return fetched.isEmpty ? [.origin] : fetched
        }
        return AASALinkMatcher(copies: copies) { request in
            switch entries[Key(host: request.host.lowercased(), copy: request.copy)] {
            case nil:
                let copy = request.copy == .cdn ? "Apple's CDN copy" : "the origin's copy"
                return .unavailable(why: "\(copy) of \(request.host)'s AASA was not fetched")
            case .failure(let reason):
                return .unavailable(why: reason)
            case .document(let document):
                let result = document.matcher(for: request.appID).evaluate(request.url)
                switch result.verdict {
                case .match: return .match
                case .block: return .block(why: result.why)
                case .none: return .none(why: result.why)
                }
            }
        }
    }
}
