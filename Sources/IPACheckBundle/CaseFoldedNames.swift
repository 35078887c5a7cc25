/// Member names seen so far, to find two that differ only in case (on a case-insensitive file system one hides
/// the other).
///
/// Members are kept in ``TaggedSlots`` by the hash of their lower-case name, the names themselves staying in the
/// archive: about 5.3 bytes a member. A dictionary from hash to member cost 34 MiB at a million members, the largest
/// thing `info` held. Names whose lower-case forms differ but hash alike are told apart by their names, so none is
/// missed.
struct CaseFoldedNames {
    private let name: (Int) -> String
    private let hash: (String) -> Int
    private var slots: TaggedSlots

    /// What a name is, next to the names seen before it.
    enum Outcome: Equatable {
        /// No name seen before is the same but for case.
        case new
        /// A name seen before is the same name (a later copy of a member, or another Unicode normalisation of its
        /// name): it is judged as a duplicate, not as a case twin.
        case sameName
        /// The first name seen that differs from it only in case.
        case sameButForCase(String)
    }

    /// An empty set with room for `capacity` members (grown only past that, never doubled member by member: a
    /// doubling holds both tables at once), whose indices are below `members`; `name` gives a member's name, `hash`
    /// hashes a lower-case name (replaceable so that tests can make every name collide).
    init(
        capacity: Int = 0,
        members: Int = Int(UInt32.max) - 2,
        hash: @escaping (String) -> Int = { $0.hashValue },
        name: @escaping (Int) -> String
    ) {
        self.hash = hash
        self.name = name
        slots = TaggedSlots(capacity: capacity, members: members)
    }

    /// What member `member`, named `name`, is next to the names seen before; unless it is the same name as one of
    /// them, it is remembered.
    mutating func note(_ name: String, member: Int) -> Outcome {
        let folded = name.lowercased()
        let key = hash(folded)
        var twin: String?
        let probe = slots.probe(hash: key) { other in
            let otherName = self.name(other)
            if otherName == name { return true }
            if twin == nil, otherName.lowercased() == folded { twin = otherName }
            return false
        }
        guard case .vacant(let slot) = probe else { return .sameName }
        slots.store(member, hash: key, at: slot)
        if slots.isCrowded { slots = slots.regrown { self.hash(self.name($0).lowercased()) } }
        return twin.map(Outcome.sameButForCase) ?? .new
    }
}
