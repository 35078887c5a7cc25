import Testing

@testable import IPACheckBundle

/// Names that differ only in case are found, also when their lower-case forms share a hash.
struct CaseFoldedNamesTests {
    @Test("a name that differs from an earlier one only in case is found; distinct names are not")
    func findsCaseTwins() {
        var names = CaseFoldedNames()
        #expect(names.sameButForCase("Payload/A.app/Info.plist") == nil)
        #expect(names.sameButForCase("Payload/A.app/info.plist") == "Payload/A.app/Info.plist")
        #expect(names.sameButForCase("Payload/A.app/Other.plist") == nil)
        #expect(names.sameButForCase("Payload/a.app/OTHER.plist") == "Payload/A.app/Other.plist")
    }

    /// Every name hashed alike: the second distinct name is kept apart, and its own twin is still found.
    @Test("when every hash collides, twins are still found and distinct names are not confused")
    func collidingHashes() {
        var names = CaseFoldedNames(hash: { _ in 0 })
        #expect(names.sameButForCase("A") == nil)
        #expect(names.sameButForCase("b") == nil)
        #expect(names.sameButForCase("c") == nil)
        #expect(names.sameButForCase("a") == "A")
        #expect(names.sameButForCase("B") == "b")
        #expect(names.sameButForCase("C") == "c")
        #expect(names.sameButForCase("d") == nil)
    }
}
