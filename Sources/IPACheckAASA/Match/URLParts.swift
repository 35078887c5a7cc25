/// A URL split into its parts without Foundation's URL parser: the one URL parser of ipacheck (the matcher, `match`,
/// `explain`, the App Flip and Firebase checks all read URLs through it, directly or as ``LinkURL``).
///
/// It is fast and tolerant of the raw strings people paste: `scheme://[userinfo@]host[:port]/path?query#fragment`.
/// A string without `scheme://` is a path-only URL (no scheme, no host).
struct URLParts: Sendable {
    /// The scheme as written (`https`), when the text starts with `scheme://`.
    var scheme: Substring?
    /// The user information before `@`, if any.
    var userInfo: Substring?
    /// The host as written, without user info, port or IPv6 brackets.
    var host: Substring?
    /// The port as written after the host's `:`, if any.
    var port: Substring?
    /// The raw (still percent-encoded) path; empty when the URL has none.
    var path: Substring
    /// The raw query without `?`; nil when the URL has no `?` (M3: absent counts as empty).
    var query: Substring?
    /// The raw fragment without `#`; nil when the URL has no `#`.
    var fragment: Substring?

    init(_ url: String) {
        var rest = Substring(url)
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = rest[rest.utf8.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = rest[rest.utf8.index(after: mark)...]
            rest = rest[..<mark]
        }
        guard let authorityStart = Self.authorityStart(rest) else {
            path = rest
            return
        }
        scheme = rest[..<rest.utf8.index(authorityStart, offsetBy: -3)]
        let afterScheme = rest[authorityStart...]
        let authorityEnd = afterScheme.utf8.firstIndex(of: UInt8(ascii: "/")) ?? afterScheme.endIndex
        var authority = afterScheme[..<authorityEnd]
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            userInfo = authority[..<at]
            authority = authority[authority.utf8.index(after: at)...]
        }
        if authority.utf8.first == UInt8(ascii: "["), let close = authority.utf8.firstIndex(of: UInt8(ascii: "]")) {
            let afterClose = authority[authority.utf8.index(after: close)...]
            if afterClose.utf8.first == UInt8(ascii: ":") { port = afterClose.dropFirst() }
            authority = authority[authority.utf8.index(after: authority.startIndex)..<close]
        } else if let colon = authority.utf8.lastIndex(of: UInt8(ascii: ":")) {
            port = authority[authority.utf8.index(after: colon)...]
            authority = authority[..<colon]
        }
        host = authority
        path = afterScheme[authorityEnd...]
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
