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
        var contiguous = url
        contiguous.makeContiguousUTF8()
        text = contiguous
        // The string's own UTF-8 storage (contiguous, made so above), lent for the call and only read, through the
        // buffer's bounds-checked subscript; the offsets it yields are checked against `utf8` below.
        let offsets =
            unsafe contiguous.utf8.withContiguousStorageIfAvailable { unsafe Self.split($0) } ?? Offsets(path: 0..<0)
        let utf8 = contiguous.utf8
        func range(_ offsets: Range<Int>) -> Range<String.Index> {
            utf8.index(
                utf8.startIndex,
                offsetBy: offsets.lowerBound
            )..<utf8.index(
                utf8.startIndex,
                offsetBy: offsets.upperBound
            )
        }
        schemeRange = offsets.scheme.map(range)
        userInfoRange = offsets.userInfo.map(range)
        hostRange = offsets.host.map(range)
        portRange = offsets.port.map(range)
        pathRange = range(offsets.path)
        queryRange = offsets.query.map(range)
        fragmentRange = offsets.fragment.map(range)
    }

    /// Whether `bytes` start with `http://` or `https://` (in any case) and have a non-empty host: a quick yes that
    /// needs no string; false means "look closer", not "no".
    static func isPlainlyHTTPWithHost(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = split(bytes)
        guard let scheme = parts.scheme, let host = parts.host, !host.isEmpty else { return false }
        let lowered = scheme.map { bytes[$0] | 0x20 }
        return lowered.elementsEqual("http".utf8) || lowered.elementsEqual("https".utf8)
    }

    /// Where each part lies, as indices of the bytes split (UTF-8 offsets when they are indexed from 0).
    private struct Offsets {
        var scheme: Range<Int>?
        var userInfo: Range<Int>?
        var host: Range<Int>?
        var port: Range<Int>?
        var path: Range<Int>
        var query: Range<Int>?
        var fragment: Range<Int>?
    }

    /// Splits the bytes of a URL: `#` ends the rest, then `?`, then `scheme://authority` if the text starts so.
    private static func split<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Offsets
    where Bytes.Index == Int {
        func first(_ byte: UInt8, in range: Range<Int>) -> Int? { range.first { bytes[$0] == byte } }
        func last(_ byte: UInt8, in range: Range<Int>) -> Int? { range.last { bytes[$0] == byte } }
        var rest = bytes.startIndex..<bytes.endIndex
        var parts = Offsets(path: rest)
        if let hash = first(UInt8(ascii: "#"), in: rest) {
            parts.fragment = (hash + 1)..<rest.upperBound
            rest = rest.lowerBound..<hash
        }
        if let mark = first(UInt8(ascii: "?"), in: rest) {
            parts.query = (mark + 1)..<rest.upperBound
            rest = rest.lowerBound..<mark
        }
        parts.path = rest
        guard let authorityStart = authorityStart(bytes, in: rest) else { return parts }
        parts.scheme = rest.lowerBound..<(authorityStart - 3)
        let authorityEnd = first(UInt8(ascii: "/"), in: authorityStart..<rest.upperBound) ?? rest.upperBound
        var authority = authorityStart..<authorityEnd
        if let at = last(UInt8(ascii: "@"), in: authority) {
            parts.userInfo = authority.lowerBound..<at
            authority = (at + 1)..<authority.upperBound
        }
        if !authority.isEmpty, bytes[authority.lowerBound] == UInt8(ascii: "["),
            let close = first(UInt8(ascii: "]"), in: authority)
        {
            if close + 1 < authority.upperBound, bytes[close + 1] == UInt8(ascii: ":") {
                parts.port = (close + 2)..<authority.upperBound
            }
            authority = (authority.lowerBound + 1)..<close
        } else if let colon = last(UInt8(ascii: ":"), in: authority) {
            parts.port = (colon + 1)..<authority.upperBound
            authority = authority.lowerBound..<colon
        }
        parts.host = authority
        parts.path = authorityEnd..<rest.upperBound
        return parts
    }

    /// The offset after `scheme://`, when the text starts with a scheme followed by `://`.
    private static func authorityStart<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes,
        in range: Range<Int>
    ) -> Int? where Bytes.Index == Int {
        guard let colon = range.first(where: { bytes[$0] == UInt8(ascii: ":") }), colon > range.lowerBound else {
            return nil
        }
        let schemeOK = (range.lowerBound..<colon).allSatisfy { index in
            let byte = bytes[index]
            return (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        guard schemeOK, colon + 2 < range.upperBound, bytes[colon + 1] == UInt8(ascii: "/"),
            bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        return colon + 3
    }

    /// Path, query and fragment as in the URL (`/buy/42?x=1#top`), `/` for an empty path, for messages.
    var resource: String {
        var text = ""
        appendResource(to: &text)
        return text
    }

    /// Appends ``resource`` to `text`.
    func appendResource(to text: inout String) {
        if pathRange.isEmpty { text += "/" } else { text += path }
        if let queryRange {
            text += "?"
            text += self.text[queryRange]
        }
        if let fragmentRange {
            text += "#"
            text += self.text[fragmentRange]
        }
    }
}
