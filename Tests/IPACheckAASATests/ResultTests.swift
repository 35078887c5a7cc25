import Foundation
import IPACheckAASA
import Testing

/// The result shapes the CLI prints: the documented JSON keys (docs/output-formats.md), one-line `why`, explain traces, and the semantic
/// comparison of two documents.
@Suite("AASA results and comparison")
struct ResultTests {
    static let app = "A1B2C3D4E5.com.acme.app"
    static let document =
        #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/buy/*", "exclude": true}, {"/": "/r/*", "?": {"id": "?*"}}, {"/": "/r/*"}]}]}}"#

    private func matcher() throws -> AASAMatcher {
        try AASADocument.parse(Array(Self.document.utf8)).matcher(for: Self.app)
    }

    @Test("JSON uses the documented keys, with rule null when nothing decided (docs/output-formats.md, match)")
    func json() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let none = try matcher().evaluate("https://example.com/x")
        let text = String(decoding: try encoder.encode(none), as: UTF8.self)
        #expect(text.contains(#""rule":null"#))
        #expect(text.contains(#""verdict":"none""#))
        #expect(text.contains(#""appID":"A1B2C3D4E5.com.acme.app""#))
        let block = try matcher().evaluate("https://example.com/buy/42")
        let blockText = String(decoding: try encoder.encode(block), as: UTF8.self)
        #expect(blockText.contains(#""rule":{"component":0,"detail":0}"#))
        let decoded = try JSONDecoder().decode(AASAMatchResult.self, from: try encoder.encode(block))
        #expect(decoded == block)
    }

    @Test("why names the rule as written, the verb and the URL part")
    func why() throws {
        #expect(
            try matcher().evaluate("https://example.com/buy/42").why
                == #"component 0 {"/": "/buy/*", "exclude": true} blocks /buy/42"#
        )
        #expect(try matcher().evaluate("https://example.com/r/7").why == #"component 2 {"/": "/r/*"} matches /r/7"#)
        #expect(try matcher().evaluate("https://example.com/x").why.contains("3 rules tried"))
        #expect(
            try matcher().evaluate("https://example.com/buy/42").textLine.hasPrefix(
                "BLOCK  https://example.com/buy/42  "
            )
        )
    }

    @Test("explain lists every rule with its outcome")
    func explain() throws {
        let explanation = try matcher().explain("https://example.com/r/7")
        #expect(explanation.steps.map(\.outcome) == [.failed, .failed, .matched])
        #expect(explanation.steps[1].reason.contains(#"query item "id" is missing"#))
        #expect(explanation.steps[0].reason.contains(#"does not match "/buy/*""#))
        let shadow = try matcher().explain("https://example.com/r/7?id=1")
        #expect(shadow.steps.map(\.outcome) == [.failed, .matched, .shadowed])
        #expect(shadow.textLines.count == 4)
    }

    @Test("app not listed and wrong host give none with a reason")
    func notListed() throws {
        let document = try AASADocument.parse(Array(Self.document.utf8))
        let other = document.matcher(for: "A1B2C3D4E5.com.acme.other").evaluate("https://example.com/r/1")
        #expect(other.verdict == .none)
        #expect(other.why.contains("not listed in applinks.details"))
        let host = document.matcher(for: Self.app, domain: "*.example.com").evaluate("https://example.com/r/1")
        #expect(host.verdict == .none)  // *.example.com does not cover the apex (Apple-archived)
        let sub = document.matcher(for: Self.app, domain: "*.example.com").evaluate("https://www.example.com/r/1")
        #expect(sub.verdict == .match)
    }

    @Test("semantic comparison ignores formatting, comments, slashes and key order")
    func equivalentDocuments() throws {
        let origin =
            #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/r/*", "comment": "reports", "?": {"b": "1", "a": "2"}}]}]}, "webcredentials": {"apps": ["A1B2C3D4E5.com.acme.app"]}}"#
        let cdn =
            #"{"webcredentials":{"apps":["A1B2C3D4E5.com.acme.app"]},"applinks":{"details":[{"components":[{"?":{"a":"2","b":"1"},"/":"r/*/"}],"appIDs":["A1B2C3D4E5.com.acme.app"]}]}}"#
        let first = try AASADocument.parse(Array(origin.utf8))
        let second = try AASADocument.parse(Array(cdn.utf8))
        #expect(first.differences(to: second).isEmpty)
        #expect(first.appEntries.count == 2)
    }

    @Test("semantic comparison reports changed, added and removed apps")
    func changedDocuments() throws {
        let before =
            #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/r/*"}]}]}}"#
        let after =
            #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/r/*", "exclude": true}]}]}, "webcredentials": {"apps": ["A1B2C3D4E5.com.acme.app"]}}"#
        let first = try AASADocument.parse(Array(before.utf8))
        let second = try AASADocument.parse(Array(after.utf8))
        let changes = first.differences(to: second)
        #expect(changes.map(\.change) == [.rulesChanged, .added])
        #expect(changes.map(\.service) == [.applinks, .webcredentials])
    }

    @Test("the legacy paths form and its components equivalent compare equal")
    func legacyEquivalent() throws {
        let legacy =
            #"{"applinks": {"apps": [], "details": [{"appID": "A1B2C3D4E5.com.acme.app", "paths": ["NOT /a/*", "/b"]}]}}"#
        let modern =
            #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/a/*", "exclude": true}, {"/": "/b"}]}]}}"#
        let first = try AASADocument.parse(Array(legacy.utf8))
        let second = try AASADocument.parse(Array(modern.utf8))
        #expect(first.differences(to: second).isEmpty)
    }

    @Test("$(region) excludes numeric areas and UK, includes GB (ISO 3166-1 alpha-2)")
    func regions() throws {
        let text =
            #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/$(region)"}]}]}}"#
        let matcher = try AASADocument.parse(Array(text.utf8)).matcher(for: Self.app)
        #expect(matcher.evaluate("https://example.com/GB").verdict == .match)
        #expect(matcher.evaluate("https://example.com/FR").verdict == .match)
        #expect(matcher.evaluate("https://example.com/UK").verdict == .none)
        #expect(matcher.evaluate("https://example.com/001").verdict == .none)
    }

    @Test("star-heavy patterns stay fast (no exponential backtracking)")
    func pathological() throws {
        let stars = String(repeating: "*a", count: 40) + "*b"
        let text =
            #"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/"# + stars
            + #""}, {"/": "/$(v)"# + stars + #""}]}], "substitutionVariables": {"v": ["a", "aa", "*a"]}}}"#
        let matcher = try AASADocument.parse(Array(text.utf8)).matcher(for: Self.app)
        let url = "https://example.com/" + String(repeating: "a", count: 5_000)
        #expect(matcher.evaluate(url).verdict == .none)
        #expect(matcher.evaluate(url + "b").verdict == .match)
    }
}
