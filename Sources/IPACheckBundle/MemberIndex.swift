import IPACheckArchive

/// An archive's readable members by name, in about 5.5 bytes each: the names themselves stay in the archive's
/// member table, and a lookup compares a name only where its hash's tag matches (``TaggedSlots``).
///
/// Names are equal as Swift compares strings, by canonical equivalence, as Apple's file systems compare them: two
/// spellings of one name in different Unicode normalisation forms are one member (the later copy, as a sequential
/// extractor leaves it). A member is live while its name leads to it: not replaced by a later copy, not removed.
struct MemberIndex: Sendable {
    private var slots: TaggedSlots
    /// One bit a member: whether it is live.
    private var live: [UInt64]

    /// An empty index for an archive of `memberCount` members.
    init(memberCount: Int) {
        slots = TaggedSlots(capacity: memberCount, members: memberCount)
        live = [UInt64](repeating: 0, count: (max(memberCount, 0) + 63) / 64)
    }

    /// Whether member `index` is live.
    func isLive(_ index: Int) -> Bool {
        index >= 0 && index >> 6 < live.count && live[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// The live member named `name`, if any.
    func index(of name: String, in archive: ZipArchive) -> Int? {
        guard case .found(_, let member) = slots.probe(hash: name.hashValue, matches: { archive.name(at: $0) == name })
        else { return nil }
        return member
    }

    /// Makes member `index` the one named `name`; the member it replaces (an earlier copy of the name), if any.
    mutating func insert(_ name: String, index: Int, in archive: ZipArchive) -> Int? {
        let hash = name.hashValue
        setLive(index, true)
        switch slots.probe(hash: hash, matches: { archive.name(at: $0) == name }) {
        case .found(let slot, let earlier):
            slots.store(index, hash: hash, at: slot)
            setLive(earlier, false)
            return earlier
        case .vacant(let slot):
            slots.store(index, hash: hash, at: slot)
            return nil
        }
    }

    /// Removes the member named `name` (a link that leaves its bundle is not a member).
    mutating func remove(_ name: String, in archive: ZipArchive) {
        guard
            case .found(let slot, let member) = slots.probe(
                hash: name.hashValue,
                matches: { archive.name(at: $0) == name }
            )
        else { return }
        setLive(member, false)
        slots.remove(at: slot)
    }

    private mutating func setLive(_ index: Int, _ isLive: Bool) {
        guard index >= 0, index >> 6 < live.count else { return }
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
