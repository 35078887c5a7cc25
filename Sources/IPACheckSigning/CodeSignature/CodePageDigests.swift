import Crypto
import Foundation
package import IPACheckBinary

/// The digests of one slice's code pages, taken as the executable streamed past: what a CodeDirectory's code
/// slots are compared with, without holding the executable in memory.
///
/// Pages are ``pageSize`` bytes from the slice's start, hashed with SHA-1 and SHA-256 (every hash type Apple's
/// tools write derives from these two). The last page ends where the slice's signature starts, which is the
/// CodeDirectory's `codeLimit` in every signature `codesign` writes.
package struct CodePageDigests: Hashable, Sendable {
    /// The page size the digests were taken with: 4096, what every iOS CodeDirectory in the corpus uses.
    package static let pageSize = 4096

    /// The slice's place in the file.
    package let slice: Range<Int>
    /// Where hashing stopped, relative to the slice's start: the signature's offset, or the slice's end.
    package let hashedLength: Int
    private let sha1Pages: [UInt8]
    private let sha256Pages: [UInt8]
    /// The digests of the last, short page `[lastPageStart, hashedLength)`, when the slice ends mid-page.
    private let tail: (sha1: [UInt8], sha256: [UInt8])?

    init(slice: Range<Int>, hashedLength: Int, sha1Pages: [UInt8], sha256Pages: [UInt8], tail: ([UInt8], [UInt8])?) {
        self.slice = slice
        self.hashedLength = hashedLength
        self.sha1Pages = sha1Pages
        self.sha256Pages = sha256Pages
        self.tail = tail
    }

    /// Digests of a whole slice held in memory (for bare Mach-O files and tests).
    package init(bytes: ArraySlice<UInt8>, slice: Range<Int>, codeLimit: Int) {
        var digester = CodePageDigester.Slice(range: slice)
        digester.cut = slice.lowerBound + min(max(codeLimit, 0), bytes.count)
        digester.consume(bytes, at: slice.lowerBound)
        self = digester.finish()
    }

    /// The number of complete pages hashed.
    package var fullPageCount: Int { sha256Pages.count / 32 }

    /// The digest of code page `page` of a CodeDirectory with hash type `type` and code limit `codeLimit`, or
    /// `nil` when the stream did not take it (another page size, a code limit other than where hashing stopped,
    /// SHA-384).
    ///
    /// A view of the digests held, not a copy: a CodeDirectory's every page is looked up twice, so the comparison
    /// allocates nothing per page.
    package func digest(_ type: CodeSignHashType, page: Int, codeLimit: Int) -> ArraySlice<UInt8>? {
        let size = Self.pageSize
        guard page >= 0, page <= Int.max / size else { return nil }
        let start = page * size
        guard start < codeLimit else { return nil }
        let whole = start + size <= codeLimit
        if whole {
            guard page < fullPageCount else { return nil }
        } else {
            guard codeLimit == hashedLength, page == fullPageCount, tail != nil else { return nil }
        }
        switch type {
        case .sha1: return whole ? sha1Pages[(page * 20)..<(page * 20 + 20)] : tail?.sha1[...]
        case .sha256: return whole ? sha256Pages[(page * 32)..<(page * 32 + 32)] : tail?.sha256[...]
        case .sha256Truncated:
            return (whole ? sha256Pages[(page * 32)..<(page * 32 + 32)] : tail?.sha256[...])?.prefix(20)
        case .sha384: return nil
        }
    }

    /// Equal when they hold the same digests.
    package static func == (lhs: CodePageDigests, rhs: CodePageDigests) -> Bool {
        lhs.slice == rhs.slice && lhs.hashedLength == rhs.hashedLength && lhs.sha1Pages == rhs.sha1Pages
            && lhs.sha256Pages == rhs.sha256Pages && lhs.tail?.sha1 == rhs.tail?.sha1
            && lhs.tail?.sha256 == rhs.tail?.sha256
    }

    /// Hashes what `==` compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(slice)
        hasher.combine(hashedLength)
        hasher.combine(sha256Pages)
    }
}

/// Hashes every slice's code pages of an executable as its bytes stream past, in order.
///
/// Feed the stream with ``consume(_:at:)``; tell it the slices and where their signatures start as soon as the
/// Mach-O scanner knows them (``update(_:)``), which is always before those bytes arrive in a real file: the fat
/// header and each slice's load commands come first.
package struct CodePageDigester {
    /// One slice's running state.
    struct Slice {
        let range: Range<Int>
        /// Where hashing stops (the signature's start), once known.
        var cut: Int?
        /// The next byte expected; bytes before it were hashed (or skipped, if they came before the slice was known).
        var position: Int
        var pageStart: Int
        var sha1 = Insecure.SHA1()
        var sha256 = SHA256()
        var sha1Pages: [UInt8] = []
        var sha256Pages: [UInt8] = []
        var tail: ([UInt8], [UInt8])?
        /// Whether every byte from the slice's start was seen.
        var isComplete = true

        init(range: Range<Int>) {
            self.range = range
            self.position = range.lowerBound
            self.pageStart = range.lowerBound
        }

        var end: Int { min(range.upperBound, cut ?? range.upperBound) }

        mutating func consume(_ bytes: ArraySlice<UInt8>, at offset: Int) {
            let stop = end
            var start = max(offset, position)
            if start > position {
                // A gap before the cut loses pages; bytes arriving after it (the signature) lose nothing.
                if position < stop { isComplete = false }
                position = min(start, max(stop, position))
            }
            let size = CodePageDigests.pageSize
            while start < min(offset + bytes.count, stop) {
                if SHA256Lanes.isAvailable, start == pageStart, min(offset + bytes.count, stop) - start >= 2 * size {
                    // Two whole pages at hand: their SHA-256 side by side (``SHA256Lanes``), their SHA-1 each.
                    let first = bytes.startIndex + (start - offset)
                    let pages = [bytes[first..<(first + size)], bytes[(first + size)..<(first + 2 * size)]]
                    var messages = [SHA256Lanes.Message(), SHA256Lanes.Message()]
                    _ = SHA256Lanes.update(&messages, with: pages)
                    for (page, message) in zip(pages, messages) {
                        sha1Pages.append(contentsOf: Insecure.SHA1.hash(data: page))
                        sha256Pages.append(contentsOf: message.finish())
                    }
                    start += 2 * size
                    position = start
                    pageStart = start
                    continue
                }
                let pageEnd = pageStart + size
                let take = min(offset + bytes.count, stop, pageEnd) - start
                let first = bytes.startIndex + (start - offset)
                let piece = bytes[first..<(first + take)]
                sha1.update(data: piece)
                sha256.update(data: piece)
                start += take
                position = start
                if position == pageEnd {
                    sha1Pages.append(contentsOf: sha1.finalize())
                    sha256Pages.append(contentsOf: sha256.finalize())
                    sha1 = Insecure.SHA1()
                    sha256 = SHA256()
                    pageStart = pageEnd
                }
            }
            if position == stop, position > pageStart, tail == nil {
                tail = (Array(sha1.finalize()), Array(sha256.finalize()))
            }
        }

        func finish() -> CodePageDigests {
            CodePageDigests(
                slice: range,
                hashedLength: (isComplete ? position : range.lowerBound) - range.lowerBound,
                sha1Pages: isComplete ? sha1Pages : [],
                sha256Pages: isComplete ? sha256Pages : [],
                tail: isComplete ? tail : nil
            )
        }
    }

    private var slices: [Slice] = []

    /// A digester that has seen no byte yet.
    package init() {}

    /// Records the slices and signature starts known so far; a slice learnt after its bytes passed is marked
    /// incomplete (its pages are then reported as not checked).
    package mutating func update(_ starts: [(slice: Range<Int>, start: MachOContainer.SignatureStart)]) {
        for (range, start) in starts {
            if !slices.contains(where: { $0.range == range }) {
                slices.append(Slice(range: range))
            }
            guard let index = slices.firstIndex(where: { $0.range == range }) else { continue }
            switch start {
            case .at(let offset) where slices[index].cut == nil:
                slices[index].cut = offset
                if slices[index].position > offset { slices[index].isComplete = false }
            case .unsigned where slices[index].cut == nil:
                slices[index].cut = range.lowerBound
            default:
                break
            }
        }
    }

    /// Feeds the bytes at `offset` of the file (each call continues where the previous one ended).
    package mutating func consume(_ bytes: ArraySlice<UInt8>, at offset: Int) {
        for index in slices.indices where slices[index].range.overlaps(offset..<(offset + bytes.count)) {
            slices[index].consume(bytes, at: offset)
        }
    }

    /// The digests of every slice known, in file order.
    package func finish() -> [CodePageDigests] {
        slices.sorted { $0.range.lowerBound < $1.range.lowerBound }.map { $0.finish() }
    }
}
