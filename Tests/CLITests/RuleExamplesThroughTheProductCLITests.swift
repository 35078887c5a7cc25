import Foundation
import IPACheckTestSupport
import Testing

/// Every rule's examples, as `ipacheck rules --format json` publishes them, proven through the product a user runs.
///
/// Not beside it: an AASA document goes through `ipacheck lint`, associated-domains entries signed into a build
/// through `ipacheck domains`. A triggering example raises its rule there; a non-triggering one does not.
struct RuleExamplesThroughTheProductCLITests {
    struct Example: Sendable, CustomStringConvertible {
        let rule: String
        let input: String
        let text: String
        let triggers: Bool
        var description: String { "\(rule) \(triggers ? "triggering" : "non-triggering"): \(text.debugDescription)" }
    }

    /// The examples the product publishes.
    static func examples() throws -> [Example] {
        let result = try CLI.run(["rules", "--format", "json"])
        let rules = try #require(try result.jsonObject()["rules"] as? [[String: Any]])
        return rules.flatMap { rule -> [Example] in
            guard let id = rule["id"] as? String, let examples = rule["examples"] as? [String: Any],
                let input = examples["input"] as? String
            else { return [] }
            let triggering = (examples["triggering"] as? [String]) ?? []
            let quiet = (examples["nonTriggering"] as? [String]) ?? []
            return triggering.map { Example(rule: id, input: input, text: $0, triggers: true) }
                + quiet.map { Example(rule: id, input: input, text: $0, triggers: false) }
        }
    }

    @Test func everyPublishedExampleShowsItsRuleThroughTheProduct() throws {
        let examples = try Self.examples()
        // The catalogue publishes examples of both kinds; a run over none would prove nothing.
        #expect(examples.count >= 100, "only \(examples.count) examples published")
        #expect(Set(examples.map(\.input)) == ["aasaDocument", "associatedDomainEntry"])
        let folder = Scratch.folder.appendingPathComponent("examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, example) in examples.enumerated() {
            let result: CLIResult
            switch example.input {
            case "aasaDocument":
                let file = folder.appendingPathComponent("\(index).json")
                try Data(example.text.utf8).write(to: file)
                result = try CLI.run(["lint", file.path, "--format", "json"])
            default:
                // One entry a line, signed into a build as its associated-domains array ("" is an empty array).
                let entries = example.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let ipa = try ConformanceBuild.write(
                    kind: .appStore,
                    domains: example.text.isEmpty ? [] : entries,
                    mdm: false
                )
                defer { try? FileManager.default.removeItem(atPath: ipa) }
                result = try CLI.run(["domains", ipa, "--format", "json"])
            }
            let findings = (try? result.jsonObject()["findings"] as? [[String: Any]]) ?? []
            let raised = findings.contains { $0["rule"] as? String == example.rule }
            #expect(raised == example.triggers, "\(example): exit \(result.status), \(result.stderr)")
        }
    }
}
