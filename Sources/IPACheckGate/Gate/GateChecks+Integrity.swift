package import Foundation
package import IPACheckArchive
package import IPACheckBundle
import IPACheckFetching
package import IPACheckReport
import IPACheckSigning

extension GateChecks {
    /// The rules of the archive check, which also judges a bare Mach-O's reading.
    package static var archiveRules: [Rule] { archive.rules }

    /// The gate's own archive and signature checks on what `verify` read from an ipa, so that `verify` and `check`
    /// judge an archive and its seals the same way.
    ///
    /// - Parameters:
    ///   - archiveFindings: What reading the archive and the seal pass found.
    ///   - seals: Every bundle's seal, as the seal pass checked it.
    ///   - trustFindings: Every code signer's trust, evaluated once per signer.
    ///   - resourcesChecked: Whether the seals were compared with the bundles' files (not with `--no-resources`).
    package static func integrity(
        path: String,
        archiveFindings: [Finding],
        seals: [BundleSealCheck],
        trustFindings: [Finding],
        resourcesChecked: Bool,
        limits: ArchiveLimits,
        now: Date
    ) -> (findings: [Finding], coverage: RuleCoverage) {
        let build = ReleaseGate.InspectedBuild(
            path: path,
            archiveFindings: archiveFindings,
            facts: [],
            seals: seals,
            firebase: [],
            mainExecutableStrings: nil,
            targets: [],
            trustFindings: trustFindings,
            resourcesChecked: resourcesChecked
        )
        let input = GateInput(
            build: build,
            documents: SiteDocuments([]),
            options: GateOptions(fetch: FetchOptions(), fetcher: nil, now: now, archiveLimits: limits),
            distribution: nil
        )
        var findings: [Finding] = []
        var coverage = RuleCoverage()
        for check in [archive, signature] {
            let outcome = check.outcome(on: input)
            findings += outcome.findings
            coverage.merge(outcome.coverage)
        }
        return (Finding.merged(findings), coverage)
    }
}
