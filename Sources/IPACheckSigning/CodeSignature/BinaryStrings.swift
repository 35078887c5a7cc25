import Foundation

/// The strings found in an executable by a streaming search (``StringSearch``): what the App Flip heuristics
/// ask about, without holding the executable.
package struct BinaryStrings: Hashable, Sendable {
    /// The needles that occur.
    package let found: Set<String>

    /// Creates the answer.
    package init(found: Set<String>) {
        self.found = found
    }

    /// Whether `needle` occurs (it must be one of the needles searched for).
    package func contains(_ needle: String) -> Bool { found.contains(needle) }
}

/// Searches a stream of chunks for a few byte strings at once, carrying the last bytes of each chunk over so that a
/// string split across two chunks is found too.
///
/// Swift stores string literals of up to 15 UTF-8 bytes inline in instructions, so only longer literals (and every
/// Objective-C literal) are found; callers use absence of a short string only where that errs on the quiet side.
package struct StringSearch {
    private let needles: [(text: String, bytes: [UInt8])]
    private var carry: [UInt8] = []
    private let overlap: Int
    package private(set) var found: Set<String> = []

    /// A search for these strings' UTF-8 bytes.
    package init(_ needles: [String]) {
        self.needles = needles.filter { !$0.isEmpty }.map { ($0, Array($0.utf8)) }
        overlap = max(0, (self.needles.map(\.bytes.count).max() ?? 1) - 1)
    }

    /// Feeds the next chunk.
    package mutating func consume(_ chunk: ArraySlice<UInt8>) {
        guard found.count < needles.count else { return }
        let window = carry + chunk.prefix(overlap)
        for needle in needles where !found.contains(needle.text) {
            if Self.contains(window, needle.bytes) || Self.contains(chunk, needle.bytes) { found.insert(needle.text) }
        }
        carry = Array((carry + chunk.suffix(overlap)).suffix(overlap))
    }

    /// Whether `needle` occurs contiguously in `haystack`.
    ///
    /// Candidates are found with libc's `memchr`, which scans many bytes an instruction: a byte-by-byte scan of a
    /// large executable cost more than hashing it.
    static func contains(_ haystack: some Collection<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        let found = haystack.withContiguousStorageIfAvailable { hay in
            var start = 0
            while hay.count - start >= needle.count {
                let rest = unsafe UnsafeBufferPointer(rebasing: hay[start...])
                // `memchr` reads only the `rest.count` bytes of the lent buffer; the offset it gives is checked.
                guard let base = rest.baseAddress, let hit = unsafe memchr(base, Int32(first), rest.count),
                    case let offset = unsafe UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit)),
                    offset >= 0, offset <= rest.count - needle.count
                else { return false }
                if unsafe rest[offset..<(offset + needle.count)].elementsEqual(needle) { return true }
                start += offset + 1
            }
            return false
        }
        return found ?? contains(Array(haystack), needle)
    }
}
