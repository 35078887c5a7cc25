import Foundation

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
    /// One per variant, held inline: a URL view costs no allocation of its own.
    private var prepared: (Prepared, Prepared, Prepared, Prepared) = (Prepared(), Prepared(), Prepared(), Prepared())

    /// `body` with the slot's preparations, in place (a copy would retain every array in it).
    private mutating func withSlot<Result>(_ slot: Int, _ body: (inout Prepared) -> Result) -> Result {
        switch slot {
        case 0: body(&prepared.0)
        case 1: body(&prepared.1)
        case 2: body(&prepared.2)
        default: body(&prepared.3)
        }
    }

    init(parts: URLParts) {
        self.parts = parts
    }

    /// The path without leading and trailing slashes (M5, M6), decoded and folded as the variant says.
    mutating func path(_ variant: Variant) -> [UInt32] {
        let slot = variant.slot
        if let done = withSlot(slot, { $0.path }) { return done }
        var path = Self.trimSlashes(parts.path)
        if !variant.percentEncoded, path.utf8.contains(UInt8(ascii: "%")), let decoded = path.removingPercentEncoding {
            path = Self.trimSlashes(Substring(decoded))
        }
        let done = Self.scalars(path, caseSensitive: variant.caseSensitive)
        withSlot(slot) { $0.path = done }
        return done
    }

    mutating func query(_ variant: Variant) -> [UInt32] {
        let slot = variant.slot
        if let done = withSlot(slot, { $0.query }) { return done }
        let done = Self.prepare(parts.query ?? "", variant)
        withSlot(slot) { $0.query = done }
        return done
    }

    mutating func fragment(_ variant: Variant) -> [UInt32] {
        let slot = variant.slot
        if let done = withSlot(slot, { $0.fragment }) { return done }
        let done = Self.prepare(parts.fragment ?? "", variant)
        withSlot(slot) { $0.fragment = done }
        return done
    }

    mutating func queryItems(_ variant: Variant) -> [QueryItem] {
        let slot = variant.slot
        if let items = withSlot(slot, { $0.items }) { return items }
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
        withSlot(slot) { $0.items = items }
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
