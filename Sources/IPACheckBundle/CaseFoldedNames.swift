/// Member names seen so far, to find two that differ only in case (on a case-insensitive file system one hides
/// the other).
///
/// Members are kept in an open-addressing table of 8-byte slots (the lower-case name's hash, cut to 32 bits, over
/// the member index), the names themselves staying in the archive: about 11 bytes a member. A dictionary from hash
/// to member cost 34 MiB at a million members, the largest thing `info` held. Names whose lower-case forms differ but
/// hash alike sit in different slots, so none is missed.
struct CaseFoldedNames {
    private let name: (Int) -> String
    private let hash: (String) -> Int
    /// 0 (empty), or the hash's high 32 bits over the member index + 1.
    private var slots: [UInt64]
    private var count = 0

    /// An empty set with room for `capacity` members (grown only past that, never doubled member by member: a
    /// doubling holds both tables at once); `name` gives a member's name, `hash` hashes a lower-case name
    /// (replaceable so that tests can make every name collide).
    init(capacity: Int = 0, hash: @escaping (String) -> Int = { $0.hashValue }, name: @escaping (Int) -> String) {
        self.hash = hash
        self.name = name
        slots = [UInt64](repeating: 0, count: Self.slotCount(forMembers: capacity))
    }

    /// Slots for `members` names: at most three quarters are filled, so every probe ends at an empty one.
    private static func slotCount(forMembers members: Int) -> Int {
        max(16, members + members / 3 + 1)
    }

    /// The name of the member seen before whose name differs from `name` only in case, if any; otherwise member
    /// `member`, named `name`, is remembered.
    mutating func sameButForCase(_ name: String, member: Int) -> String? {
        let folded = name.lowercased()
        let key = hash(folded)
        var slot = firstSlot(key)
        let tag = Self.tag(key)
        while slots[slot] != 0 {
            let value = slots[slot]
            if value >> 32 == tag {
                let other = self.name(Int(value & 0xFFFF_FFFF) - 1)
                if other.lowercased() == folded { return other }
            }
            slot = slot + 1 == slots.count ? 0 : slot + 1
        }
        guard let stored = UInt32(exactly: member + 1) else { return nil }
        slots[slot] = tag << 32 | UInt64(stored)
        count += 1
        if count > slots.count * 3 / 4 { grow() }
        return nil
    }

    private static func tag(_ key: Int) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: key >> 32))
    }

    /// Where `key`'s probe sequence starts.
    private func firstSlot(_ key: Int) -> Int {
        Int((UInt64(UInt32(truncatingIfNeeded: key)) * UInt64(slots.count)) >> 32)
    }

    /// Moves every member into a table twice as large (only when more members come than the capacity given).
    private mutating func grow() {
        let members = slots.filter { $0 != 0 }
        slots = [UInt64](repeating: 0, count: Self.slotCount(forMembers: count * 2))
        for value in members {
            var slot = firstSlot(hash(name(Int(value & 0xFFFF_FFFF) - 1).lowercased()))
            while slots[slot] != 0 { slot = slot + 1 == slots.count ? 0 : slot + 1 }
            slots[slot] = value
        }
    }
}
