import IPACheckReport

extension GateChecks {
    /// Each bundle's claims held against the file of its host (the LINK rules), App Clip coverage and the config's
    /// expected domains.
    static let links = GateCheck(.links) {
        input,
        rules in
        var outcome = CrossChecks.outcome(input)
        outcome.withdraw(CrossCheckRules.needFetchedFiles, becauseOf: input.networkUnavailable)
        return outcome
    }
}
