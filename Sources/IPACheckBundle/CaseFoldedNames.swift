/// Member names seen so far, to find two that differ only in case (on a case-insensitive file system one hides
/// the other).
///
/// Names are kept by the hash of their lower-case form: a word a member instead of a lower-case copy of each name,
/// which for 100,000 members was 10 MiB. Names whose lower-case forms differ but hash alike are kept apart by
/// their lower-case form, so none is missed.
struct CaseFoldedNames {
    private let hash: (String) -> Int
    private var byHash: [Int: String] = [:]
    private var sharingAHash: [String: String] = [:]

    /// An empty set; `hash` hashes a lower-case name (replaceable so that tests can make every name collide).
    init(hash: @escaping (String) -> Int = { $0.hashValue }) {
        self.hash = hash
    }

    /// The name seen before that differs from `name` only in case, if any; otherwise `name` is remembered.
    mutating func sameButForCase(_ name: String) -> String? {
        let folded = name.lowercased()
        let key = hash(folded)
        guard let first = byHash[key] else {
            byHash[key] = name
            return nil
        }
        if first.lowercased() == folded { return first }
        if let other = sharingAHash[folded] { return other }
        sharingAHash[folded] = name
        return nil
    }
}
