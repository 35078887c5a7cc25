package import IPACheckBundle
package import IPACheckReport
import IPACheckSigning

/// What the archive and seal checks judge: what reading the archive found, every bundle's seal as the seal pass
/// checked it, each signer's trust, and whether the seals were compared with the files.
///
/// `check` gathers it with the rest of a build; `verify` gathers only this, and both are judged by the same two
/// checks (``GateChecks/archive``, ``GateChecks/signature``), so they agree on an archive and its seals.
package struct BuildIntegrity: Sendable {
    /// What reading the archive and the seal pass found.
    package var archiveFindings: [Finding]
    /// Every bundle's seal, as the seal pass checked it.
    package var seals: [BundleSealCheck]
    /// Whether each code (and, for `check`, profile) signer chains to Apple, evaluated once per signer.
    package var trustFindings: [Finding]
    /// Whether the seals were compared with the bundles' files and nested code (all but `verify --no-resources`).
    package var resourcesChecked: Bool

    /// The integrity facts of a build.
    package init(
        archiveFindings: [Finding],
        seals: [BundleSealCheck],
        trustFindings: [Finding] = [],
        resourcesChecked: Bool = true
    ) {
        self.archiveFindings = archiveFindings
        self.seals = seals
        self.trustFindings = trustFindings
        self.resourcesChecked = resourcesChecked
    }
}

extension GateChecks {
    /// The rules ``integrity(_:)`` judges: the archive check's and the signature check's (`verify`'s rules).
    package static var integrityRules: [Rule] { archive.rules + signature.rules }

    /// The gate's own archive and signature checks on what `verify` read from an ipa, so that `verify` and `check`
    /// judge an archive and its seals the same way.
    package static func integrity(_ integrity: BuildIntegrity) -> (findings: [Finding], coverage: RuleCoverage) {
        var findings: [Finding] = []
        var coverage = RuleCoverage()
        let outcomes = [
            archive.completed(judgeArchive(integrity, isEntitlementsFile: false, rules: archive.rules)),
            signature.completed(
                judgeSignature(integrity, isEntitlementsFile: false, distribution: nil, rules: signature.rules)
            ),
        ]
        for outcome in outcomes {
            findings += outcome.findings
            coverage.merge(outcome.coverage)
        }
        return (Finding.merged(findings), coverage)
    }
}
