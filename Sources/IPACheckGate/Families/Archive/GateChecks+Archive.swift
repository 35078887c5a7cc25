import IPACheckReport

extension GateChecks {
    /// The archive: how the ipa is zipped, and the members the seal pass could read.
    static let archive = GateCheck(.archive) { input, rules in
        judgeArchive(input.build.integrity, isEntitlementsFile: input.build.isEntitlementsFile, rules: rules)
    }

    /// The archive check's judgement, over the facts it needs.
    static func judgeArchive(_ integrity: BuildIntegrity, isEntitlementsFile: Bool, rules: [Rule]) -> CheckOutcome {
        guard !isEntitlementsFile else { return .notApplicable(rules, because: notABuild) }
        var outcome = CheckOutcome(findings: integrity.archiveFindings)
        outcome.coverage.ran(rules)
        return outcome
    }
}
