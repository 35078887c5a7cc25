import IPACheckSigning
import Testing

@testable import IPACheckBundle

/// The pass's flat tables give back exactly the results streamed into them, however the threads' tables are merged.
struct TakenDigestsTests {
    private static func result(_ seed: UInt8, sha1: Bool, sha256: Bool, size: Int) -> SealScan.StreamResult {
        var result = SealScan.StreamResult()
        result.digests = FileDigests(
            sha1: sha1 ? [UInt8](repeating: seed, count: 20) : nil,
            sha256: sha256 ? [UInt8](repeating: seed &+ 1, count: 32) : nil,
            size: size
        )
        return result
    }

    @Test func givesBackEachMembersDigestsAndNothingForOthers() {
        var taken = SealScan.TakenDigests()
        let results: [(Int, SealScan.StreamResult)] = [
            (2, Self.result(1, sha1: false, sha256: true, size: 10)),
            (5, SealScan.StreamResult()),  // an executable: no digests asked for
            (7, Self.result(3, sha1: true, sha256: false, size: 0)),
            (9, Self.result(5, sha1: true, sha256: true, size: 1 << 40)),
            // A digest of an unexpected length is not one a seal could match: it is not kept.
            (11, SealScan.StreamResult(digests: FileDigests(sha1: [1], sha256: nil, size: 1))),
        ]
        for (member, result) in results { taken.append(member, result) }
        for (member, result) in results.dropLast() {
            #expect(taken.contains(member))
            #expect(taken.digests(of: member) == result.digests, "member \(member)")
        }
        #expect(taken.digests(of: 11) == FileDigests(sha1: nil, sha256: nil, size: 1))
        #expect(!taken.contains(3))
        #expect(taken.digests(of: 3) == nil)
        #expect(taken.digests(of: 100) == nil)
    }

    @Test func mergingKeepsTheFirstTablesResultAndTheOrder() {
        var first = SealScan.TakenDigests()
        first.append(1, Self.result(1, sha1: false, sha256: true, size: 1))
        first.append(4, Self.result(4, sha1: false, sha256: true, size: 4))
        var second = SealScan.TakenDigests()
        second.append(0, Self.result(9, sha1: true, sha256: false, size: 9))
        second.append(4, Self.result(40, sha1: true, sha256: true, size: 40))
        second.append(6, Self.result(6, sha1: false, sha256: true, size: 6))
        let merged = first.merged(with: second)
        #expect(merged.digests(of: 4) == Self.result(4, sha1: false, sha256: true, size: 4).digests)
        #expect(merged.digests(of: 0) == Self.result(9, sha1: true, sha256: false, size: 9).digests)
        #expect(merged.digests(of: 6) == Self.result(6, sha1: false, sha256: true, size: 6).digests)
        #expect(merged.digests(of: 1) == Self.result(1, sha1: false, sha256: true, size: 1).digests)
        // Appended out of order (it starts another table), a member is still found.
        var late = merged
        late.append(2, Self.result(2, sha1: true, sha256: true, size: 2))
        #expect(late.digests(of: 2) == Self.result(2, sha1: true, sha256: true, size: 2).digests)
        #expect(late.digests(of: 6) == merged.digests(of: 6))
    }

    @Test func plansRoundTripThroughTheirFlags() {
        var plans = SealScan.MemberPlans(memberCount: 4)
        var plan = SealScan.MemberPlan()
        plan.sha256 = true
        plan.keep = true
        plans[2] = plan
        plans[0, default: SealScan.MemberPlan()].isExecutable = true
        plans[0, default: SealScan.MemberPlan()].needles = ["a needle"]
        plans[9] = plan  // outside the archive: ignored
        #expect(plans.members == [0, 2])
        #expect(plans[2] == plan)
        #expect(plans[0]?.isExecutable == true)
        #expect(plans[0]?.needles == ["a needle"])
        #expect(plans[0]?.sha1 == false)
        #expect(plans[1] == nil)
        #expect(plans[9] == nil)
    }
}
