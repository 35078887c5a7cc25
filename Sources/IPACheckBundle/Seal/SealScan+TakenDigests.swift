import IPACheckSigning

extension SealScan {
    /// What a seal pass took from the members it streamed: each one's digests in flat tables aligned with the
    /// members, and the few results with more than digests beside them.
    ///
    /// A dictionary of results holding digest arrays cost about 150 bytes a member; these tables about 50 (the index,
    /// the size, a byte of flags and the 32 bytes of SHA-256 inline; SHA-1's table stays empty unless a seal asks
    /// for it). Each thread's tables are kept as they are, not merged into one (which held every digest twice at its
    /// peak): a lookup asks each in turn, and there are at most a few.
    struct TakenDigests: Sendable {
        /// The tables, earlier ones first: a member in several keeps the earliest table's result.
        private var tables: [Table] = []

        /// No member yet.
        init() {}

        /// Records what streaming `member` gave.
        ///
        /// Members come in ascending order (a share streams in archive order); one that does not starts another
        /// table, after the others.
        mutating func append(_ member: Int, _ result: StreamResult) {
            if tables.isEmpty || !(tables[tables.count - 1].append(member, result)) {
                var table = Table()
                _ = table.append(member, result)
                tables.append(table)
            }
        }

        /// Whether `member` was streamed.
        func contains(_ member: Int) -> Bool { tables.contains { $0.slot(of: member) != nil } }

        /// The digests taken from `member`, if any were.
        func digests(of member: Int) -> FileDigests? {
            for table in tables {
                if let slot = table.slot(of: member) { return table.digests(at: slot) }
            }
            return nil
        }

        /// This record and `other` as one; for a member both streamed, this record's result is kept.
        func merged(with other: TakenDigests) -> TakenDigests {
            var merged = self
            merged.tables += other.tables
            return merged
        }

        /// The results with more than digests, ascending by member (the earliest table's for a member in several),
        /// leaving only digests in the tables.
        mutating func takeMore() -> [(member: Int, more: StreamResult.More)] {
            var more: [Int: StreamResult.More] = [:]
            for index in tables.indices {
                more.merge(tables[index].more) { earlier, _ in earlier }
                tables[index].more = [:]
            }
            return more.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// One thread's digests, its members ascending.
    private struct Table: Sendable {
        private var members: [Int] = []
        private var sizes: [Int] = []
        /// For each member, which of ``hasDigests``, ``hasSHA1`` and ``hasSHA256`` it has.
        private var flags: [UInt8] = []
        /// SHA-1 digests, 20 bytes for each member up to the last that has one.
        private var sha1: [UInt8] = []
        /// SHA-256 digests, 32 bytes for each member up to the last that has one.
        private var sha256: [UInt8] = []
        /// The results with more than digests (executables, kept bytes, strings found, problems), by member index.
        var more: [Int: StreamResult.More] = [:]

        private static let hasDigests: UInt8 = 1
        private static let hasSHA1: UInt8 = 2
        private static let hasSHA256: UInt8 = 4
        private static let sha1Size = 20
        private static let sha256Size = 32

        /// Records `member`'s result, or says it cannot: members are recorded ascending.
        mutating func append(_ member: Int, _ result: StreamResult) -> Bool {
            if let last = members.last, member <= last { return false }
            let slot = members.count
            members.append(member)
            var flag: UInt8 = 0
            if let digests = result.digests {
                flag |= Self.hasDigests
                sizes.append(digests.size)
                if let digest = digests.sha1, digest.count == Self.sha1Size {
                    Self.store(digest, at: slot, size: Self.sha1Size, in: &sha1)
                    flag |= Self.hasSHA1
                }
                if let digest = digests.sha256, digest.count == Self.sha256Size {
                    Self.store(digest, at: slot, size: Self.sha256Size, in: &sha256)
                    flag |= Self.hasSHA256
                }
            } else {
                sizes.append(0)
            }
            flags.append(flag)
            if let extra = result.more { more[member] = extra }
            return true
        }

        /// Writes `digest` into `table`'s slot, padding the slots of members without one.
        private static func store(_ digest: [UInt8], at slot: Int, size: Int, in table: inout [UInt8]) {
            let start = slot * size
            if table.count < start { table.append(contentsOf: repeatElement(0, count: start - table.count)) }
            table.append(contentsOf: digest)
        }

        /// Where `member` is in the table, if it was streamed.
        func slot(of member: Int) -> Int? {
            var low = 0
            var high = members.count
            while low < high {
                let middle = low + (high - low) / 2
                if members[middle] < member { low = middle + 1 } else { high = middle }
            }
            return low < members.count && members[low] == member ? low : nil
        }

        /// The digests of the member in `slot`, if any were taken.
        func digests(at slot: Int) -> FileDigests? {
            guard flags[slot] & Self.hasDigests != 0 else { return nil }
            func digest(_ flag: UInt8, size: Int, in table: [UInt8]) -> [UInt8]? {
                let start = slot * size
                guard flags[slot] & flag != 0, start + size <= table.count else { return nil }
                return Array(table[start..<(start + size)])
            }
            return FileDigests(
                sha1: digest(Self.hasSHA1, size: Self.sha1Size, in: sha1),
                sha256: digest(Self.hasSHA256, size: Self.sha256Size, in: sha256),
                size: sizes[slot]
            )
        }
    }
}
