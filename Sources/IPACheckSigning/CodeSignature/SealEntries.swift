/// A seal's entries, each path with what the seal says about it, in tables sorted by path.
///
/// A large app's seal lists every file: as a dictionary of entries holding digest arrays it cost about 230 bytes a
/// file (the path, a 32-byte array for SHA-256 and the dictionary's slot); here about 75 (the path's bytes packed,
/// a byte for the kind and the SHA-256 inline). Entries of other shapes (SHA-1 only, nested code, links) are kept as they are,
/// beside the tables. Paths compare as Swift strings, as a dictionary's keys do: two spellings of one path
/// (Unicode normalisation) are one entry, the later in the seal kept.
package struct SealEntries: Sendable, Equatable, Sequence {
    /// The paths, ascending, each once.
    private var paths = PackedPaths()
    /// For each path: an inline file entry (``inlineFile`` or ``inlineOptionalFile``), or ``other``.
    private var kinds: [UInt8] = []
    /// For each inline file entry, its SHA-256, 32 bytes a path (zeros for the others).
    private var sha256: [UInt8] = []
    /// The entries of other shapes, by position.
    private var others: [Int: ResourceSeal.Entry] = [:]

    private static let inlineFile: UInt8 = 1
    private static let inlineOptionalFile: UInt8 = 2
    private static let other: UInt8 = 3
    private static let digestSize = 32

    /// No entries.
    package init() {}

    /// The entries of `dictionary`.
    package init(_ dictionary: [String: ResourceSeal.Entry]) {
        var builder = Builder()
        for (path, entry) in dictionary { builder.add(path, entry) }
        self = builder.finish()
    }

    /// The number of paths.
    package var count: Int { paths.count }

    /// What the seal says about `path`, if it lists it.
    package subscript(path: String) -> ResourceSeal.Entry? {
        let query = PackedPaths.Query(path)
        var low = 0
        var high = paths.count
        while low < high {
            let middle = low + (high - low) / 2
            if paths.compare(middle, query) < 0 { low = middle + 1 } else { high = middle }
        }
        guard low < paths.count, paths.compare(low, query) == 0 else { return nil }
        return entry(at: low)
    }

    /// The entry at `position`.
    private func entry(at position: Int) -> ResourceSeal.Entry? {
        switch kinds[position] {
        case Self.inlineFile, Self.inlineOptionalFile:
            let start = position * Self.digestSize
            guard start + Self.digestSize <= sha256.count else { return nil }
            return .file(
                sha1: nil,
                sha256: Array(sha256[start..<(start + Self.digestSize)]),
                optional: kinds[position] == Self.inlineOptionalFile
            )
        default:
            return others[position]
        }
    }

    /// The entries, ascending by path.
    package struct Iterator: IteratorProtocol {
        fileprivate let entries: SealEntries
        fileprivate var position = 0

        /// The next path and its entry.
        package mutating func next() -> (path: String, entry: ResourceSeal.Entry)? {
            while position < entries.paths.count {
                defer { position += 1 }
                if let entry = entries.entry(at: position) { return (entries.paths[position], entry) }
            }
            return nil
        }
    }

    /// The entries, ascending by path.
    package func makeIterator() -> Iterator { Iterator(entries: self) }

    /// Entries in the order a seal lists them, sorted once at the end.
    package struct Builder {
        private var paths = PackedPaths()
        private var digests: [UInt8] = []
        private var optional: [Bool] = []
        /// The entries not kept inline, by the order they were added in.
        private var others: [Int: ResourceSeal.Entry] = [:]

        /// An empty list.
        package init() {}

        /// The number of entries added (a path listed twice counts twice).
        package var count: Int { paths.count }

        /// Adds `entry` for `path`; a path added again keeps the later entry.
        package mutating func add(_ path: String, _ entry: ResourceSeal.Entry) {
            if case .file(nil, let sha256?, let isOptional) = entry, sha256.count == SealEntries.digestSize {
                digests.append(contentsOf: sha256)
                optional.append(isOptional)
            } else {
                others[paths.count] = entry
                digests.append(contentsOf: repeatElement(0, count: SealEntries.digestSize))
                optional.append(false)
            }
            paths.append(path)
        }

        /// Copies the digest in slot `source` over slot `target`, byte by byte: a slice of the array passed to its
        /// own `replaceSubrange` would share its storage and could make the whole table be copied.
        private static func moveDigest(from source: Int, to target: Int, in digests: inout [UInt8]) {
            let size = SealEntries.digestSize
            for offset in 0..<size { digests[target * size + offset] = digests[source * size + offset] }
        }

        /// The entries, sorted by path.
        ///
        /// The digests are permuted in place along the sort's cycles and the runs of one path folded, so that a
        /// large seal's digests are not held twice while it is sorted.
        package consuming func finish() -> SealEntries {
            let size = SealEntries.digestSize
            let added = paths
            // Sorted by path, then by the order added: the last of a run of equal paths is the later entry, and the
            // run's first spelling is kept, as a dictionary keeps the key it was first given.
            var order = (0..<added.count).sorted { left, right in
                let comparison = added.compare(left, right)
                return comparison < 0 || (comparison == 0 && left < right)
            }
            var sorted = SealEntries()
            var endsRun = [Bool](repeating: true, count: order.count)
            for rank in order.indices {
                if rank > 0, added.compare(order[rank - 1], order[rank]) == 0 {
                    endsRun[rank - 1] = false
                } else {
                    sorted.paths.append(order[rank], of: added)
                }
            }
            paths = PackedPaths()
            // Position `target` takes what was at `order[target]`; each cycle is walked once, marked as it goes.
            var moved: [Int: ResourceSeal.Entry] = [:]
            for start in order.indices where order[start] >= 0 {
                let heldDigest = Array(digests[(start * size)..<((start + 1) * size)])
                let heldOptional = optional[start]
                var target = start
                while true {
                    let source = order[target]
                    order[target] = -1
                    if let entry = others[source] { moved[target] = entry }
                    if source == start {
                        digests.replaceSubrange((target * size)..<((target + 1) * size), with: heldDigest)
                        optional[target] = heldOptional
                        break
                    }
                    Self.moveDigest(from: source, to: target, in: &digests)
                    optional[target] = optional[source]
                    target = source
                }
            }
            order = []
            // Each run of one path keeps its last entry, moved to the run's place in the folded list.
            sorted.kinds.reserveCapacity(sorted.paths.count)
            var kept = 0
            for position in endsRun.indices where endsRun[position] {
                if kept != position {
                    Self.moveDigest(from: position, to: kept, in: &digests)
                }
                if let entry = moved[position] {
                    sorted.kinds.append(SealEntries.other)
                    sorted.others[kept] = entry
                } else {
                    sorted.kinds.append(optional[position] ? SealEntries.inlineOptionalFile : SealEntries.inlineFile)
                }
                kept += 1
            }
            digests.removeSubrange((kept * size)...)
            sorted.sha256 = digests
            return sorted
        }
    }
}
