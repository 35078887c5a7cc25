import Foundation
import IPACheckAASA
import IPACheckCommands
import IPACheckGate
import IPACheckLinks
import IPACheckPlist
import IPACheckReport
import IPACheckTestSupport
import Testing

/// Every rule shows itself (as SwiftLint's rules do): each triggering example raises its rule and each
/// non-triggering one does not, run through the same code `lint` and `domains` run.
struct RuleExampleTests {
    static let documented = RuleCatalog.all.filter { $0.examples != nil }

    /// Whether `input` raises `rule`.
    static func raises(_ rule: Rule, _ input: String, as kind: RuleExamples.Input) -> Bool {
        switch kind {
        case .aasaDocument:
            do {
                return try AASALinter.lint(bytes: Array(input.utf8), domain: "example.com").findings
                    .contains { $0.rule == rule.id }
            } catch {
                return error.rule.id == rule.id
            }
        case .associatedDomainEntry:
            // One entry a line: the lines make the signed array, so rules about repeats can be shown.
            let entries = input.split(separator: "\n").map { PlistValue.string(String($0)) }
            let entitlements = PlistValue.dictionary([AssociatedDomains.key: .array(entries)])
            let reading = AssociatedDomains.from(entitlements: entitlements, bundle: "Payload/App.app")
            return AssociatedDomainRules.findings(of: reading.problems).contains { $0.rule == rule.id }
        }
    }

    @Test(arguments: documented)
    func everyExampleShowsItsRule(rule: Rule) throws {
        let examples = try #require(rule.examples)
        #expect(!examples.triggering.isEmpty, "\(rule.id) has no triggering example")
        #expect(!examples.nonTriggering.isEmpty, "\(rule.id) has no non-triggering example")
        for example in examples.triggering {
            #expect(Self.raises(rule, example, as: examples.input), "\(rule.id) should fire on:\n\(example)")
        }
        for example in examples.nonTriggering {
            #expect(!Self.raises(rule, example, as: examples.input), "\(rule.id) should stay quiet on:\n\(example)")
        }
    }

    /// The rules whose input is text (an AASA document, an associated-domains entry) declare examples: adding such
    /// a rule means declaring it with its examples.
    @Test func everyTextRuleHasExamples() {
        // Rules whose input is not an entry string, so no example can show them:
        // - ENT001: the entitlement (or one of its elements) is not a string; entry strings always make an array of
        //   strings.
        // - ENT022: raised by `AssociatedDomainRules.alternateModeFindings(_:signing:bundle:)` from the app's signing
        //   (distribution), which the entry alone does not carry; `from(entitlements:bundle:)` never raises it.
        // - AASA002 (not UTF-8), AASA011 and AASA012 (CMS-signed files): their input is bytes no Swift string holds.
        // - AASA006 (past the 8 MB reading cap) and AASA010 (past Apple's 128 KB): their input is too large to be an
        //   example; the size tests of the AASA family build them.
        // - AASA007 (a malformed signed file): only a binary DER prefix triggers it.
        let exempt: Set<String> = [
            "ENT001", "ENT022", "AASA002", "AASA006", "AASA007", "AASA010", "AASA011", "AASA012",
        ]
        let textRules = AASARules.all + AssociatedDomainRules.rules.all
        let missing = textRules.filter { $0.examples == nil && !exempt.contains($0.id) }.map(\.id)
        #expect(missing.isEmpty, "rules without examples: \(missing)")
    }

    /// What a user reads of a rule: its text, and the messages its triggering examples raise.
    static func userText(of rule: Rule) -> [String] {
        var texts = [rule.title, rule.summary, rule.fix]
        guard let examples = rule.examples, examples.input == .aasaDocument else { return texts }
        for example in examples.triggering {
            let findings = try? AASALinter.lint(bytes: Array(example.utf8), domain: "example.com").findings
            texts += (findings ?? []).map(\.message)
        }
        return texts
    }

    /// Matching rules are cited by an anchor a reader can follow (`docs/matching.md#m21`), never by a bare number
    /// ("(M21)") that appears nowhere a user can look it up; and every anchor cited exists.
    @Test func matchingRulesAreCitedByAnchors() throws {
        let matching = try String(
            contentsOf: Repository.root.appendingPathComponent("docs/matching.md"),
            encoding: .utf8
        )
        let bareNumber = try Regex(#"\bM[0-9]{1,2}\b"#)
        let anchor = try Regex(#"#m([0-9]{1,2})\b"#)
        var cited = 0
        for rule in RuleCatalog.all {
            for text in Self.userText(of: rule) {
                #expect(!text.contains(bareNumber), "\(rule.id) cites a bare matching rule: \(text)")
                for match in text.matches(of: anchor) {
                    cited += 1
                    let target = "<a id=\"m\(match.output[1].substring ?? "")\"></a>"
                    #expect(matching.contains(target), "\(rule.id) cites a missing anchor: \(text)")
                }
            }
        }
        #expect(cited > 0, "no rule cites docs/matching.md, so this check proved nothing")
    }
}
