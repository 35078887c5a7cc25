import Foundation
import IPACheckTestSupport
import Testing

/// `ipacheck diff OLD NEW` on pairs of builds that differ in exactly one way each (scripts/make-diff-pairs.py):
/// every regression a re-signing tool causes is named, removals fail, equal builds pass.
struct DiffCLITests {
    /// The pairs, built once for the whole suite.
    static let pairs: Result<URL, any Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ipacheck-diff-\(UUID())")
        let script = Repository.root.appendingPathComponent("scripts/make-diff-pairs.py").path
        let run = try Python.run(
            script:
                "import runpy, sys; sys.argv = [sys.argv[1], sys.argv[2]]; runpy.run_path(sys.argv[0], run_name='__main__')",
            arguments: [script, folder.path]
        )
        guard run.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["output": run.output]) }
        return folder
    }

    /// One variant: its name, the exit status, and the rule IDs of its findings, each with what it must say.
    struct Case: Sendable, CustomTestStringConvertible {
        let variant: String
        let status: Int32
        let findings: [(rule: String, says: String)]
        var testDescription: String { variant }
    }

    static let cases: [Case] = [
        Case(variant: "same", status: 0, findings: []),
        Case(
            variant: "domain-dropped",
            status: 1,
            findings: [("DIFF002", "applinks:diff.example is no longer signed")]
        ),
        Case(
            variant: "wildcard",
            status: 1,
            findings: [
                ("DIFF002", "applinks:diff.example is no longer signed"),
                ("DIFF002", "webcredentials:diff.example is no longer signed"),
                ("DIFF009", "associated domain * is new"),
            ]
        ),
        Case(variant: "der-gone", status: 1, findings: [("DIFF005", "no longer carries DER entitlements")]),
        Case(
            variant: "app-id",
            status: 1,
            findings: [
                ("DIFF004", "is now 7QX3KD52VH.com.acme.other (was 7QX3KD52VH.com.acme.diff)"),
                ("DIFF004", "is now 7QX3KD52VH.com.acme.other.share (was 7QX3KD52VH.com.acme.diff.share)"),
                ("DIFF006", "keychain-access-groups"),
            ]
        ),
        Case(
            variant: "team",
            status: 1,
            findings: [
                ("DIFF004", "is now ZZZZZ99999.com.acme.diff (was 7QX3KD52VH.com.acme.diff)"),
                ("DIFF004", "is now ZZZZZ99999.com.acme.diff.share"),
                ("DIFF006", "com.apple.developer.team-identifier is ZZZZZ99999 (was 7QX3KD52VH)"),
                ("DIFF006", "keychain-access-groups"),
                ("DIFF008", "the code is signed by team ZZZZZ99999 (was team 7QX3KD52VH)"),
            ]
        ),
        Case(
            variant: "profile-kind",
            status: 0,
            findings: [("DIFF007", "the embedded profile is development (was app-store)")]
        ),
        Case(
            variant: "extension-domains",
            status: 1,
            findings: [("DIFF002", "webcredentials:diff.example is no longer signed")]
        ),
        Case(variant: "entitlement-changed", status: 0, findings: [("DIFF006", "keychain-access-groups")]),
        Case(
            variant: "entitlement-removed",
            status: 1,
            findings: [("DIFF003", "keychain-access-groups is no longer signed (was [7QX3KD52VH.com.acme.diff])")]
        ),
        Case(
            variant: "extension-removed",
            status: 1,
            findings: [("DIFF001", "PlugIns/Share.appex is not in the new build")]
        ),
        Case(variant: "domain-added", status: 0, findings: [("DIFF009", "applinks:new.diff.example is new")]),
    ]

    @Test(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 to build the pairs"), arguments: cases)
    func namesEachDifference(_ testCase: Case) throws {
        let folder = try Self.pairs.get()
        let base = folder.appendingPathComponent("base.ipa").path
        let variant = folder.appendingPathComponent("\(testCase.variant).ipa").path
        let result = try CLI.run(["diff", base, variant, "--format", "json"])
        #expect(result.status == testCase.status, "\(result.stderr)")
        let findings = try #require(try result.jsonObject()["findings"] as? [[String: Any]])
        let got = findings.map { ($0["rule"] as? String ?? "", $0["message"] as? String ?? "") }.sorted { $0.0 < $1.0 }
        #expect(got.map(\.0) == testCase.findings.map(\.rule).sorted(), "\(got)")
        for expected in testCase.findings {
            #expect(got.contains { $0.0 == expected.rule && $0.1.contains(expected.says) }, "\(expected) in \(got)")
        }
    }

    /// Every output format of `check` carries the same verdict.
    @Test(
        .enabled(if: Python.isAvailable || Python.isCI, "needs python3 to build the pairs"),
        arguments: ["text", "json", "sarif", "junit", "github"]
    )
    func everyFormatFailsOnARemoval(format: String) throws {
        let folder = try Self.pairs.get()
        let result = try CLI.run([
            "diff", folder.appendingPathComponent("base.ipa").path,
            folder.appendingPathComponent("domain-dropped.ipa").path, "--format", format,
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("DIFF002"), "\(format): \(result.stdout)")
    }

    @Test func anUnreadableBuildIsAnInputError() throws {
        let result = try CLI.run(["diff", SampleFiles.acme, SampleFiles.broken("NotAZip.ipa")])
        #expect(result.status == 2)
        #expect(result.stderr.contains(SampleFiles.broken("NotAZip.ipa")))
    }
}
