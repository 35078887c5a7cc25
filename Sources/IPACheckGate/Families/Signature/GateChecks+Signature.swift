import IPACheckBundle
import IPACheckReport
import IPACheckSigning

extension GateChecks {
    /// Every code signature and seal (code pages, special slots, CMS, resources) and each signer's trust; unsigned
    /// code is the distribution's question in a development gate.
    static let signature = GateCheck(.signature) { input, rules in
        judgeSignature(
            input.build.integrity,
            isEntitlementsFile: input.build.isEntitlementsFile,
            distribution: input.distribution,
            rules: rules
        )
    }

    /// The signature and seal check's judgement, over the facts it needs.
    static func judgeSignature(
        _ integrity: BuildIntegrity,
        isEntitlementsFile: Bool,
        distribution: Distribution?,
        rules: [Rule]
    ) -> CheckOutcome {
        guard !isEntitlementsFile else { return .notApplicable(rules, because: notABuild) }
        let found = integrity.seals.flatMap(\.findings) + integrity.trustFindings
        guard integrity.seals.contains(where: { $0.signature != nil }) else {
            // No code was read, so no signature was verified: the findings say why (ARC008, ARC009).
            var outcome = CheckOutcome(findings: found)
            outcome.coverage.skip(rules, because: DistributionChecks.noExecutable)
            return outcome
        }
        var outcome = CheckOutcome()
        if distribution == .development {
            let unsigned = SignatureVerifier.rules.unsigned
            outcome.findings = found.filter { $0.rule != unsigned.id }
            outcome.coverage.skip([unsigned], because: DistributionChecks.developmentAccepts)
        } else {
            outcome.findings = found
        }
        if !integrity.resourcesChecked {
            // verify --no-resources: the seal was read, its comparison with the files left out.
            let compared = rules.filter { $0.needs.contains(.resourceComparison) }
            outcome.coverage.skip(compared, because: ResourceSeal.comparisonSkippedReason)
            outcome.coverage.ran(rules.filter { !compared.contains($0) })
        } else {
            outcome.coverage.ran(rules)
        }
        return outcome
    }
}
