import IPACheckBundle
import IPACheckReport
import IPACheckSigning
import IPACheckSites

/// What every check of the gate sees for one input: the build as read, the AASA files of its hosts, the options,
/// and the distribution it is judged for.
struct GateInput: Sendable {
    /// The build (or entitlements file) as read.
    let build: ReleaseGate.InspectedBuild
    /// The AASA files fetched for its hosts, parsed once.
    let documents: SiteDocuments
    /// The run's options.
    let options: GateOptions
    /// The distribution the build is judged for (`nil`: nothing says).
    let distribution: Distribution?
    /// Set when nothing at all could be reached: the checks of the hosts' files do not run, the others do.
    var networkUnavailable: NetworkUnavailable? = nil

    /// Facts the checks share: every bundle's signature and profile, the main app first.
    var facts: [BundleFacts] { build.facts }
}

/// What one check found for one input, and what became of each rule it declares (ran, or not and why).
struct CheckOutcome: Sendable {
    /// The findings, in no particular order (the gate sorts them).
    var findings: [Finding] = []
    /// Which rules ran, and why the others did not.
    var coverage = RuleCoverage()

    /// A check that does not apply to the input: none of `rules` ran, for `reason`.
    static func notApplicable(_ rules: [Rule], because reason: String) -> CheckOutcome {
        var outcome = CheckOutcome()
        outcome.coverage.skip(rules, because: reason)
        return outcome
    }

    /// Takes back `rules`, which judge the hosts' files, when none could be fetched: their findings go, and they
    /// are listed as not run because of the network, before any reason the check gave for a file it did not read.
    mutating func withdraw(_ rules: [Rule], becauseOf unavailable: NetworkUnavailable?) {
        guard let unavailable else { return }
        findings.removeAll { finding in rules.contains { $0.id == finding.rule } }
        var taken = RuleCoverage()
        taken.skip(rules, because: unavailable.notCheckedReason)
        taken.merge(coverage)
        taken.withdraw(rules, because: unavailable.notCheckedReason)
        coverage = taken
    }
}

/// One check of the release gate, as a unit: the rules it declares and how it runs on one input.
///
/// The gate runs every check of ``GateChecks/all`` on every input and nothing else, so its findings and its "not
/// checked" list come from one place. Each check says which of its rules ran and why the others did not; a rule it
/// leaves unsaid is recorded as not checked, never as passed (``outcome(on:)``), and the rules `check` lists are
/// exactly the checks' rules, so a rule no check declares is never listed.
struct GateCheck: Sendable {
    /// What the check is about, for people (`archive`, `signature and seal`, ...).
    let name: String
    /// The rules it may raise; every finding it returns is of one of them.
    let rules: [Rule]
    private let body: @Sendable (GateInput, _ rules: [Rule]) -> CheckOutcome

    init(_ name: String, rules: [Rule], body: @escaping @Sendable (GateInput, _ rules: [Rule]) -> CheckOutcome) {
        self.name = name
        self.rules = rules
        self.body = body
    }

    /// Runs the check; whatever of its rules it left unsaid is recorded as not checked, with the check's name.
    func outcome(on input: GateInput) -> CheckOutcome {
        completed(body(input, rules))
    }

    /// `outcome`, what this check's judgement gave, with whatever of its rules it left unsaid recorded as not
    /// checked.
    func completed(_ outcome: CheckOutcome) -> CheckOutcome {
        var outcome = outcome
        outcome.coverage.skip(rules, because: "the \(name) check did not say it ran them")
        return outcome
    }

}
