/// Member names seen so far, to find two that differ only in case (on a case-insensitive file system one hides
/// the other).
///
/// Members are kept by the hash of their lower-case name and their index, the name itself staying in the archive:
/// a word or two a member instead of a lower-case copy of each name, which for 100,000 members was 10 MiB. Names
/// whose lower-case forms differ but hash alike are kept apart by their lower-case form, so none is missed.
struct CaseFoldedNames {
    private let name: (Int) -> String
    private let hash: (String) -> Int
    private var byHash: [Int: Int] = [:]
    private var sharingAHash: [String: Int] = [:]

    /// An empty set with room for `capacity` members (grown once, not doubled member by member: a doubling holds
    /// both tables at once); `name` gives a member's name, `hash` hashes a lower-case name (replaceable so that
    /// tests can make every name collide).
    init(capacity: Int = 0, hash: @escaping (String) -> Int = { $0.hashValue }, name: @escaping (Int) -> String) {
        self.hash = hash
        self.name = name
        byHash.reserveCapacity(capacity)
    }

    /// The name of the member seen before whose name differs from `name` only in case, if any; otherwise member
    /// `member`, named `name`, is remembered.
    mutating func sameButForCase(_ name: String, member: Int) -> String? {
        let folded = name.lowercased()
        let key = hash(folded)
        guard let first = byHash[key] else {
            byHash[key] = member
            return nil
        }
        let firstName = self.name(first)
        if firstName.lowercased() == folded { return firstName }
        if let other = sharingAHash[folded] { return self.name(other) }
        sharingAHash[folded] = member
        return nil
    }
}
