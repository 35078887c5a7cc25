import IPACheckReport
import IPACheckSigning
import Testing

@testable import IPACheckBundle

/// The record of what the shares streamed keeps each member's first result, however the threads' records are
/// merged; plans keep every flag through their one byte.
struct StreamedMembersTests {
    private static func result(_ problem: String?) -> SealScan.StreamResult {
        var result = SealScan.StreamResult()
        result.more = problem.map { .init(problem: $0) }
        return result
    }

    @Test func mergingKeepsTheFirstRecordsResult() {
        var first = SealScan.StreamedMembers()
        first.append(4, Self.result("first"))
        first.append(1, Self.result(nil))
        first.append(4, Self.result("again"))
        var second = SealScan.StreamedMembers()
        second.append(4, Self.result("second"))
        second.append(0, Self.result("zero"))
        second.append(6, Self.result(nil))
        let merged = first.merged(with: second)
        #expect([0, 1, 4, 6].allSatisfy(merged.contains))
        #expect(!merged.contains(2))
        #expect(merged.takeMore().map(\.member) == [0, 4])
        #expect(merged.takeMore().map(\.more.problem) == ["zero", "first"])
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
