/// A URL as ipacheck's checks read it: scheme, user info, host, port, path, query and fragment, split by the same
/// parser the matcher uses (``URLParts``), so a host or a path means the same thing to every check.
package struct LinkURL: Hashable, Sendable {
    /// The scheme, lowercased (`https`), when the text has one.
    package let scheme: String?
    /// The user information before `@`, if any.
    package let userInfo: String?
    /// The host, lowercased, without brackets or port; `nil` without `scheme://`.
    package let host: String?
    /// The port as written, if any.
    package let port: String?
    /// The raw (percent-encoded) path; empty when there is none.
    package let path: String
    /// The raw query without `?`, if there is one.
    package let query: String?
    /// The raw fragment without `#`, if there is one.
    package let fragment: String?

    /// Splits `text`; anything can be split (a text without `scheme://` is a bare path).
    package init(_ text: String) {
        let parts = URLParts(text)
        scheme = parts.scheme.map { $0.lowercased() }
        userInfo = parts.userInfo.map(String.init)
        host = parts.host.map { $0.lowercased() }
        port = parts.port.map(String.init)
        path = String(parts.path)
        query = parts.query.map(String.init)
        fragment = parts.fragment.map(String.init)
    }

    /// Why a text is not a URL iOS could ever open as a universal link.
    package struct NotAUniversalLink: Error, Hashable, Sendable, CustomStringConvertible {
        /// The text as given.
        package let text: String
        /// What is wrong with it.
        package let reason: String

        /// Says that `text` is not a universal link, and why.
        package init(text: String, reason: String) {
            self.text = text
            self.reason = reason
        }

        /// `example.com/x: not a universal link (no http or https scheme)`.
        package var description: String { "\(text): not a universal link (\(reason))" }
    }

    /// Reads `text` as a link iOS may treat as a universal link: an `http` or `https` URL with a host.
    ///
    /// - Throws: ``NotAUniversalLink`` naming what is missing (a scheme, the right scheme, a host).
    package static func universalLink(_ text: String) throws(NotAUniversalLink) -> LinkURL {
        _ = try universalLinkHost(text)
        return LinkURL(text)
    }

    /// The lowercased host of `text` if it is a link iOS may treat as a universal link, without splitting the rest
    /// into strings: what checking a million-line sitemap needs.
    ///
    /// - Throws: ``NotAUniversalLink`` naming what is missing (a scheme, the right scheme, a host).
    package static func universalLinkHost(_ text: String) throws(NotAUniversalLink) -> String {
        try universalLinkParts(text).host.map { $0.lowercased() } ?? ""
    }

    /// Checks that `text` is a link iOS may treat as a universal link, making no string at all.
    ///
    /// - Throws: ``NotAUniversalLink`` naming what is missing (a scheme, the right scheme, a host).
    package static func requireUniversalLink(_ text: String) throws(NotAUniversalLink) {
        _ = try universalLinkParts(text)
    }

    /// Checks that the UTF-8 `bytes` are a link iOS may treat as a universal link; makes a string only to say why
    /// they are not.
    ///
    /// - Throws: ``NotAUniversalLink`` naming what is missing (a scheme, the right scheme, a host).
    package static func requireUniversalLink(utf8 bytes: ArraySlice<UInt8>) throws(NotAUniversalLink) {
        if URLParts.isPlainlyHTTPWithHost(bytes) { return }
        try requireUniversalLink(String(decoding: bytes, as: UTF8.self))
    }

    private static func universalLinkParts(_ text: String) throws(NotAUniversalLink) -> URLParts {
        let parts = URLParts(text)
        guard let scheme = parts.scheme else {
            // `https:example.com/x` or `https:/example.com/x`: the scheme is there, its slashes are not.
            for written in ["https:", "http:"] where text.lowercased().hasPrefix(written) {
                let rest = text.dropFirst(written.count).drop { $0 == "/" }
                throw NotAUniversalLink(text: text, reason: "the scheme needs two slashes; write \(written)//\(rest)")
            }
            throw NotAUniversalLink(text: text, reason: "no http or https scheme; write https://\(text)")
        }
        guard
            scheme.utf8.elementsEqual("https".utf8) || scheme.utf8.elementsEqual("http".utf8)
                || ["https", "http"].contains(scheme.lowercased())
        else {
            throw NotAUniversalLink(
                text: text,
                reason: "\(scheme.lowercased()): links never open apps; only http and https do"
            )
        }
        guard let host = parts.host, !host.isEmpty else {
            throw NotAUniversalLink(text: text, reason: "no host")
        }
        return parts
    }

    /// The query items in order, names and values percent-decoded (`+` kept literally, as iOS does); an item
    /// without `=` has an empty value.
    package var queryItems: [(name: String, value: String)] {
        guard let query else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let pieces = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pieces[0])
            let value = pieces.count > 1 ? String(pieces[1]) : ""
            return (Self.percentDecoded(name), Self.percentDecoded(value))
        }
    }

    /// `text` with `%XX` escapes decoded (invalid escapes and invalid UTF-8 kept as written).
    package static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let high = hexValue(utf8[utf8.startIndex]),
                let low = hexValue(utf8[utf8.index(after: utf8.startIndex)])
            {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
