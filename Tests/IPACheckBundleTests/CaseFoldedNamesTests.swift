import Testing

@testable import IPACheckBundle

/// Names that differ only in case are found, also when their lower-case forms share a hash.
struct CaseFoldedNamesTests {
    @Test("a name that differs from an earlier one only in case is found; distinct names are not")
    func findsCaseTwins() {
        let members = [
            "Payload/A.app/Info.plist", "Payload/A.app/info.plist", "Payload/A.app/Other.plist",
            "Payload/a.app/OTHER.plist",
        ]
        var names = CaseFoldedNames { members[$0] }
        #expect(names.note(members[0], member: 0) == .new)
        #expect(names.note(members[1], member: 1) == .sameButForCase("Payload/A.app/Info.plist"))
        #expect(names.note(members[2], member: 2) == .new)
        #expect(names.note(members[3], member: 3) == .sameButForCase("Payload/A.app/Other.plist"))
    }

    /// Every name hashed alike: the second distinct name is kept apart, and its own twin is still found.
    @Test("when every hash collides, twins are still found and distinct names are not confused")
    func collidingHashes() {
        let members = ["A", "b", "c", "a", "B", "C", "d"]
        var names = CaseFoldedNames(hash: { _ in 0 }) { members[$0] }
        let twins = members.indices.map { names.note(members[$0], member: $0) }
        #expect(twins == [.new, .new, .new, .sameButForCase("A"), .sameButForCase("b"), .sameButForCase("c"), .new])
    }

    /// More names than the capacity given: the table grows, and twins on either side of a growth are still found,
    /// as a dictionary of lower-case names finds them.
    @Test("past its capacity the table grows and still finds every twin")
    func growsPastItsCapacity() {
        let members = (0..<300).map { "Payload/A.app/File\($0 % 200)" + ($0 >= 200 ? ".PNG" : ".png") }
        var names = CaseFoldedNames(capacity: 4) { members[$0] }
        var reference: [String: String] = [:]
        for (member, name) in members.enumerated() {
            let expected = reference[name.lowercased()]
            if expected == nil { reference[name.lowercased()] = name }
            #expect(names.note(name, member: member) == (expected.map { .sameButForCase($0) } ?? .new))
        }
        #expect(reference.count == 200)
    }

    /// A later copy of a name is the same name, not a twin, even after a twin of it was seen, and however it is
    /// normalised; the twin named is always the first name seen.
    @Test("a later copy of a name is the same name, not a case twin")
    func laterCopiesAreTheSameName() {
        let members = ["A", "a", "A", "a", "\u{C9}", "E\u{301}", "\u{E9}"]
        var names = CaseFoldedNames(capacity: 2) { members[$0] }
        let outcomes = members.indices.map { names.note(members[$0], member: $0) }
        #expect(
            outcomes == [.new, .sameButForCase("A"), .sameName, .sameName, .new, .sameName, .sameButForCase("\u{C9}")]
        )
    }
}
