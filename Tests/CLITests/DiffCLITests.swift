import Foundation
import IPACheckTestSupport
import Testing

/// `ipacheck diff OLD NEW` on pairs of builds that differ in exactly one way each (scripts/make-diff-pairs.py):
/// every regression a re-signing tool causes is named, removals fail, equal builds pass.
struct DiffCLITests {
    /// The pairs, built once for the whole suite.
    static let pairs: Result<URL, any Error> = Result {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-diff-\(UUID())")
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

    // The values are scripts/make-diff-pairs.py's: its base is team 7QX3KD52VH, com.acme.diff 2.4.0 (240), iOS 16.0,
    // an App Store profile expiring 2031-01-01; each variant's docstring line says what it changes.
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
                ("DIFF011", "is for App ID 7QX3KD52VH.com.acme.other (was 7QX3KD52VH.com.acme.diff)"),
                ("DIFF011", "is for App ID 7QX3KD52VH.com.acme.other.share (was 7QX3KD52VH.com.acme.diff.share)"),
            ]
        ),
        Case(
            variant: "app-id-gone",
            status: 1,
            findings: [("DIFF004", "application-identifier is gone (was 7QX3KD52VH.com.acme.diff)")]
        ),
        Case(
            variant: "team",
            status: 1,
            findings: [
                ("DIFF004", "is now ZZZZZ99999.com.acme.diff (was 7QX3KD52VH.com.acme.diff)"),
                ("DIFF004", "is now ZZZZZ99999.com.acme.diff.share"),
                ("DIFF006", "com.apple.developer.team-identifier is ZZZZZ99999 (was 7QX3KD52VH)"),
                ("DIFF006", "keychain-access-groups"),
                (
                    "DIFF008",
                    "the code is signed by team ZZZZZ99999, certificate \"Apple Distribution: Acme Sample Team "
                        + "(ZZZZZ99999)\" (was team 7QX3KD52VH, certificate"
                ),
                ("DIFF010", "the embedded profile is of team ZZZZZ99999 (was team 7QX3KD52VH)"),
                ("DIFF011", "is for App ID ZZZZZ99999.com.acme.diff (was 7QX3KD52VH.com.acme.diff)"),
                ("DIFF011", "is for App ID ZZZZZ99999.com.acme.diff.share"),
                ("DIFF014", "grants com.apple.developer.team-identifier = ZZZZZ99999 (was 7QX3KD52VH)"),
                ("DIFF014", "grants keychain-access-groups = [ZZZZZ99999.*] (was [7QX3KD52VH.*])"),
            ]
        ),
        Case(
            variant: "profile-kind",
            status: 0,
            findings: [
                ("DIFF007", "the embedded profile is development (was app-store)"),
                ("DIFF014", "the embedded profile grants get-task-allow = true (was false)"),
            ]
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
        // A change in one blob only is found, and the blob is named (issue: it was "no differences").
        Case(
            variant: "xml-domain-dropped",
            status: 1,
            findings: [("DIFF002", "XML entitlements blob: applinks:diff.example is no longer signed")]
        ),
        Case(
            variant: "der-domain-dropped",
            status: 1,
            findings: [("DIFF002", "DER entitlements blob: applinks:diff.example is no longer signed")]
        ),
        Case(
            variant: "der-entitlement-changed",
            status: 0,
            findings: [
                (
                    "DIFF006",
                    "DER entitlements blob: keychain-access-groups is [7QX3KD52VH.com.acme.shared] "
                        + "(was [7QX3KD52VH.com.acme.diff])"
                )
            ]
        ),
        // A profile of another team and App ID (issue: it was only "ad-hoc (was app-store)").
        Case(
            variant: "profile-other",
            status: 1,
            findings: [
                ("DIFF007", "the embedded profile is ad-hoc (was app-store)"),
                ("DIFF010", "the embedded profile is of team ZZZZZ99999 (was team 7QX3KD52VH)"),
                ("DIFF011", "is for App ID ZZZZZ99999.com.acme.other (was 7QX3KD52VH.com.acme.diff)"),
                ("DIFF012", "UUID 0D1FF000-0000-4000-8000-0000000074E0 (was "),
                ("DIFF013", "expires 2029-01-01T00:00:00Z (was 2031-01-01T00:00:00Z)"),
                ("DIFF014", "grants com.apple.developer.team-identifier = ZZZZZ99999 (was 7QX3KD52VH)"),
                ("DIFF014", "grants keychain-access-groups = [ZZZZZ99999.*] (was [7QX3KD52VH.*])"),
            ]
        ),
        Case(
            variant: "profile-renewed",
            status: 0,
            findings: [
                ("DIFF012", "UUID 0D1FF000-0000-4000-8000-000000000002 (was "),
                ("DIFF012", "now expires 2032-01-01T00:00:00Z (was 2031-01-01T00:00:00Z)"),
            ]
        ),
        Case(
            variant: "profile-sooner",
            status: 0,
            findings: [("DIFF013", "the embedded profile expires 2029-01-01T00:00:00Z (was 2031-01-01T00:00:00Z)")]
        ),
        Case(
            variant: "profile-grant-dropped",
            status: 0,
            findings: [("DIFF014", "no longer grants com.apple.developer.associated-domains (was *)")]
        ),
        Case(
            variant: "version",
            status: 0,
            findings: [
                ("DIFF015", "CFBundleShortVersionString is 2.5.0 (was 2.4.0)"),
                ("DIFF015", "CFBundleVersion is 250 (was 240)"),
            ]
        ),
        Case(variant: "build-lowered", status: 0, findings: [("DIFF016", "CFBundleVersion is 239, lower than 240")]),
        Case(variant: "min-os", status: 0, findings: [("DIFF018", "MinimumOSVersion is 17.0 (was 16.0)")]),
        Case(
            variant: "platform",
            status: 0,
            findings: [("DIFF017", "the bundle is built for iphonesimulator (was iphoneos)")]
        ),
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

    /// A difference one blob alone shows names that blob in JSON too; one both show alike names none.
    @Test(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 to build the pairs"))
    func aDifferenceInOneBlobNamesIt() throws {
        let folder = try Self.pairs.get()
        func changes(_ old: String, _ new: String) throws -> [[String: Any]] {
            let result = try CLI.run([
                "diff", folder.appendingPathComponent("\(old).ipa").path,
                folder.appendingPathComponent("\(new).ipa").path, "--format", "json",
            ])
            let bundles = try #require(try result.jsonObject()["bundles"] as? [[String: Any]])
            return bundles.flatMap { $0["changes"] as? [[String: Any]] ?? [] }
        }
        let xmlOnly = try changes("base", "xml-domain-dropped")
        #expect(xmlOnly.count == 1, "\(xmlOnly)")
        #expect(xmlOnly.first?["blob"] as? String == "XML", "\(xmlOnly)")
        #expect(xmlOnly.first?["name"] as? String == "applinks:diff.example", "\(xmlOnly)")
        let derOnly = try changes("base", "der-entitlement-changed")
        #expect(derOnly.first?["blob"] as? String == "DER", "\(derOnly)")
        let both = try changes("base", "domain-dropped")
        #expect(both.count == 1 && both.first?["blob"] == nil, "\(both)")
        // The other way round, the entry is new in the XML blob only: a note, exit 0.
        let back = try CLI.run([
            "diff", folder.appendingPathComponent("xml-domain-dropped.ipa").path,
            folder.appendingPathComponent("base.ipa").path, "--format", "json",
        ])
        #expect(back.status == 0, "\(back.stdout)")
        let findings = try #require(try back.jsonObject()["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["DIFF009"], "\(findings)")
        #expect(
            (findings.first?["message"] as? String)?.contains("XML entitlements blob: associated domain") == true,
            "\(findings)"
        )
    }

    /// `diff --help` says which rules are errors, warnings and notes, and says it as the findings do: every rule
    /// of the catalogue (`ipacheck rules`) is listed under its severity, and so is every finding the pairs raise.
    @Test(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 to build the pairs"))
    func theHelpStatesTheSeveritiesFindingsGet() throws {
        let help = try CLI.run(["diff", "--help"])
        #expect(help.status == 0)
        var listed: [String: String] = [:]
        var heading: String?
        for line in help.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(separator: " ")
            if line.hasPrefix("Errors") {
                heading = "error"
            } else if line.hasPrefix("Warnings") {
                heading = "warning"
            } else if line.hasPrefix("Notes") {
                heading = "note"
            } else if let heading, line.hasPrefix("  "), let id = words.first, id.hasPrefix("DIFF") {
                listed[String(id)] = heading
            } else {
                heading = nil
            }
        }
        let catalogue = try JSONSerialization.jsonObject(
            with: Data(try CLI.run(["rules", "--format", "json"]).stdout.utf8)
        )
        let rules = try #require((catalogue as? [String: Any])?["rules"] as? [[String: Any]]).filter {
            ($0["id"] as? String)?.hasPrefix("DIFF") == true
        }
        #expect(rules.count >= 18, "\(rules.count) DIFF rules")
        for rule in rules {
            let id = rule["id"] as? String ?? ""
            #expect(listed[id] == rule["severity"] as? String, "\(id) in --help: \(listed[id] ?? "not listed")")
        }
        #expect(listed.count == rules.count, "\(listed)")
        // What the findings really carry, whatever the catalogue says.
        let folder = try Self.pairs.get()
        var seen: Set<String> = []
        for testCase in Self.cases {
            let result = try CLI.run([
                "diff", folder.appendingPathComponent("base.ipa").path,
                folder.appendingPathComponent("\(testCase.variant).ipa").path, "--format", "json",
            ])
            for finding in try #require(try result.jsonObject()["findings"] as? [[String: Any]]) {
                let id = finding["rule"] as? String ?? ""
                seen.insert(id)
                #expect(listed[id] == finding["severity"] as? String, "\(id): \(finding)")
            }
        }
        #expect(seen.count >= 18, "\(seen.sorted())")
        #expect(!help.stdout.contains("changes are warnings"))
    }

    @Test func anUnreadableBuildIsAnInputError() throws {
        let result = try CLI.run(["diff", SampleFiles.acme, SampleFiles.broken("NotAZip.ipa")])
        #expect(result.status == 2)
        #expect(result.stderr.contains(SampleFiles.broken("NotAZip.ipa")))
    }
}
