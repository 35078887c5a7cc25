/// Some byte ranges of a file whose total size is known: what a caller streaming a zip entry has kept so far.
///
/// ``MachOContainer/scan(_:)`` reads only from the ranges present and names the ones it still needs, so an
/// executable can be inspected without holding all of it in memory. A whole file is one range.
package struct PartialFile: Sendable {
    /// A run of known bytes.
    struct Chunk: Sendable {
        var start: Int
        var bytes: [UInt8]
        var end: Int { start + bytes.count }
    }

    /// The file's size in bytes.
    package let size: Int
    private(set) var chunks: [Chunk] = []

    /// An empty view of a file of `size` bytes (no bytes known yet).
    package init(size: Int) {
        self.size = max(0, size)
    }

    /// A whole file.
    package init(bytes: [UInt8]) {
        self.size = bytes.count
        self.chunks = [Chunk(start: 0, bytes: bytes)]
    }

    /// Records `bytes` found at `start`; parts outside the file or already known are ignored.
    package mutating func add(_ bytes: ArraySlice<UInt8>, at start: Int) {
        guard start >= 0, start < size, !bytes.isEmpty else { return }
        let usable = bytes.prefix(size - start)
        var cursor = start
        var rest = usable[...]
        // Drop whatever is already known, piece by piece, then insert the gaps.
        while !rest.isEmpty {
            if let known = chunks.first(where: { $0.start <= cursor && cursor < $0.end }) {
                let skip = min(rest.count, known.end - cursor)
                rest = rest.dropFirst(skip)
                cursor += skip
                continue
            }
            let nextStart = chunks.filter { $0.start > cursor }.map(\.start).min() ?? size
            let take = min(rest.count, nextStart - cursor)
            insert(Chunk(start: cursor, bytes: Array(rest.prefix(take))))
            rest = rest.dropFirst(take)
            cursor += take
        }
    }

    /// The bytes of `range`, if all of them are known and contiguous in one chunk.
    package func bytes(in range: Range<Int>) -> ArraySlice<UInt8>? {
        guard range.lowerBound >= 0, range.upperBound <= size else { return nil }
        if range.isEmpty { return [] }
        guard let chunk = chunks.first(where: { $0.start <= range.lowerBound && range.upperBound <= $0.end }) else {
            return nil
        }
        return chunk.bytes[(range.lowerBound - chunk.start)..<(range.upperBound - chunk.start)]
    }

    /// How many bytes are held: what streaming costs in memory.
    package var knownByteCount: Int { chunks.reduce(0) { $0 + $1.bytes.count } }

    /// Whether every byte of `range` is known.
    package func contains(_ range: Range<Int>) -> Bool { bytes(in: range) != nil }

    private mutating func insert(_ chunk: Chunk) {
        guard !chunk.bytes.isEmpty else { return }
        // The streaming case: the new bytes continue the last chunk; grow it in place.
        if let last = chunks.indices.last, chunks[last].end == chunk.start {
            chunks[last].bytes.append(contentsOf: chunk.bytes)
            return
        }
        let position = chunks.firstIndex { $0.start > chunk.start } ?? chunks.count
        chunks.insert(chunk, at: position)
        // Merge neighbours that touch, so ranges spanning two reads can be served in one piece.
        var index = chunks.index(before: max(position, 1))
        while index + 1 < chunks.count {
            if chunks[index].end == chunks[index + 1].start {
                let next = chunks.remove(at: index + 1)
                chunks[index].bytes.append(contentsOf: next.bytes)
            } else {
                index += 1
            }
        }
    }
}
