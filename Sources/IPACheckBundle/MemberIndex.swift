import IPACheckArchive

/// An archive's readable members by name, in about 12 bytes each: the names themselves stay in the archive's member
/// table, and a lookup compares a name only where its hash matches.
///
/// Names are equal as Swift compares strings, by canonical equivalence, as Apple's file systems compare them: two
/// spellings of one name in different Unicode normalisation forms are one member (the later copy, as a sequential
/// extractor leaves it). A member is live while its name leads to it: not replaced by a later copy, not removed.
struct MemberIndex: Sendable {
    /// Open addressing with linear probing; a slot is 0 (empty), ``removed``, or the name hash's high 32 bits over
    /// the member index + 1.
    private var slots: [UInt64]
    /// One bit a member: whether it is live.
    private var live: [UInt64]
    private static let removed = UInt64.max

    /// An empty index for an archive of `memberCount` members (at most three quarters of the slots are filled).
    init(memberCount: Int) {
        slots = [UInt64](repeating: 0, count: max(16, memberCount + memberCount / 3 + 1))
        live = [UInt64](repeating: 0, count: (memberCount + 63) / 64)
    }

    /// Whether member `index` is live.
    func isLive(_ index: Int) -> Bool {
        live[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// The live member named `name`, if any.
    func index(of name: String, in archive: ZipArchive) -> Int? {
        guard case .found(let slot) = find(name, hash: name.hashValue, in: archive) else { return nil }
        return Int(slots[slot] & 0xFFFF_FFFF) - 1
    }

    /// Makes member `index` the one named `name`; the member it replaces (an earlier copy of the name), if any.
    mutating func insert(_ name: String, index: Int, in archive: ZipArchive) -> Int? {
        let hash = name.hashValue
        let value = UInt64(UInt32(truncatingIfNeeded: hash >> 32)) << 32 | UInt64(index + 1)
        setLive(index, true)
        switch find(name, hash: hash, in: archive) {
        case .found(let slot):
            let earlier = Int(slots[slot] & 0xFFFF_FFFF) - 1
            slots[slot] = value
            setLive(earlier, false)
            return earlier
        case .vacant(let slot):
            slots[slot] = value
            return nil
        }
    }

    /// Removes the member named `name` (a link that leaves its bundle is not a member).
    mutating func remove(_ name: String, in archive: ZipArchive) {
        guard case .found(let slot) = find(name, hash: name.hashValue, in: archive) else { return }
        setLive(Int(slots[slot] & 0xFFFF_FFFF) - 1, false)
        slots[slot] = Self.removed
    }

    private enum Probe {
        case found(Int)
        case vacant(Int)
    }

    /// The slot holding `name`, or the first free one on its probe sequence (the index is never full: it has a
    /// third more slots than members).
    private func find(_ name: String, hash: Int, in archive: ZipArchive) -> Probe {
        let tag = UInt64(UInt32(truncatingIfNeeded: hash >> 32))
        var slot = Int((UInt64(UInt32(truncatingIfNeeded: hash)) * UInt64(slots.count)) >> 32)
        var firstRemoved: Int?
        while true {
            let value = slots[slot]
            if value == 0 { return .vacant(firstRemoved ?? slot) }
            if value == Self.removed {
                firstRemoved = firstRemoved ?? slot
            } else if value >> 32 == tag, archive.name(at: Int(value & 0xFFFF_FFFF) - 1) == name {
                return .found(slot)
            }
            slot = slot + 1 == slots.count ? 0 : slot + 1
        }
    }

    private mutating func setLive(_ index: Int, _ isLive: Bool) {
        let bit: UInt64 = 1 << UInt64(index & 63)
        if isLive { live[index >> 6] |= bit } else { live[index >> 6] &= ~bit }
    }
}

/// The names of an archive's live members in archive order, decoded as they are walked: never all held at once.
package struct MemberNames: Sequence {
    let archive: ZipArchive
    let index: MemberIndex

    package struct Iterator: IteratorProtocol {
        var names: ZipArchive.NamesInOrder.Iterator
        let index: MemberIndex

        /// The next live member's name.
        package mutating func next() -> String? {
            nextMember()?.name
        }

        /// The next live member: its index and name.
        mutating func nextMember() -> (member: Int, name: String)? {
            while true {
                let position = names.index
                guard let name = names.next() else { return nil }
                if index.isLive(position) { return (position, name) }
            }
        }
    }

    package func makeIterator() -> Iterator { Iterator(names: archive.namesInOrder.makeIterator(), index: index) }

    /// The live members with their indices, in archive order.
    var withIndices: some Sequence<(member: Int, name: String)> {
        var iterator = makeIterator()
        return AnyIterator { iterator.nextMember() }
    }
}
