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
        #expect(names.sameButForCase(members[0], member: 0) == nil)
        #expect(names.sameButForCase(members[1], member: 1) == "Payload/A.app/Info.plist")
        #expect(names.sameButForCase(members[2], member: 2) == nil)
        #expect(names.sameButForCase(members[3], member: 3) == "Payload/A.app/Other.plist")
    }

    /// Every name hashed alike: the second distinct name is kept apart, and its own twin is still found.
    @Test("when every hash collides, twins are still found and distinct names are not confused")
    func collidingHashes() {
        let members = ["A", "b", "c", "a", "B", "C", "d"]
        var names = CaseFoldedNames(hash: { _ in 0 }) { members[$0] }
        let twins = members.indices.map { names.sameButForCase(members[$0], member: $0) }
        #expect(twins == [nil, nil, nil, "A", "b", "c", nil])
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
            #expect(names.sameButForCase(name, member: member) == expected)
        }
        #expect(reference.count == 200)
    }
}
