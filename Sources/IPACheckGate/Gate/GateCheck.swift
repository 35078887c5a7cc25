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

/// The checks of the release gate, by name: what a set of rules, or a rule of its own, says runs it.
enum GateCheckName: String, Sendable, CaseIterable {
    case archive
    case signature = "signature and seal"
    case distribution
    case bundleFacts = "signed entitlements and profile"
    case appFlip = "App Flip"
    case firebase = "Firebase"
    case hostFiles = "AASA files"
    case links = "associated domains against their files"
    case platformFacts = "platform facts"
}

/// A set of rules the gate judges, and the check whose run judges them: a check's rules are the sets that name it
/// and the rules of their own that do (``GateRule``), so no check lists its rules by hand.
protocol JudgedRuleSet: RuleSet {
    /// The check that raises the set's rules.
    var judgedIn: GateCheckName { get }
}

/// One rule as one unit, as SwiftLint's rules are: its declaration, the check that runs it, its judgement.
///
/// The judgement is over what every check sees (``GateInput``), a whole build, so it names a check only `check` runs:
/// not the archive, signature or AASA files checks, which `verify` and `aasa` also run on less than a build
/// (GateChecksTests holds it). Adding such a rule is its file in its family's folder (and its test):
/// scripts/register-rule-families lists it for the catalogue and the gate.
protocol GateRule: Sendable {
    /// The rule.
    static var rule: Rule { get }
    /// The check whose run judges it: its findings and whether it ran are that check's.
    static var judgedIn: GateCheckName { get }
    /// What the rule finds in one input, or why it cannot say.
    static func judge(_ input: GateInput) -> RuleJudgement
}

/// What a ``GateRule`` says of one input.
enum RuleJudgement: Sendable {
    /// It ran, and found these (none: it passed).
    case ran([Finding])
    /// It could not run, for this reason.
    case notRun(because: String)
}

/// One check of the release gate, as a unit: the rules it judges and how it runs on one input.
///
/// The gate runs every check of ``GateChecks/all`` on every input and nothing else, so its findings and its "not
/// checked" list come from one place. Each check says which of its rules ran and why the others did not; a rule it
/// leaves unsaid is recorded as not checked, never as passed (``outcome(on:)``), and the rules `check` lists are
/// exactly the checks' rules, so a rule no check judges is never listed.
struct GateCheck: Sendable {
    /// What the check is about, for people (`archive`, `signature and seal`, ...).
    let name: String
    /// The rules it may raise, by ID; every finding it returns is of one of them: the sets and rules of their own
    /// that name this check.
    let rules: [Rule]
    /// Its rules of their own, each judged after the check's body.
    private let units: [any GateRule.Type]
    private let body: @Sendable (GateInput, _ rules: [Rule]) -> CheckOutcome

    /// The check `name`, judging every registered set and rule that names it.
    init(_ name: GateCheckName, body: @escaping @Sendable (GateInput, _ rules: [Rule]) -> CheckOutcome) {
        self.name = name.rawValue
        let sets = RuleFamily.registered.flatMap(\.sets).compactMap { $0 as? any JudgedRuleSet }
        units = GateRules.registered.filter { $0.judgedIn == name }
        rules = (sets.filter { $0.judgedIn == name }.flatMap(\.all) + units.map { $0.rule }).sorted { $0.id < $1.id }
        self.body = body
    }

    /// Runs the check and its rules of their own; whatever of its rules it left unsaid is recorded as not checked,
    /// with the check's name.
    func outcome(on input: GateInput) -> CheckOutcome {
        var outcome = body(input, rules)
        for unit in units {
            switch unit.judge(input) {
            case .ran(let findings):
                outcome.findings += findings
                outcome.coverage.ran([unit.rule])
            case .notRun(let reason):
                outcome.coverage.skip([unit.rule], because: reason)
            }
        }
        return completed(outcome)
    }

    /// `outcome`, what this check's judgement gave, with whatever of its rules it left unsaid recorded as not
    /// checked.
    func completed(_ outcome: CheckOutcome) -> CheckOutcome {
        var outcome = outcome
        outcome.coverage.skip(rules, because: "the \(name) check did not say it ran them")
        return outcome
    }
}
