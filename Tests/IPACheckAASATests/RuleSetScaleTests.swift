import Foundation
import IPACheckAASA
import Testing

/// The semantic comparison of two documents (the origin file against Apple's CDN copy) on files far larger than
/// Apple reads: the same answers as on small files, in time and memory linear in the files.
struct RuleSetScaleTests {
    static func document(
        appIDs: Int,
        components: [[String: String]],
        variables: [String: [String]] = [:]
    ) throws -> AASADocument {
        let ids = (0..<appIDs).map { "A1B2C3D4E5.com.acme.app\($0)" }
        let applinks: [String: Any] = [
            "substitutionVariables": variables,
            "details": [["appIDs": ids, "components": components]],
        ]
        let data = try JSONSerialization.data(withJSONObject: ["applinks": applinks])
        return try AASADocument.parse(Array(data))
    }

    /// 2,000 app IDs listed beside 500 rules: the rules were built and compared once per app ID (a million rules
    /// per document); now once per details entry.
    @Test func manyAppIDsBesideManyRules() throws {
        let components = (0..<500).map { ["/": "/page\($0)/*"] }
        let origin = try Self.document(appIDs: 2_000, components: components)
        let copy = try Self.document(appIDs: 2_000, components: components)
        let changed = try Self.document(appIDs: 2_000, components: components.dropLast() + [["/": "/other/*"]])
        #expect(origin.appEntries.count == 2_000)
        #expect(origin.appEntries.allSatisfy { $0.rules.count == 500 })
        #expect(origin.differences(to: copy).isEmpty)
        let differences = origin.differences(to: changed)
        #expect(differences.count == 2_000)
        #expect(differences.allSatisfy { $0.change == .rulesChanged })
    }

    /// 2,000 rules using a 50,000-value variable: its values were compared again for every rule; now once.
    @Test func largeVariableIsComparedOnce() throws {
        let values = (0..<50_000).map { "value\($0)" }
        let components = (0..<2_000).map { ["/": "/$(v)/\($0)"] }
        let origin = try Self.document(appIDs: 1, components: components, variables: ["v": values])
        let copy = try Self.document(appIDs: 1, components: components, variables: ["v": values])
        let changed = try Self.document(
            appIDs: 1,
            components: components,
            variables: ["v": values.dropLast() + ["other"]]
        )
        #expect(origin.differences(to: copy).isEmpty)
        #expect(origin.differences(to: changed).map(\.change) == [.rulesChanged])
    }
}
