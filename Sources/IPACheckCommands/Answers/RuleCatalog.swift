import Foundation
import IPACheckAASA
import IPACheckBundle
import IPACheckLinks
package import IPACheckReport
import IPACheckSigning
import IPACheckSites

/// Every rule ipacheck can raise, in ID order: the source of the README's rule table, `ipacheck rules` and the
/// SARIF rule catalogue.
package enum RuleCatalog {
    /// Every set of rules: one per file that declares rules, each listing its own by reflection.
    package static let sets: [any RuleSet] =
        [
            ArchiveRules.rules, SealScan.rules, SignatureVerifier.rules, SignedEntitlements.rules, ResourceSeal.rules,
            ProfileChecks.rules, BundleFactRules.rules, BuildDiff.rules, EntitlementsFile.rules,
            DistributionChecks.rules,
            AssociatedDomainRules.rules, EntitlementComparison.rules, ServingRules.rules, CDNRules.rules,
            CrossCheckRules.rules, AppFlipChecks.rules, FirebaseChecks.rules, PlatformFactChecks.rules,
        ] + AASARules.sets

    /// All rules, sorted by ID.
    package static let all: [Rule] = sets.flatMap(\.all).sorted { $0.id < $1.id }

    /// The rules `check` can raise: those its checks declare (``GateChecks``), sorted by ID.
    package static var gate: [Rule] {
        GateChecks.rules.sorted { $0.id < $1.id }
    }

    /// The rule with this ID.
    package static func rule(_ id: String) -> Rule? {
        all.first { $0.id == id }
    }

    /// The rule table as Markdown (ID, severity, title, meaning, fix), as the README carries it.
    package static var markdownTable: String {
        var out = "| ID | severity | rule | what it means | how to fix it |\n|---|---|---|---|---|\n"
        for rule in all {
            let cells = [rule.id, rule.severity.rawValue, rule.title, rule.summary, rule.fix].map {
                $0.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
            }
            out += "| <a id=\"\(rule.id.lowercased())\"></a>" + cells.joined(separator: " | ") + " |\n"
        }
        return out
    }
}
