import Foundation
import IPACheckReport

/// The strings found in an executable by a streaming search (``StringSearch``): what the App Flip heuristics
/// ask about, without holding the executable.
public struct BinaryStrings: Hashable, Sendable {
    /// The needles that occur.
    public let found: Set<String>

    /// Creates the answer.
    public init(found: Set<String>) {
        self.found = found
    }

    /// Whether `needle` occurs (it must be one of the needles searched for).
    public func contains(_ needle: String) -> Bool { found.contains(needle) }
}

/// Searches a stream of chunks for a few byte strings at once, carrying the last bytes of each chunk over so that a
/// string split across two chunks is found too.
///
/// Swift stores string literals of up to 15 UTF-8 bytes inline in instructions, so only longer literals (and every
/// Objective-C literal) are found; callers use absence of a short string only where that errs on the quiet side.
struct StringSearch {
    private let needles: [(text: String, bytes: [UInt8])]
    private var carry: [UInt8] = []
    private let overlap: Int
    private(set) var found: Set<String> = []

    /// A search for these strings' UTF-8 bytes.
    init(_ needles: [String]) {
        self.needles = needles.filter { !$0.isEmpty }.map { ($0, Array($0.utf8)) }
        overlap = max(0, (self.needles.map(\.bytes.count).max() ?? 1) - 1)
    }

    /// Feeds the next chunk.
    mutating func consume(_ chunk: ArraySlice<UInt8>) {
        guard found.count < needles.count else { return }
        let window = carry + chunk.prefix(overlap)
        for needle in needles where !found.contains(needle.text) {
            if Self.contains(window, needle.bytes) || Self.contains(chunk, needle.bytes) { found.insert(needle.text) }
        }
        carry = Array((carry + chunk.suffix(overlap)).suffix(overlap))
    }

    /// Whether `needle` occurs contiguously in `haystack`.
    static func contains(_ haystack: some Collection<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        let bytes = Array(haystack)
        guard bytes.count >= needle.count else { return false }
        let lastStart = bytes.count - needle.count
        var index = 0
        while index <= lastStart {
            guard let found = bytes[index...lastStart].firstIndex(of: first) else { return false }
            if bytes[found..<(found + needle.count)].elementsEqual(needle) { return true }
            index = found + 1
        }
        return false
    }
}

/// Recognises hosts that cannot be anyone's real associated domain.
enum PlaceholderHost {
    /// Words sample projects put where the real domain belongs.
    static let placeholderWords = ["your-domain", "yourdomain", "your_domain", "domain-here", "your-site", "yoursite"]

    /// Why `host` is a placeholder, reserved or not fully qualified (a phrase after "… is"); `nil` if it may be real.
    ///
    /// `localhost` and `.local` names under `?mode=developer` are left alone: they are development entries. So
    /// are hosts under the reserved test TLDs (`.example`, `.test`, `.invalid`): only fixtures and samples use
    /// them, and a shipped app with one fails the AASA checks anyway.
    static func reason(_ host: String, mode: AssociatedDomain.Mode?) -> String? {
        let reservedTLD = ["example", "test", "invalid"].contains { host.lowercased().hasSuffix("." + $0) }
        guard !reservedTLD else { return nil }
        return rawReason(host, mode: mode)
    }

    private static func rawReason(_ host: String, mode: AssociatedDomain.Mode?) -> String? {
        let host = host.lowercased()
        if let word = placeholderWords.first(where: { host.contains($0) }) {
            return "is a sample placeholder (\"\(word)\"), not a real domain"
        }
        let developer = mode?.requiresDevelopmentSigning == true
        if developer && (host == "localhost" || host.hasSuffix(".local")) { return nil }
        for reserved in ["example.com", "example.net", "example.org"]
        where host == reserved || host.hasSuffix("." + reserved) {
            return "is under \(reserved), a domain reserved for documentation (RFC 2606)"
        }
        for suffix in ["localhost"] where host == suffix || host.hasSuffix("." + suffix) {
            return "is a loopback name (RFC 6761), which never serves an AASA to other devices"
        }
        if !host.contains(".") {
            return "is not a fully qualified domain name"
        }
        return nil
    }
}
