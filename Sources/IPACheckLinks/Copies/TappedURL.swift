package import IPACheckAASA

/// A URL as a device receives it when someone taps it: the form a browser sends, which every command judges and
/// shows (docs/ios-model.md#url).
///
/// A browser parses what is written before it navigates (the WHATWG URL standard): the scheme and host are
/// lowercased, an internationalised host is written in its ASCII form (IDNA, `café.test` → `xn--caf-dma.test`),
/// characters a URL may not hold are percent-encoded as UTF-8 (`/café` → `/caf%C3%A9`), `.` and `..` path segments
/// are resolved (RFC 3986 §5.2.4), and the scheme's default port is dropped. http and https links are both
/// universal links; any other scheme never is.
package struct TappedURL: Hashable, Sendable {
    /// The text as given.
    package let original: String
    /// The URL as a device receives it: what the matcher judges.
    package let normalized: String
    /// `normalized`, split.
    package let link: LinkURL
    /// What normalising changed, in words (empty when the text was already in that form).
    package let changes: [String]

    /// The host in ASCII form, lowercased.
    package var host: String { link.host ?? "" }

    /// A port other than the scheme's default, which a claim cannot name (TN3155: an `applinks:` entry with a port
    /// never opens the app); what iOS does with a tapped URL that carries one is not documented.
    package var port: String? { link.port }

    /// Reads `text` as a tapped link.
    ///
    /// - Throws: ``LinkURL/NotAUniversalLink`` when it is not an http or https URL with a host, or when its host has
    ///   no ASCII form.
    package init(_ text: String) throws(LinkURL.NotAUniversalLink) {
        let raw = try LinkURL.universalLink(text)
        let scheme = raw.scheme ?? "https"
        var changes: [String] = []
        let rawHost = raw.host ?? ""
        guard let asciiHost = Punycode.toASCII(host: rawHost), !asciiHost.isEmpty else {
            throw LinkURL.NotAUniversalLink(text: text, reason: "its host \(rawHost) has no ASCII (IDNA) form")
        }
        var host = asciiHost
        while host.hasSuffix(".") { host.removeLast() }
        if host != rawHost {
            changes.append("host in its ASCII form, as browsers send it: \(host)")
        }
        var port = raw.port
        if let written = port,
            written.isEmpty || (scheme == "https" && written == "443") || (scheme == "http" && written == "80")
        {
            if !written.isEmpty { changes.append("default port \(written) dropped") }
            port = nil
        }
        let encodedPath = Self.percentEncoded(raw.path, keeping: Self.pathKeeps)
        if encodedPath != raw.path { changes.append("path percent-encoded as UTF-8") }
        let resolved = Self.removingDotSegments(encodedPath)
        if resolved != encodedPath { changes.append("dot segments resolved: \(resolved.isEmpty ? "/" : resolved)") }
        let query = raw.query.map { Self.percentEncoded($0, keeping: Self.queryKeeps) }
        if query != raw.query { changes.append("query percent-encoded as UTF-8") }
        let fragment = raw.fragment.map { Self.percentEncoded($0, keeping: Self.fragmentKeeps) }
        if fragment != raw.fragment { changes.append("fragment percent-encoded as UTF-8") }

        var url = scheme + "://"
        if let userInfo = raw.userInfo { url += userInfo + "@" }
        url += host.contains(":") ? "[\(host)]" : host
        if let port { url += ":" + port }
        url += resolved.isEmpty ? "/" : resolved
        if let query { url += "?" + query }
        if let fragment { url += "#" + fragment }
        original = text
        normalized = url
        link = LinkURL(url)
        self.changes = changes
    }

    /// ASCII bytes a browser leaves as they are in each part (everything else, and every byte above 0x7F, is
    /// percent-encoded): the WHATWG path, query and fragment percent-encode sets, inverted.
    private static let pathKeeps = asciiKeeping(except: " \"#<>?`{}")
    private static let queryKeeps = asciiKeeping(except: " \"#<>'")
    private static let fragmentKeeps = asciiKeeping(except: " \"<>`")

    private static func asciiKeeping(except excluded: String) -> Set<UInt8> {
        let excluded = Set(excluded.utf8)
        return Set((0x21...0x7E).map { UInt8($0) }).subtracting(excluded)
    }

    private static func percentEncoded(_ text: String, keeping: Set<UInt8>) -> String {
        guard !text.utf8.allSatisfy({ keeping.contains($0) }) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if keeping.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3986 §5.2.4 on a path, with `%2e` read as `.` as browsers read it.
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") || path.lowercased().contains("%2e") else { return path }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var output: [Substring] = []
        var endsInFolder = false
        for segment in segments {
            switch segment.lowercased() {
            case ".", "%2e":
                endsInFolder = true
            case "..", ".%2e", "%2e.", "%2e%2e":
                if !output.isEmpty { output.removeLast() }
                endsInFolder = true
            default:
                output.append(segment)
                endsInFolder = false
            }
        }
        return "/" + output.joined(separator: "/") + (endsInFolder && !output.isEmpty ? "/" : "")
    }
}

extension TappedURL {
    /// `text` as a device receives it: `text` itself when it is plainly in that form already (printable ASCII, no
    /// dot segment), which a million-line URL list needs to stay fast, else ``normalized``.
    ///
    /// - Throws: ``LinkURL/NotAUniversalLink`` when `text` is not an http or https URL with a host.
    package static func deviceForm(_ text: String) throws(LinkURL.NotAUniversalLink) -> String {
        if isPlainlyNormal(text) {
            try LinkURL.requireUniversalLink(text)
            return text
        }
        return try TappedURL(text).normalized
    }

    /// ``deviceForm(_:)`` of a URL given as its UTF-8 bytes (a line of a `--urls` list): a plain URL is checked on
    /// the bytes, with no parse, and only then made a string.
    ///
    /// - Throws: ``LinkURL/NotAUniversalLink`` when iOS never treats the text as a universal link.
    package static func deviceForm(utf8 bytes: ArraySlice<UInt8>) throws(LinkURL.NotAUniversalLink) -> String {
        if isPlainlyNormal(bytes) {
            try LinkURL.requireUniversalLink(utf8: bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        return try TappedURL(String(decoding: bytes, as: UTF8.self)).normalized
    }

    /// Whether every byte is printable ASCII and no path segment could be `.` or `..`.
    static func isPlainlyNormal(_ text: String) -> Bool {
        // The string's own UTF-8 when it is contiguous (every URL read from a list is): one tight pass.
        let contiguous = unsafe text.utf8.withContiguousStorageIfAvailable { utf8 in unsafe isPlainlyNormal(utf8) }
        return contiguous ?? isPlainlyNormal(Array(text.utf8))
    }

    /// ``isPlainlyNormal(_:)-(String)`` over the URL's UTF-8 bytes.
    static func isPlainlyNormal<Bytes: Collection<UInt8>>(_ utf8: Bytes) -> Bool {
        var previous: UInt8 = 0
        for byte in utf8 {
            guard byte > 0x20, byte < 0x7F else { return false }
            // `/.` may start a dot segment, `%2e` may spell one.
            if previous == UInt8(ascii: "/") && byte == UInt8(ascii: ".") { return false }
            if previous == UInt8(ascii: "%") && byte == UInt8(ascii: "2") { return false }
            previous = byte
        }
        return true
    }
}
