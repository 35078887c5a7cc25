import IPACheckBundle
import IPACheckGate
import IPACheckReport
import IPACheckSigning
import Testing

/// Each kind of problem a reader tells apart is one rule of its family, and no two kinds share a rule: the readers
/// say what is wrong, the families alone say which rule that breaks and how bad it is.
struct ProblemKindTests {
    @Test func everyArchiveProblemIsOneArchiveRule() {
        let rules = ArchiveProblem.Kind.allCases.map { ArchiveProblem($0, "").rule }
        #expect(rules.allSatisfy { $0.id.hasPrefix("ARC") })
        #expect(Set(rules.map(\.id)).count == rules.count)
        #expect(Set(rules) == Set(ArchiveRules.rules.all), "every ARC rule is some reader's problem")
        // A duplicate member makes the installer's choice unknown: an error in every gate.
        #expect(ArchiveProblem(.duplicateMember, "").rule.severity == .error)
    }

    @Test func everySigningProblemIsOneSignatureRule() {
        let rules = SigningProblem.Kind.allCases.map { SigningProblem($0, "").rule }
        #expect(rules.allSatisfy { $0.id.hasPrefix("SIG") })
        #expect(Set(rules.map(\.id)).count == rules.count)
    }

    @Test func aProblemKeepsItsWordsAndPlaceAsAFinding() {
        let problem = SigningProblem(
            .unsigned,
            "The executable has no code signature.",
            bundle: "A.app",
            affects: ["arm64"]
        )
        let finding = problem.finding
        #expect(finding.rule == SignatureVerifier.rules.unsigned.id)
        #expect(finding.message == problem.message && finding.bundle == "A.app" && finding.affects == ["arm64"])
        #expect(finding.fix == SignatureVerifier.rules.unsigned.fix)
    }

    /// The problems that leave a bundle's entitlements unknown are an executable that cannot be read (ARC009) and a
    /// blob that cannot be decoded (SIG021): explain says "not checked" instead of "no claim" for them.
    @Test func entitlementsAreUnknownAfterAnUnreadableExecutableOrBlob() {
        #expect(LinkModel.entitlementsUnread == ["ARC009", "SIG021"])
    }
}
