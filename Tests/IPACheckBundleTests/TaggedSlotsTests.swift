import IPACheckArchive
import Testing

@testable import IPACheckBundle

/// The 4-byte-slot table finds, replaces and removes exactly what a dictionary keyed the same way would, whatever the
/// hashes (alike, or tags cut short by large member indices).
struct TaggedSlotsTests {
    /// Random inserts, replacements, removals and lookups against a dictionary, with hashes drawn from `hashes`
    /// values (1: every key collides).
    @Test("the table agrees with a dictionary", arguments: [1, 7, Int.max])
    func agreesWithADictionary(hashes: Int) {
        var state: UInt64 = 99
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        let keys = (0..<300).map { "key\($0)" }
        func hash(_ key: String) -> Int { hashes == Int.max ? key.hashValue : key.hashValue % hashes }
        var keyOfMember: [String] = []
        var table = TaggedSlots(capacity: 200, members: 2_000)
        var reference: [String: Int] = [:]
        for _ in 0..<2_000 {
            let key = keys[next(keys.count)]
            let probe = table.probe(hash: hash(key)) { keyOfMember[$0] == key }
            switch (probe, next(4)) {
            case (.found(let slot, let member), 0):
                #expect(reference[key] == member)
                table.remove(at: slot)
                reference[key] = nil
            case (.found(let slot, let member), _):
                #expect(reference[key] == member)
                keyOfMember.append(key)
                table.store(keyOfMember.count - 1, hash: hash(key), at: slot)
                reference[key] = keyOfMember.count - 1
            case (.vacant(let slot), _):
                #expect(reference[key] == nil, "\(key)")
                guard reference.count < 200, keyOfMember.count < 2_000 else { continue }
                keyOfMember.append(key)
                table.store(keyOfMember.count - 1, hash: hash(key), at: slot)
                reference[key] = keyOfMember.count - 1
            }
        }
        for key in keys {
            guard case .found(_, let member) = table.probe(hash: hash(key), matches: { keyOfMember[$0] == key }) else {
                #expect(reference[key] == nil, "\(key)")
                continue
            }
            #expect(reference[key] == member, "\(key)")
        }
    }

    /// At the largest member count an archive may have, the last member's index still fits beside its tag.
    @Test func theLargestMemberIndexFits() {
        let members = ArchiveLimits.largestEntryLimit
        var table = TaggedSlots(capacity: 4, members: members)
        for member in [0, 1, members - 1] {
            guard case .vacant(let slot) = table.probe(hash: member * 31, matches: { $0 == member }) else {
                Issue.record("member \(member) is not in the table yet")
                continue
            }
            table.store(member, hash: member * 31, at: slot)
        }
        for member in [0, 1, members - 1] {
            guard case .found(_, let found) = table.probe(hash: member * 31, matches: { $0 == member }) else {
                Issue.record("member \(member) was stored")
                continue
            }
            #expect(found == member)
        }
    }

    /// Past its capacity the table is crowded, and regrown it keeps every member.
    @Test func regrowingKeepsEveryMember() {
        var table = TaggedSlots(capacity: 2, members: 100)
        for member in 0..<40 {
            guard case .vacant(let slot) = table.probe(hash: member &* 7919, matches: { $0 == member }) else {
                continue
            }
            table.store(member, hash: member &* 7919, at: slot)
            if table.isCrowded { table = table.regrown { $0 &* 7919 } }
        }
        #expect(!table.isCrowded)
        for member in 0..<40 {
            guard case .found(_, let found) = table.probe(hash: member &* 7919, matches: { $0 == member }) else {
                Issue.record("member \(member) is missing")
                continue
            }
            #expect(found == member)
        }
    }
}
