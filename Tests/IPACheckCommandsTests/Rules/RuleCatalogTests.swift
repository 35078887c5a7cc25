import Foundation
import IPACheckCommands
import IPACheckGate
import IPACheckReport
import IPACheckTestSupport
import Testing

/// The rule catalogue: every rule declared in the sources is listed once, documented, and docs/rules.md's table is
/// the catalogue's.
struct RuleCatalogTests {
    /// Every rule of every set, with the name it is declared under.
    static func declared() -> [(name: String, rule: Rule)] {
        let inSets = RuleCatalog.families.flatMap(\.sets).flatMap { set in
            Mirror(reflecting: set).children.compactMap { child in
                (child.value as? Rule).map { (child.label ?? "?", $0) }
            }
        }
        // A rule of its own is named by its ID (its type is the unit; tests name the rule).
        return inSets + RuleCatalog.families.flatMap(\.units).map { ($0.id, $0) }
    }

    /// Each rule is declared once: no ID appears in two declarations, and the catalogue is exactly the sets'.
    @Test func everyRuleIsDeclaredOnceAndCatalogued() {
        let declared = Self.declared()
        // The catalogue must hold the rules this test knows exist, or it proves nothing.
        #expect(declared.count >= 180, "only \(declared.count) rules declared")
        #expect(declared.contains { $0.name == "appIDNotListed" && $0.rule.id == "LINK001" })
        let counts = Dictionary(declared.map { ($0.rule.id, [$0.name]) }, uniquingKeysWith: +)
        for (id, names) in counts where names.count > 1 {
            Issue.record("\(id) is declared \(names.count) times: \(names)")
        }
        #expect(RuleCatalog.all.map(\.id) == declared.map(\.rule.id).sorted())
    }

    /// Every set of rules in the sources is in the catalogue: a new set is named in its family's file (its rules
    /// are then listed by reflection).
    @Test func everyRuleSetIsInTheCatalogue() throws {
        let sources = Repository.root.appendingPathComponent("Sources").resolvingSymlinksInPath()
        let declaration = try Regex(#"struct \w+: (Judged)?RuleSet(, EntryRuleSet)? \{"#)
        let sets = try Self.swiftFiles(under: sources).map { $0.matches(of: declaration).count }
        let catalogued = RuleCatalog.families.flatMap(\.sets).count
        #expect(sets.reduce(0, +) == catalogued, "RuleSet declarations vs catalogue sets")
    }

    /// The registry is the family files': every `RuleFamily` declared in a folder of Families is registered, and
    /// nothing else is (scripts/register-rule-families writes it; a family left out of it fails here).
    @Test func theRegistryIsEveryFamilyFile() throws {
        let families = Repository.root.appendingPathComponent("Sources/IPACheckGate/Families")
        // A family file sits in a folder of its own; the registry beside the folders is not one.
        let files = try FileManager.default.contentsOfDirectory(atPath: families.path).flatMap { entry in
            let folder = families.appendingPathComponent(entry)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.map { folder.appendingPathComponent($0) }
        }
        let declaration = try Regex(#"= RuleFamily\(\s*"([A-Z]+)""#)
        var declared: [String] = []
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: declaration) {
                declared += match.output[1].substring.map { [String($0)] } ?? []
            }
        }
        #expect(declared.count >= 13, "only \(declared.count) family files found under \(families.path)")
        #expect(declared.sorted() == RuleFamily.registered.map(\.prefix).sorted())
    }

    /// The rules of one ID prefix are listed in one place: each prefix is one family's, every rule carries its
    /// family's prefix, and each set belongs to one family (a set raising two prefixes would be split).
    @Test func eachPrefixIsOneFamily() {
        let prefixes = RuleCatalog.families.map(\.prefix)
        #expect(Set(prefixes).count == prefixes.count, "a prefix listed twice: \(prefixes)")
        #expect(prefixes.count >= 13, "only \(prefixes.count) families")
        for family in RuleCatalog.families {
            #expect(!family.all.isEmpty, "\(family.prefix) has no rules")
            for rule in family.all {
                let number = rule.id.dropFirst(family.prefix.count)
                #expect(
                    rule.id.hasPrefix(family.prefix) && number.count == 3 && number.allSatisfy(\.isNumber),
                    "\(rule.id) is listed in the \(family.prefix) family"
                )
            }
        }
        // The families the issue named as split: each now lists all its sets in one entry.
        let signature = RuleCatalog.families.first { $0.prefix == "SIG" }?.all.map(\.id) ?? []
        #expect(signature.contains("SIG001") && signature.contains("SIG020") && signature.contains("SIG030"))
        let archive = RuleCatalog.families.first { $0.prefix == "ARC" }?.all.map(\.id) ?? []
        #expect(archive.contains("ARC011"), "ARC011 is declared with the other archive rules")
        let profile = RuleCatalog.families.first { $0.prefix == "PROF" }?.all.map(\.id) ?? []
        #expect(profile.contains("PROF009"), "PROF009 is declared with the other profile rules")
    }

    private static func swiftFiles(under folder: URL) throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        var texts: [String] = []
        while let name = enumerator.nextObject() as? String {
            guard name.hasSuffix(".swift") else { continue }
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

    static let readme = Repository.root.appendingPathComponent("docs/rules.md")
    static let begin = "<!-- rules:begin -->"
    static let end = "<!-- rules:end -->"
    /// docs/rules.md's table is the catalogue's; the markers it sits between must be there (without them the check
    /// would have nothing to compare, and must fail rather than pass).
    @Test func readmeRuleTableIsTheCatalogues() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "docs/rules.md has lost its \(Self.begin) marker")
        let stop = try #require(
            text.range(of: Self.end, range: start.upperBound..<text.endIndex),
            "docs/rules.md has lost its \(Self.end) marker"
        )
        let between = text[start.upperBound..<stop.lowerBound].trimmingCharacters(in: .newlines)
        let expected = RuleCatalog.markdownTable.trimmingCharacters(in: .newlines)
        #expect(
            between == expected,
            "docs/rules.md's rule table is out of date: regenerate it with `ipacheck rules --format markdown`"
        )
    }
}
