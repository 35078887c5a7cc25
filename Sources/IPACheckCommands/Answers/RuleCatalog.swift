import Foundation
import IPACheckGate
package import IPACheckReport

/// Every rule ipacheck can raise, in ID order: the source of the rule table of docs/rules.md, `ipacheck rules` and the
/// SARIF rule catalogue.
package enum RuleCatalog {
    /// Every family of rules, as their folders declare them (``RuleFamily/registered``).
    package static var families: [RuleFamily] { RuleFamily.registered }

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
