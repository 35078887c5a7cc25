import Testing

@testable import IPACheckSigning

/// The compact entries say what a dictionary of the same entries says (the representation they replaced): the same
/// lookups, the keys in sorted order, the later entry and the first spelling of a path given twice.
struct SealEntriesTests {
    private static func digest(_ seed: Int, count: Int = 32) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: seed &* 31 &+ $0) }
    }

    @Test func agreesWithADictionaryOfTheSameEntries() {
        let added: [(String, ResourceSeal.Entry)] = [
            ("b.png", .file(sha1: nil, sha256: Self.digest(1), optional: false)),
            ("a.png", .file(sha1: nil, sha256: Self.digest(2), optional: true)),
            ("old.png", .file(sha1: Self.digest(3, count: 20), sha256: nil, optional: false)),
            ("odd.png", .file(sha1: nil, sha256: Self.digest(4, count: 5), optional: false)),
            ("Frameworks/F.framework", .nestedCode(cdhash: Self.digest(5, count: 20))),
            ("Frameworks/G.framework", .nestedCode(cdhash: nil)),
            ("link", .symlink(target: "b.png")),
            ("b.png", .file(sha1: nil, sha256: Self.digest(6), optional: false)),  // listed again: the later counts
            ("caf\u{E9}.txt", .file(sha1: nil, sha256: Self.digest(7), optional: false)),
            ("cafe\u{301}.txt", .file(sha1: nil, sha256: Self.digest(8), optional: false)),  // the same path, NFD
            // A combining mark after an ASCII letter sorts by the composed character ("á" after "b"), not by bytes.
            ("a\u{301}", .file(sha1: nil, sha256: Self.digest(9), optional: false)),
            ("b", .file(sha1: nil, sha256: Self.digest(10), optional: false)),
            ("az", .file(sha1: nil, sha256: Self.digest(11), optional: false)),
        ]
        var dictionary: [String: ResourceSeal.Entry] = [:]
        var builder = SealEntries.Builder()
        for (path, entry) in added {
            dictionary[path] = entry
            builder.add(path, entry)
        }
        let entries = builder.finish()
        #expect(entries.count == dictionary.count)
        #expect(entries.map(\.path) == dictionary.keys.sorted())
        #expect(entries.map(\.path).map { Array($0.utf8) } == dictionary.keys.sorted().map { Array($0.utf8) })
        for (path, entry) in dictionary { #expect(entries[path] == entry, "\(path)") }
        #expect(entries["cafe\u{301}.txt"] == .file(sha1: nil, sha256: Self.digest(8), optional: false))
        #expect(entries["missing"] == nil)
        #expect(entries[""] == nil)
        #expect(SealEntries(dictionary) == entries)
    }

    @Test func manyEntriesInAnyOrderAreAllFound() {
        var builder = SealEntries.Builder()
        var dictionary: [String: ResourceSeal.Entry] = [:]
        var state: UInt64 = 7
        for index in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let path = "Assets/\(state % 3_000)/file-\(index % 4_000).dat"
            let entry = ResourceSeal.Entry.file(sha1: nil, sha256: Self.digest(index), optional: index % 7 == 0)
            dictionary[path] = entry
            builder.add(path, entry)
        }
        let entries = builder.finish()
        #expect(entries.count == dictionary.count)
        #expect(entries.map(\.path) == dictionary.keys.sorted())
        #expect(dictionary.allSatisfy { entries[$0.key] == $0.value })
    }
}
