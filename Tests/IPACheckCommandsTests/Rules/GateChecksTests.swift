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

    /// A rule of its own (``GateRule``) is judged over a whole build, so it belongs in a check only `check` runs.
    ///
    /// `verify` runs the archive and signature checks on what it reads (no profile, no entries, no hosts' files),
    /// and `aasa` the AASA files check on hosts with no build: such a rule in those checks would be listed as not
    /// checked by them.
    @Test func rulesOfTheirOwnAreOnlyInChecksThatJudgeAWholeBuild() {
        let partial: Set<GateCheckName> = [.archive, .signature, .hostFiles]
        let misplaced = GateRules.registered.filter { partial.contains($0.judgedIn) }.map { $0.rule.id }
        #expect(misplaced.isEmpty, "judged in a check verify or aasa runs without a build: \(misplaced)")
        #expect(!GateRules.registered.isEmpty, "no rule of its own is registered, so this proved nothing")
    }
}
