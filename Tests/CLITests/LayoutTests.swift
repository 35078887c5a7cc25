import Foundation
import IPACheckTestSupport
import Testing

/// The architecture page (docs/architecture.md) names every source target and nothing that is not one.
struct LayoutTests {
    @Test func theTargetGraphNamesEverySourceFolder() throws {
        let page = try String(
            contentsOf: Repository.root.appendingPathComponent("docs/architecture.md"),
            encoding: .utf8
        )
        let start = try #require(page.range(of: "# Layout\n"))
        let end = page.range(of: "\n## ", range: start.upperBound..<page.endIndex)?.lowerBound ?? page.endIndex
        let section = page[start.upperBound..<end]
        let graph = try #require(section.components(separatedBy: "```").dropFirst().first)
        let named = Set(
            graph.split(separator: "\n").compactMap { line -> [String]? in
                // A target line starts with its name(s), then two spaces: `CZip, CPlist      systemLibrary…`.
                guard !line.hasPrefix(" "), let names = line.components(separatedBy: "  ").first else { return nil }
                return names.components(separatedBy: ", ")
            }.flatMap { $0 }
        )
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: Repository.root.appendingPathComponent("Sources").path
        ).filter { !$0.hasPrefix(".") }
        #expect(folders.count >= 10, "only \(folders) under Sources/")
        #expect(
            Set(folders) == named,
            "docs/architecture.md names \(named.sorted()); Sources holds \(folders.sorted())"
        )
    }

    /// `Tests/` mirrors `Sources/`: every module of ours has its test target, named for it.
    @Test func everyModuleHasItsTestTarget() throws {
        let sources = try FileManager.default.contentsOfDirectory(
            atPath: Repository.root.appendingPathComponent("Sources").path
        ).filter { $0.hasPrefix("IPACheck") }
        let tests = Set(
            try FileManager.default.contentsOfDirectory(atPath: Repository.root.appendingPathComponent("Tests").path)
        )
        #expect(sources.count >= 10, "only \(sources) under Sources/")
        let missing = sources.filter { !tests.contains($0 + "Tests") }.sorted()
        #expect(missing.isEmpty, "modules without a test target: \(missing)")
    }
}
