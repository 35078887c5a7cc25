/// The bytes an ``XMLPlistReader`` reads: a whole array, or a stream pulled a chunk at a time and dropped once the
/// reader is past it, so that a 60 MB `CodeResources` is walked in a window of a few hundred kilobytes.
///
/// Offsets are absolute (from the document's first byte) either way, so errors name the same byte. A chunk that
/// holds a NUL ends the input there and is remembered as the failure (XML allows no NUL, and libplist would stop
/// reading at one), as is a stream that fails or passes its size limit; ``failure`` says which, for
/// the caller to report instead of the "document ends" the reader then meets.
package final class XMLPlistInput {
    private var buffer: [UInt8]
    /// The absolute offset of `buffer[0]`.
    private var base = 0
    private let pull: (() -> PullResult)?
    /// The most bytes a stream may give.
    private let maximumSize: Int
    private var ended: Bool
    /// Why the input ended early, in words; nil while it reads to its end.
    private(set) var failure: PlistError?

    /// What one pull from a stream gives.
    package enum PullResult {
        /// The next bytes (empty at the end of the stream).
        case bytes([UInt8])
        /// Why the stream could not be read, in words.
        case failed(String)
    }

    /// A whole document.
    init(_ bytes: [UInt8]) {
        buffer = bytes
        pull = nil
        maximumSize = bytes.count
        ended = true
    }

    /// A document pulled from a stream, of at most `maximumSize` bytes.
    init(pulling pull: @escaping () -> PullResult, maximumSize: Int) {
        buffer = []
        self.pull = pull
        self.maximumSize = maximumSize
        ended = false
    }

    /// The byte at `index`, or nil past the end.
    func byte(at index: Int) -> UInt8? {
        guard index >= base, load(through: index) else { return nil }
        return buffer[index - base]
    }

    /// The bytes in `range`, which the reader has already read through (so they are loaded).
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8> {
        guard range.lowerBound >= base, load(through: range.upperBound - 1) else { return [] }
        return buffer[(range.lowerBound - base)..<(range.upperBound - base)]
    }

    /// Whether the bytes at `index` start with `needle`.
    func starts(with needle: some Collection<UInt8>, at index: Int) -> Bool {
        guard index >= base, load(through: index + needle.count - 1) else { return false }
        return buffer[(index - base)...].starts(with: needle)
    }

    /// The bytes loaded from `index` on, up to the first of `stops` or the end of what is loaded (at least the
    /// byte at `index` is loaded first): plain text taken a run at a time instead of a byte at a time.
    func loadedRun(from index: Int, endingBefore stops: (UInt8, UInt8)) -> ArraySlice<UInt8> {
        guard index >= base, load(through: index) else { return [] }
        let rest = buffer[(index - base)...]
        return rest[..<(rest.firstIndex { $0 == stops.0 || $0 == stops.1 } ?? rest.endIndex)]
    }

    /// The first occurrence of `needle` at or after `start`, loading as far as it takes.
    func firstRange(of needle: [UInt8], from start: Int) -> Range<Int>? {
        guard let first = needle.first, start >= base else { return nil }
        var index = start
        while load(through: index + needle.count - 1) {
            guard let candidate = buffer[(index - base)...].firstIndex(of: first) else {
                index = base + buffer.count
                continue
            }
            let found = candidate + base
            guard load(through: found + needle.count - 1) else { return nil }
            if buffer[candidate..<(candidate + needle.count)].elementsEqual(needle) {
                return found..<(found + needle.count)
            }
            index = found + 1
        }
        return nil
    }

    /// Lets go of the bytes before `index` (the reader will not go back there): kept until a few hundred
    /// kilobytes have been read past, so that dropping them costs little.
    func discard(before index: Int) {
        let count = index - base
        guard pull != nil, count >= 256 * 1024, count <= buffer.count else { return }
        buffer.removeSubrange(0..<count)
        base = index
    }

    /// Pulls until `index` is loaded; false when the input ends first.
    private func load(through index: Int) -> Bool {
        while index >= base + buffer.count {
            guard !ended, let pull else { return false }
            switch pull() {
            case .failed(let reason):
                failure = PlistError(reason)
                ended = true
            case .bytes(let chunk) where chunk.isEmpty:
                ended = true
            case .bytes(let chunk):
                let start = base + buffer.count
                guard start + chunk.count <= maximumSize else {
                    failure = PlistError("more than \(maximumSize) bytes, the limit for a property list")
                    ended = true
                    continue
                }
                if let nul = chunk.firstIndex(of: 0) {
                    buffer.append(contentsOf: chunk[..<nul])
                    failure = PlistError(
                        "malformed XML property list at byte \(start + nul): a NUL byte, which XML does not allow"
                    )
                    ended = true
                    continue
                }
                buffer.append(contentsOf: chunk)
            }
        }
        return true
    }
}
