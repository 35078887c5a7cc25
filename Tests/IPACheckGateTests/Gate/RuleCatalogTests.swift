import Foundation
import IPACheckGate
import IPACheckReport
import IPACheckTestSupport
import Testing

/// The rule catalogue: every rule declared in the sources is listed once, documented, and the README's table is
/// the catalogue's.
struct RuleCatalogTests {
    /// Every rule ID declared with `Rule(` followed by a string literal anywhere under Sources/, read from the
    /// source text (so a rule added to a file but forgotten in its group's list is caught).
    static func declaredIDs() throws -> [(id: String, file: String)] {
        let sources = Repository.root.appendingPathComponent("Sources").resolvingSymlinksInPath()
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        let pattern = try NSRegularExpression(pattern: #"\bRule\(\s*"([A-Z]+[0-9]+)""#)
        var found: [(id: String, file: String)] = []
        while let name = enumerator.nextObject() as? String {
            guard name.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.matches(in: text, range: range) {
                guard let idRange = Range(match.range(at: 1), in: text) else { continue }
                found.append((String(text[idRange]), name))
            }
        }
        return found
    }

    @Test func everyDeclaredRuleIsInTheCatalogueOnce() throws {
        let declared = try Self.declaredIDs()
        // The scan must find the rules this test knows exist, or it proves nothing.
        #expect(declared.count >= 100, "only \(declared.count) declarations found under Sources/")
        #expect(declared.contains { $0.id == "LINK001" && $0.file.hasSuffix("CrossCheckRules.swift") })
        let catalogue = RuleCatalog.all.map(\.id)
        for rule in declared {
            #expect(
                catalogue.filter { $0 == rule.id }.count == 1,
                "\(rule.id) (\(rule.file)) is not in RuleCatalog.all once"
            )
        }
        let declaredCounts = Dictionary(declared.map { ($0.id, [$0.file]) }, uniquingKeysWith: +)
        for (id, files) in declaredCounts where files.count > 1 {
            Issue.record("\(id) is declared \(files.count) times: \(files)")
        }
        #expect(Set(catalogue) == Set(declared.map(\.id)), "the catalogue lists rules no source declares")
    }

    /// Every rule has tests that make it fire and keep it quiet (issue 6).
    ///
    /// This guard catches a rule nobody tests: some test other than this file must name it, by ID or by its
    /// declaration's Swift name.
    @Test func everyRuleIsNamedBySomeTest() throws {
        let sources = Repository.root.appendingPathComponent("Sources").resolvingSymlinksInPath()
        let declaration = try NSRegularExpression(pattern: #"static let (\w+)\s*=\s*Rule\(\s*"([A-Z]+[0-9]+)""#)
        var rules: [(name: String, id: String)] = []
        for text in try Self.swiftFiles(under: sources) {
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let name = Range(match.range(at: 1), in: text), let id = Range(match.range(at: 2), in: text)
                else { continue }
                rules.append((String(text[name]), String(text[id])))
            }
        }
        #expect(rules.count == RuleCatalog.all.count, "declarations found: \(rules.count)")
        let tests = Repository.root.appendingPathComponent("Tests").resolvingSymlinksInPath()
        let testText = try Self.swiftFiles(under: tests, excluding: "RuleCatalogTests.swift").joined(separator: "\n")
        for rule in rules where !testText.contains(rule.id) && !testText.contains(".\(rule.name)") {
            Issue.record("no test names \(rule.id) (\(rule.name))")
        }
    }

    private static func swiftFiles(under folder: URL, excluding excluded: String? = nil) throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        var texts: [String] = []
        while let name = enumerator.nextObject() as? String {
            guard name.hasSuffix(".swift"), excluded.map({ !name.hasSuffix($0) }) ?? true else { continue }
            texts.append(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
        }
        return texts
    }

    @Test func idsAreUniqueAndSorted() {
        let ids = RuleCatalog.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
        for number in 1...10 {
            #expect(RuleCatalog.rule(String(format: "LINK%03d", number)) != nil)
        }
    }

    @Test func everyRuleIsDocumented() {
        for rule in RuleCatalog.all {
            #expect(rule.id.range(of: #"^[A-Z]+[0-9]{3}$"#, options: .regularExpression) != nil, "\(rule.id)")
            #expect(!rule.title.trimmingCharacters(in: .whitespaces).isEmpty, "\(rule.id) has no title")
            #expect(!rule.summary.trimmingCharacters(in: .whitespaces).isEmpty, "\(rule.id) has no summary")
            #expect(!rule.fix.trimmingCharacters(in: .whitespaces).isEmpty, "\(rule.id) has no fix")
        }
    }

    @Test func markdownTableHasOneRowPerRule() {
        let rows = RuleCatalog.markdownTable.split(separator: "\n").filter { $0.hasPrefix("| <a id=") }
        #expect(rows.count == RuleCatalog.all.count)
        for (row, rule) in zip(rows, RuleCatalog.all) {
            #expect(row.contains("<a id=\"\(rule.id.lowercased())\"></a>\(rule.id) |"))
        }
    }

    static let readme = Repository.root.appendingPathComponent("README.md")
    static let begin = "<!-- rules:begin -->"
    static let end = "<!-- rules:end -->"
    static let readmeHasMarkers: Bool = {
        guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return false }
        return text.contains(begin) && text.contains(end)
    }()

    @Test(.enabled(if: readmeHasMarkers, "README.md has no <!-- rules:begin --> / <!-- rules:end --> markers yet"))
    func readmeRuleTableIsTheCatalogues() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin))
        let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex))
        let between = text[start.upperBound..<stop.lowerBound].trimmingCharacters(in: .newlines)
        let expected = RuleCatalog.markdownTable.trimmingCharacters(in: .newlines)
        #expect(
            between == expected,
            "README.md's rule table is out of date: regenerate it with `ipacheck rules --format markdown`"
        )
    }
}
