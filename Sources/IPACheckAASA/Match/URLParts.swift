/// A URL split into its parts without Foundation's URL parser: the one URL parser of ipacheck (the matcher, `match`,
/// `explain`, the App Flip and Firebase checks all read URLs through it, directly or as ``LinkURL``).
///
/// It is fast and tolerant of the raw strings people paste: `scheme://[userinfo@]host[:port]/path?query#fragment`.
/// A string without `scheme://` is a path-only URL (no scheme, no host).
struct URLParts: Sendable {
    /// The whole text; each part is a range of it, so that a copy of the parts costs one reference, not seven.
    private let text: String
    private var schemeRange: Range<String.Index>?
    private var userInfoRange: Range<String.Index>?
    private var hostRange: Range<String.Index>?
    private var portRange: Range<String.Index>?
    private var pathRange: Range<String.Index>
    private var queryRange: Range<String.Index>?
    private var fragmentRange: Range<String.Index>?

    /// The scheme as written (`https`), when the text starts with `scheme://`.
    var scheme: Substring? { schemeRange.map { text[$0] } }
    /// The user information before `@`, if any.
    var userInfo: Substring? { userInfoRange.map { text[$0] } }
    /// The host as written, without user info, port or IPv6 brackets.
    var host: Substring? { hostRange.map { text[$0] } }
    /// The port as written after the host's `:`, if any.
    var port: Substring? { portRange.map { text[$0] } }
    /// The raw (still percent-encoded) path; empty when the URL has none.
    var path: Substring { text[pathRange] }
    /// The raw query without `?`; nil when the URL has no `?` (M3: absent counts as empty).
    var query: Substring? { queryRange.map { text[$0] } }
    /// The raw fragment without `#`; nil when the URL has no `#`.
    var fragment: Substring? { fragmentRange.map { text[$0] } }

    init(_ url: String) {
        text = url
        let utf8 = url.utf8
        var rest = utf8.startIndex..<utf8.endIndex
        if let hash = utf8[rest].firstIndex(of: UInt8(ascii: "#")) {
            fragmentRange = utf8.index(after: hash)..<rest.upperBound
            rest = rest.lowerBound..<hash
        }
        if let mark = utf8[rest].firstIndex(of: UInt8(ascii: "?")) {
            queryRange = utf8.index(after: mark)..<rest.upperBound
            rest = rest.lowerBound..<mark
        }
        guard let authorityStart = Self.authorityStart(url[rest]) else {
            pathRange = rest
            return
        }
        schemeRange = rest.lowerBound..<utf8.index(authorityStart, offsetBy: -3)
        let afterScheme = authorityStart..<rest.upperBound
        let authorityEnd = utf8[afterScheme].firstIndex(of: UInt8(ascii: "/")) ?? afterScheme.upperBound
        var authority = authorityStart..<authorityEnd
        if let at = utf8[authority].lastIndex(of: UInt8(ascii: "@")) {
            userInfoRange = authority.lowerBound..<at
            authority = utf8.index(after: at)..<authority.upperBound
        }
        if utf8[authority].first == UInt8(ascii: "["), let close = utf8[authority].firstIndex(of: UInt8(ascii: "]")) {
            let afterClose = utf8.index(after: close)..<authority.upperBound
            if utf8[afterClose].first == UInt8(ascii: ":") {
                portRange = utf8.index(after: afterClose.lowerBound)..<afterClose.upperBound
            }
            authority = utf8.index(after: authority.lowerBound)..<close
        } else if let colon = utf8[authority].lastIndex(of: UInt8(ascii: ":")) {
            portRange = utf8.index(after: colon)..<authority.upperBound
            authority = authority.lowerBound..<colon
        }
        hostRange = authority
        pathRange = authorityEnd..<rest.upperBound
    }

    /// The index after `scheme://`, when the text starts with a scheme followed by `://`.
    private static func authorityStart(_ text: Substring) -> String.Index? {
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let schemeOK = utf8[..<colon].allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        guard schemeOK, colon != utf8.startIndex else { return nil }
        var cursor = utf8.index(after: colon)
        for _ in 0..<2 {
            guard cursor < utf8.endIndex, utf8[cursor] == UInt8(ascii: "/") else { return nil }
            cursor = utf8.index(after: cursor)
        }
        return cursor
    }

    /// Path, query and fragment as in the URL (`/buy/42?x=1#top`), `/` for an empty path, for messages.
    var resource: String {
        var text = path.isEmpty ? "/" : String(path)
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }
}
