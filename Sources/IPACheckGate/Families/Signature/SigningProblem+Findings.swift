package import IPACheckReport
package import IPACheckSigning

extension SigningProblem {
    /// The rule this problem breaks.
    package var rule: Rule {
        switch kind {
        case .unsigned: SignatureVerifier.rules.unsigned
        case .codePageModified: SignatureVerifier.rules.codePageModified
        case .specialSlotBroken: SignatureVerifier.rules.specialSlotBroken
        case .codeDirectoryInvalid: SignatureVerifier.rules.codeDirectoryInvalid
        case .cmsInvalid: SignatureVerifier.rules.cmsInvalid
        case .cmsMalformed: SignatureVerifier.rules.cmsMalformed
        case .noCMS: SignatureVerifier.trustRules.noCMS
        case .signerExpired: SignatureVerifier.trustRules.signerExpired
        case .slotNotChecked: SignatureVerifier.rules.slotNotChecked
        case .codePagesNotChecked: SignatureVerifier.rules.codePagesNotChecked
        case .encryptedCodePages: SignatureVerifier.rules.encryptedCodePages
        case .xmlDERDisagree: SignedEntitlements.rules.xmlDERDisagree
        case .malformed: SignedEntitlements.rules.malformed
        case .slicesDisagree: SignedEntitlements.rules.slicesDisagree
        case .noDER: SignedEntitlements.rules.noDER
        case .notDictionary: SignedEntitlements.rules.notDictionary
        case .notSealed: ResourceSeal.rules.notSealed
        case .sealUnreadable: ResourceSeal.rules.unreadable
        }
    }

    /// The problem as a finding of its rule.
    package var finding: Finding {
        rule.finding(message, bundle: bundle, location: location, affects: affects)
    }
}

extension SignatureCheck {
    /// Every problem and note of every slice, as findings.
    package var findings: [Finding] { problems.map(\.finding) }
}

extension SignedEntitlements {
    /// What reading or comparing the slice's two blobs found, as findings.
    package var findings: [Finding] { problems.map(\.finding) }
}

extension ResourceSealCheck {
    /// Each file the seal and the bundle disagree on, as a finding (at most ``FindingList/perRule`` a rule, the rest
    /// counted), and the omit rules that could not be evaluated.
    package var findings: [Finding] {
        var findings = FindingList()
        findings.append(
            contentsOf: modified.lazy.map {
                ResourceSeal.rules.modified.finding("\($0) was modified after signing.", bundle: bundle, location: $0)
            }
        )
        findings.append(
            contentsOf: missing.lazy.map {
                ResourceSeal.rules.missingFile.finding("\($0) is sealed but missing.", bundle: bundle, location: $0)
            }
        )
        findings.append(
            contentsOf: added.lazy.map {
                ResourceSeal.rules.addedFile.finding("\($0) was added after signing.", bundle: bundle, location: $0)
            }
        )
        findings.append(
            contentsOf: nestedCodeChanged.lazy.map {
                ResourceSeal.rules.nestedCodeChanged.finding(
                    "\($0) is not the nested code the seal names: its CodeDirectory hash differs.",
                    bundle: bundle,
                    location: $0
                )
            }
        )
        if let note = notEvaluatedFinding {
            findings.append(note)
        }
        return findings.findings
    }

    /// SIG036 for the rules that cannot be evaluated and the files they were not tried on, if any.
    private var notEvaluatedFinding: Finding? {
        let untriedFiles = filesOmitRulesWereNotTriedOn
        let steps = omitRuleSteps
        var sentences: [String] = []
        if !unevaluatedOmitRules.isEmpty {
            let shown = unevaluatedOmitRules.prefix(5).map { "\"\($0.pattern)\" (\($0.reason))" }
            let more = unevaluatedOmitRules.count - shown.count
            let subject =
                unevaluatedOmitRules.count == 1
                ? "1 omit rule of the seal is" : "\(unevaluatedOmitRules.count) omit rules of the seal are"
            sentences.append(
                "\(subject) not evaluated: \(shown.joined(separator: "; "))" + (more > 0 ? "; and \(more) more." : ".")
            )
        }
        if untriedFiles > 0 {
            sentences.append(
                "The omit rules were not tried on \(untriedFiles) file(s): they took more than \(steps) "
                    + "matcher steps."
            )
        }
        guard !sentences.isEmpty else { return nil }
        sentences.append("Files they would leave out are reported as added after signing.")
        return ResourceSeal.rules.omitRuleNotEvaluated.finding(
            sentences.joined(separator: " "),
            bundle: bundle,
            location: "_CodeSignature/CodeResources"
        )
    }
}
