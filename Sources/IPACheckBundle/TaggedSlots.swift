/// An open-addressing hash table of 4-byte slots, each holding a member's index and, in the bits the index leaves
/// free, a tag taken from its key's hash: the keys themselves (member names) stay in the archive, and a probe
/// compares a key only where the tag matches.
///
/// At a million members the slots take 5.3 MiB (a third more slots than members, four bytes each), half of the
/// 8-byte slots they replace; an archive of at most 2,000,000 members leaves 11 bits of tag, so about one probe in
/// 2,000 compares a name needlessly. Linear probing; a removed slot is reused by a later insertion.
struct TaggedSlots: Sendable {
    private var slots: [UInt32]
    /// Bits for a member's index + 1; the rest of a slot is the tag.
    private let indexBits: UInt32
    private var filled = 0

    /// A slot never used.
    private static let empty: UInt32 = 0
    /// A slot whose member was removed: all index bits set, which no index + 1 reaches.
    private var removed: UInt32 { UInt32.max >> (32 - indexBits) }

    /// An empty table with room for `capacity` keys, for member indices below `members`.
    init(capacity: Int, members: Int) {
        let largest = UInt64(clamping: max(members, 0)) + 1
        indexBits = UInt32(min(32, max(1, 64 - (largest + 1).leadingZeroBitCount)))
        slots = [UInt32](repeating: Self.empty, count: Self.slotCount(for: capacity))
    }

    /// Slots for `capacity` keys: at most three quarters are filled, so every probe ends at an empty one.
    private static func slotCount(for capacity: Int) -> Int {
        max(16, capacity + capacity / 3 + 1)
    }

    /// Where a probe for a key ended.
    enum Probe {
        /// The slot holding the member whose key matched.
        case found(slot: Int, member: Int)
        /// Where the key would go: the first removed slot on its way, else the empty slot that ended it.
        case vacant(slot: Int)
    }

    /// Probes for the key hashed as `hash`; `matches` says whether a member's key is the one looked for (asked
    /// only of members whose tag matches).
    func probe(hash: Int, matches: (Int) -> Bool) -> Probe {
        let tag = tag(of: hash)
        var slot = firstSlot(of: hash)
        var firstRemoved: Int?
        while true {
            let value = slots[slot]
            if value == Self.empty { return .vacant(slot: firstRemoved ?? slot) }
            if value == removed {
                firstRemoved = firstRemoved ?? slot
            } else if value >> indexBits == tag >> indexBits, matches(Int(value & removed) - 1) {
                return .found(slot: slot, member: Int(value & removed) - 1)
            }
            slot = slot + 1 == slots.count ? 0 : slot + 1
        }
    }

    /// Puts `member` (whose key hashes to `hash`) in `slot`, from ``probe(hash:matches:)``; a member past the
    /// indices the table was made for is not stored.
    mutating func store(_ member: Int, hash: Int, at slot: Int) {
        guard member >= 0, UInt64(member) + 1 < UInt64(removed) else { return }
        if slots[slot] == Self.empty { filled += 1 }
        slots[slot] = tag(of: hash) | UInt32(member + 1)
    }

    /// Empties `slot` (its probe sequences stay intact).
    mutating func remove(at slot: Int) {
        slots[slot] = removed
    }

    /// Whether the table holds more keys than it was made for (then ``regrown(hash:)`` makes room).
    var isCrowded: Bool { filled > slots.count * 3 / 4 }

    /// The table with room for twice the members it holds, each placed again by `hash` (the hash of its key).
    func regrown(hash: (Int) -> Int) -> TaggedSlots {
        var grown = self
        grown.slots = [UInt32](repeating: Self.empty, count: Self.slotCount(for: filled * 2))
        grown.filled = 0
        for value in slots where value != Self.empty && value != removed {
            let member = Int(value & removed) - 1
            guard case .vacant(let slot) = grown.probe(hash: hash(member), matches: { _ in false }) else { continue }
            grown.store(member, hash: hash(member), at: slot)
        }
        return grown
    }

    /// The hash's top bits, placed above the index bits.
    private func tag(of hash: Int) -> UInt32 {
        guard indexBits < 32 else { return 0 }
        let top = UInt64(UInt(bitPattern: hash)) >> (32 + UInt64(indexBits))
        return UInt32(truncatingIfNeeded: top) << indexBits
    }

    private func firstSlot(of hash: Int) -> Int {
        Int((UInt64(UInt32(truncatingIfNeeded: hash)) * UInt64(slots.count)) >> 32)
    }
}
