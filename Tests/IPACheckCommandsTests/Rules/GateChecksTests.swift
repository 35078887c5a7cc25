import IPACheckCommands
import IPACheckReport
import Testing

@testable import IPACheckGate

/// The registry of the gate's checks: every rule `check` lists belongs to exactly one check, and the list is the
/// whole catalogue but `diff`'s rules.
struct GateChecksTests {
    @Test func everyGateRuleBelongsToExactlyOneCheck() {
        let declared = GateChecks.all.flatMap { check in check.rules.map { ($0.id, check.name) } }
        let owners = Dictionary(declared.map { ($0.0, [$0.1]) }, uniquingKeysWith: +)
        for (id, checks) in owners where checks.count > 1 {
            Issue.record("\(id) is declared by \(checks.count) checks: \(checks)")
        }
        let diff = Set(BuildDiff.rules.all.map(\.id))
        let expected = Set(RuleCatalog.all.map(\.id)).subtracting(diff)
        #expect(Set(owners.keys) == expected, "rules no check declares: \(expected.subtracting(owners.keys).sorted())")
        #expect(RuleCatalog.gate.map(\.id) == expected.sorted())
    }
}
