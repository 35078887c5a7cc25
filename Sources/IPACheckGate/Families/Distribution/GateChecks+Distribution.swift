import IPACheckReport

extension GateChecks {
    /// What the build is distributed for, against its profiles, platform and signing.
    static let distribution = GateCheck(.distribution) { input, rules in
        guard !input.build.isEntitlementsFile else { return .notApplicable(rules, because: notABuild) }
        var outcome = CheckOutcome()
        outcome.findings = DistributionChecks.findings(
            distribution: input.distribution,
            asked: input.options.askedDistribution != nil,
            facts: input.facts,
            coverage: &outcome.coverage
        )
        return outcome
    }
}
