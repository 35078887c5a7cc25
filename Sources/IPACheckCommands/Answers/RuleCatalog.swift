import Foundation
import IPACheckAASA
import IPACheckBundle
import IPACheckGate
import IPACheckLinks
package import IPACheckReport
import IPACheckSigning
import IPACheckSites

/// Every rule ipacheck can raise, in ID order: the source of the rule table of docs/rules.md, `ipacheck rules` and the
/// SARIF rule catalogue.
package enum RuleCatalog {
    /// Every rule, by ID prefix: each prefix once, with the sets that declare its rules.
    ///
    /// Each set sits beside the code that raises its rules and lists them by reflection; a new rule takes the next
    /// free ID of its family.
    package static let families: [RuleFamily] = [
        RuleFamily("ARC", sets: [ArchiveRules.rules]),
        RuleFamily("SIG", sets: [SignatureVerifier.rules, SignedEntitlements.rules, ResourceSeal.rules]),
        RuleFamily("PROF", sets: [ProfileChecks.rules, ProfileChecks.releaseRules]),
        RuleFamily("DIST", sets: [DistributionChecks.rules]),
        RuleFamily("ENT", sets: [AssociatedDomainRules.rules, EntitlementComparison.rules, EntitlementsFile.rules]),
        RuleFamily("SERVE", sets: [ServingRules.rules]),
        RuleFamily("CDN", sets: [CDNRules.rules]),
        RuleFamily("AASA", sets: AASARules.sets),
        RuleFamily("LINK", sets: [CrossCheckRules.rules]),
        RuleFamily("FLIP", sets: [AppFlipChecks.rules]),
        RuleFamily("FIRE", sets: [FirebaseChecks.rules]),
        RuleFamily("PLAT", sets: [PlatformFactChecks.rules]),
        RuleFamily("DIFF", sets: [BuildDiff.rules]),
    ]

    /// All rules, sorted by ID.
    package static let all: [Rule] = families.flatMap(\.all).sorted { $0.id < $1.id }

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
