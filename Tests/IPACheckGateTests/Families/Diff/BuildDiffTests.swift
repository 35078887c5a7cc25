import IPACheckGate
import IPACheckReport
import IPACheckTestSupport
import Testing

/// The DIFF family in the process, on builds made here: what changed between two builds that breaks links (the
/// CLI's DiffCLITests run the same on python-made pairs through `ipacheck diff`).
struct BuildDiffTests {
    private static func build(_ domains: [String], kind: ConformanceBuild.Kind = .appStore) throws -> String {
        try ConformanceBuild.write(kind: kind, domains: domains, mdm: false)
    }

    @Test("an associated domain signed into the old build and gone from the new one raises DIFF002, an error")
    func aRemovedDomainIsAnError() throws {
        let old = try Self.build(["applinks:a.example.com", "applinks:b.example.com"])
        let new = try Self.build(["applinks:a.example.com"])
        let removed = try BuildDiff.read(old: old, new: new).findings.filter { $0.rule == "DIFF002" }
        #expect(removed.count == 1)
        #expect(removed.first?.severity == .error)
        #expect(removed.first?.message.contains("b.example.com") == true)
        #expect(removed.first?.message.contains("a.example.com") == false)
    }

    @Test("two builds signed alike raise no DIFF finding, and an added domain is no removal")
    func buildsSignedAlikeAreQuiet() throws {
        let domains = ["applinks:a.example.com", "webcredentials:a.example.com"]
        #expect(try BuildDiff.read(old: try Self.build(domains), new: try Self.build(domains)).findings.isEmpty)
        let grown = try BuildDiff.read(old: try Self.build(["applinks:a.example.com"]), new: try Self.build(domains))
        #expect(!grown.findings.contains { $0.rule == "DIFF002" })
    }
}
