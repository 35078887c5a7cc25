import Foundation

/// A URL split the way the matcher needs it, without Foundation's URL parser.
///
/// It is fast and tolerant of the raw strings people paste: `scheme://[userinfo@]host[:port]/path?query#fragment`.
/// A string without `://` is a path-only URL (no host check).
struct URLParts: Sendable {
    /// The host as written, without user info, port or IPv6 brackets.
    var host: Substring?
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
            host = nil
            path = rest
            return
        }
        let afterScheme = rest[authorityStart...]
        let authorityEnd = afterScheme.utf8.firstIndex(of: UInt8(ascii: "/")) ?? afterScheme.endIndex
        var authority = afterScheme[..<authorityEnd]
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            authority = authority[authority.utf8.index(after: at)...]
        }
        if authority.utf8.first == UInt8(ascii: "["), let close = authority.utf8.firstIndex(of: UInt8(ascii: "]")) {
            authority = authority[authority.utf8.index(after: authority.startIndex)..<close]
        } else if let colon = authority.utf8.lastIndex(of: UInt8(ascii: ":")) {
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

/// The URL's components prepared for comparison under each (caseSensitive, percentEncoded) combination; each part
/// is computed at most once per URL, and only when a rule looks at it.
struct URLView {
    /// A combination of the two settings that change how the URL is compared.
    struct Variant: Hashable, Sendable {
        var caseSensitive: Bool
        var percentEncoded: Bool

        fileprivate var slot: Int { (caseSensitive ? 0 : 1) + (percentEncoded ? 0 : 2) }
    }

    /// A query item prepared for comparison.
    struct QueryItem {
        var name: [UInt32]
        var value: [UInt32]
    }

    private struct Prepared {
        var path: [UInt32]?
        var query: [UInt32]?
        var fragment: [UInt32]?
        var items: [QueryItem]?
    }

    let parts: URLParts
    private var prepared = [Prepared](repeating: Prepared(), count: 4)

    init(parts: URLParts) {
        self.parts = parts
    }

    /// The path without leading and trailing slashes (M5, M6), decoded and folded as the variant says.
    mutating func path(_ variant: Variant) -> [UInt32] {
        let slot = variant.slot
        if let done = prepared[slot].path { return done }
        var path = Self.trimSlashes(parts.path)
        if !variant.percentEncoded, path.utf8.contains(UInt8(ascii: "%")), let decoded = path.removingPercentEncoding {
            path = Self.trimSlashes(Substring(decoded))
        }
        let done = Self.scalars(path, caseSensitive: variant.caseSensitive)
        prepared[slot].path = done
        return done
    }

    mutating func query(_ variant: Variant) -> [UInt32] {
        let slot = variant.slot
        if let done = prepared[slot].query { return done }
        let done = Self.prepare(parts.query ?? "", variant)
        prepared[slot].query = done
        return done
    }

    mutating func fragment(_ variant: Variant) -> [UInt32] {
        let slot = variant.slot
        if let done = prepared[slot].fragment { return done }
        let done = Self.prepare(parts.fragment ?? "", variant)
        prepared[slot].fragment = done
        return done
    }

    mutating func queryItems(_ variant: Variant) -> [QueryItem] {
        let slot = variant.slot
        if let items = prepared[slot].items { return items }
        var items: [QueryItem] = []
        if let query = parts.query {
            for pair in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
                let text = Substring(pair)
                let name: Substring
                let value: Substring
                if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                    name = text[..<equals]
                    value = text[text.utf8.index(after: equals)...]
                } else {
                    name = text
                    value = ""
                }
                items.append(QueryItem(name: Self.prepare(name, variant), value: Self.prepare(value, variant)))
            }
        }
        prepared[slot].items = items
        return items
    }

    private static func trimSlashes(_ text: Substring) -> Substring {
        var text = text
        while text.utf8.first == UInt8(ascii: "/") { text = text.dropFirst() }
        while text.utf8.last == UInt8(ascii: "/") { text = text.dropLast() }
        return text
    }

    private static func prepare(_ text: Substring, _ variant: Variant) -> [UInt32] {
        if !variant.percentEncoded, text.utf8.contains(UInt8(ascii: "%")), let decoded = text.removingPercentEncoding {
            return scalars(Substring(decoded), caseSensitive: variant.caseSensitive)
        }
        return scalars(text, caseSensitive: variant.caseSensitive)
    }

    /// The text's scalars; ASCII (the usual, percent-encoded case) is read byte by byte.
    private static func scalars(_ text: Substring, caseSensitive: Bool) -> [UInt32] {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            return PatternCompiler.scalars(of: text, caseSensitive: caseSensitive)
        }
        var result: [UInt32] = []
        result.reserveCapacity(utf8.count)
        if caseSensitive {
            for byte in utf8 { result.append(UInt32(byte)) }
        } else {
            for byte in utf8 { result.append(UInt32(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)) }
        }
        return result
    }
}
