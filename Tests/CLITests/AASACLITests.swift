import Foundation
import IPACheckTestSupport
import Testing

/// `ipacheck match`, `lint`, `explain` and `aasa` on the sample AASA files.
///
/// Verdicts are derived by hand from Samples/aasa/acme.example's rules for `7QX3KD52VH.com.acme.shop`
/// (details[0]: 0 exclude /account/*, 1 /products/*, 2 /cart, 3 /* with ?promo=?*, 4 /appflip/link) and Apple's
/// semantics (docs/matching.md M1: first matching rule wins; a missing query item counts as empty, which `?*` rejects).
struct AASACLITests {
    static let appID = "7QX3KD52VH.com.acme.shop"

    /// (URL, verdict, deciding rule as (detail, component)).
    static let expectations: [(url: String, verdict: String, rule: (Int, Int)?)] = [
        ("https://acme.example/products/42", "match", (0, 1)),
        ("https://acme.example/cart", "match", (0, 2)),
        ("https://acme.example/account/settings", "block", (0, 0)),
        ("https://acme.example/account/settings?promo=x", "block", (0, 0)),
        ("https://acme.example/blog?promo=spring", "match", (0, 3)),
        ("https://acme.example/blog", "none", nil),
        (
            "https://acme.example/appflip/link?client_id=acme-google-home&scope=profile&state=s"
                + "&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.Chromecast",
            "match", (0, 4)
        ),
    ]

    // MARK: - match

    @Test func matchJSONGivesEachVerdictAndRule() throws {
        let urls = Self.expectations.map(\.url)
        let result = try CLI.run(
            ["match"] + urls + ["--app-id", Self.appID, "--aasa", SampleFiles.apexAASA, "--format", "json"]
        )
        #expect(result.status == 1, "some URLs do not open the app")
        let results = try #require(try result.jsonObject()["results"] as? [[String: Any]])
        #expect(results.count == Self.expectations.count)
        for (got, want) in zip(results, Self.expectations) {
            #expect(Set(got.keys).isSuperset(of: ["url", "appID", "verdict", "rule", "why"]))
            #expect(got["url"] as? String == want.url)
            #expect(got["appID"] as? String == Self.appID)
            #expect(got["verdict"] as? String == want.verdict, "\(want.url)")
            #expect(!(got["why"] as? String ?? "").isEmpty)
            if let (detail, component) = want.rule {
                let rule = try #require(got["rule"] as? [String: Any], "\(want.url)")
                #expect(rule["detail"] as? Int == detail, "\(want.url)")
                #expect(rule["component"] as? Int == component, "\(want.url)")
            } else {
                #expect(got["rule"] is NSNull, "\(want.url): rule must be null")
            }
        }
    }

    @Test func matchExitsZeroOnlyWhenEveryURLMatches() throws {
        let matching = Self.expectations.filter { $0.verdict == "match" }.map(\.url)
        let all = try CLI.run(["match"] + matching + ["--app-id", Self.appID, "--aasa", SampleFiles.apexAASA])
        #expect(all.status == 0, "\(all.stdout)")
        let one = try CLI.run(
            ["match"] + matching + [
                "https://acme.example/blog", "--app-id", Self.appID, "--aasa", SampleFiles.apexAASA,
            ]
        )
        #expect(one.status == 1)
    }

    /// Another app ID: the Minimal app is listed only for /products/* (details[2]).
    @Test func matchUsesTheAppsOwnEntry() throws {
        let result = try CLI.run([
            "match", "https://acme.example/products/1", "https://acme.example/cart",
            "--app-id", "7QX3KD52VH.com.acme.minimal", "--aasa", SampleFiles.apexAASA, "--format", "json",
        ])
        let results = try #require(try result.jsonObject()["results"] as? [[String: Any]])
        #expect(results.map { $0["verdict"] as? String } == ["match", "none"])
        let rule = try #require(results.first?["rule"] as? [String: Any])
        #expect(rule["detail"] as? Int == 2)
        #expect(rule["component"] as? Int == 0)
    }

    @Test func matchReadsURLsFromAFile() throws {
        let file = Scratch.folder.appendingPathComponent("urls-\(UUID().uuidString).txt")
        try Data("# sitemap\nhttps://acme.example/cart\n\nhttps://acme.example/products/7\n".utf8).write(to: file)
        let result = try CLI.run(
            ["match", "--urls", file.path, "--app-id", Self.appID, "--aasa", SampleFiles.apexAASA, "--format", "json"]
        )
        #expect(result.status == 0)
        let results = try #require(try result.jsonObject()["results"] as? [[String: Any]])
        #expect(results.count == 2)
    }

    /// A URL iOS never treats as a universal link (no scheme, another scheme) is an input error with
    /// one line naming it, never a verdict; the other URLs are still answered, and the run exits 2.
    @Test(arguments: ["acme.example/cart", "ftp://acme.example/cart", "https:///cart", "mailto:someone@acme.example"])
    func matchRefusesWhatIsNotAUniversalLink(url: String) throws {
        let result = try CLI.run(
            ["match", "https://acme.example/products/1", url, "--app-id", Self.appID, "--aasa", SampleFiles.apexAASA]
        )
        #expect(result.status == 2)
        #expect(result.stdout.contains("MATCH  https://acme.example/products/1"), "\(result.stdout)")
        #expect(!result.stdout.contains(url), "\(result.stdout)")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(url))
    }

    /// A list's lines that are not universal links are each named once with their line number, with --aasa (checked
    /// as they are judged, in one pass over the list) as with --explain (checked first); the others are answered.
    @Test(arguments: [[String](), ["--explain"]])
    func matchNamesEachBadLineOfAListOnce(extra: [String]) throws {
        let file = Scratch.folder.appendingPathComponent("urls-\(UUID().uuidString).txt")
        try Data(
            "https://acme.example/cart\nacme.example/nope\nhttps://acme.example/products/7\nftp://acme.example/x\n".utf8
        )
        .write(to: file)
        let result = try CLI.run(
            ["match", "--urls", file.path, "--app-id", Self.appID, "--aasa", SampleFiles.apexAASA] + extra
        )
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 2, "\(result.stderr)")
        #expect(result.stderrLines.first?.hasPrefix("ipacheck: error: \(file.path):2: acme.example/nope: ") == true)
        #expect(result.stderrLines.last?.hasPrefix("ipacheck: error: \(file.path):4: ftp://acme.example/x: ") == true)
        #expect(result.stdout.contains("https://acme.example/cart"), "\(result.stdout)")
        #expect(result.stdout.contains("https://acme.example/products/7"), "\(result.stdout)")
        #expect(!result.stdout.contains("nope"), "\(result.stdout)")
    }

    @Test func matchWithAnUnreadableAASAExitsTwo() throws {
        let path = SampleFiles.brokenAASA("trailing-comma.json")
        let result = try CLI.run(["match", "https://acme.example/cart", "--app-id", Self.appID, "--aasa", path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(path))
    }

    // MARK: - lint

    @Test func lintCleanFileExitsZero() throws {
        // "the linter is clean" for acme.example (Samples/README.md).
        let result = try CLI.run(["lint", SampleFiles.apexAASA, "--format", "json"])
        #expect(result.status == 0)
        let files = try #require(try result.jsonObject()["files"] as? [[String: Any]])
        #expect((files.first?["findings"] as? [Any])?.isEmpty == true)
    }

    /// Content that is not JSON is its rule's finding (AASA003, exit 1), as linters report parse errors (README,
    /// lint); it was an input error (exit 2, nothing on stdout), as if the file could not be read.
    @Test func lintTrailingCommaIsAParseFinding() throws {
        let path = SampleFiles.brokenAASA("trailing-comma.json")
        let result = try CLI.run(["lint", path, "--format", "json"])
        #expect(result.status == 1)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let findings = try #require(try result.jsonObject()["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["AASA003"])
        #expect((findings.first?["location"] as? String)?.hasPrefix("line ") == true)
    }

    /// The misspelled `"path"` key makes a catch-all (AASA129; an unknown key that does not is AASA107) and the
    /// exclude after it dead.
    @Test func lintPathTypoReportsTheUnknownKey() throws {
        let path = SampleFiles.brokenAASA("path-typo.json")
        let result = try CLI.run(["lint", path, "--format", "json"])
        let files = try #require(try result.jsonObject()["files"] as? [[String: Any]])
        let findings = try #require(files.first?["findings"] as? [[String: Any]])
        let unknownKey = try #require(findings.first { $0["rule"] as? String == "AASA129" }, "\(result.stdout)")
        #expect((unknownKey["message"] as? String)?.contains("path") == true)
        // A catch-all that opens /account/* in the app is an error, so the default gate fails.
        #expect(unknownKey["severity"] as? String == "error")
        #expect(result.status == 1)
        let strict = try CLI.run(["lint", path, "--fail-on", "warning"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("AASA129"))
    }

    @Test func lintMixedFormatsAndExcludeEverything() throws {
        let mixed = try CLI.run(["lint", SampleFiles.brokenAASA("mixed-formats.json"), "--fail-on", "warning"])
        #expect(mixed.status == 1)
        #expect(mixed.stdout.contains("AASA101"), "paths next to components is dead")
        let exclude = try CLI.run(["lint", SampleFiles.brokenAASA("exclude-everything.json")])
        #expect(exclude.status == 1, "an exclude that excludes everything is an error")
        #expect(exclude.stdout.contains("AASA108"))
    }

    @Test func lintMissingFileExitsTwo() throws {
        let result = try CLI.run(["lint", "/nonexistent/aasa.json"])
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("/nonexistent/aasa.json"))
    }

    // MARK: - explain

    @Test func explainAProductLinkOpensTheAppAsFarAsTheEntitlementsTell() throws {
        let arguments = ["explain", "https://acme.example/products/42", try TriageCLITests.minimalEntitlements()]
        let result = try CLI.run(arguments + SampleFiles.offline)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("opens"))
        let json = try CLI.run(arguments + ["--format", "json"] + SampleFiles.offline).jsonObject()
        #expect(json["verdict"] as? String == "opens")
        #expect(json["opensApp"] as? Bool == true)
    }

    /// Minimal.ipa is a simulator build signed ad hoc: no device runs it, so no link opens it, even where
    /// `--distribution development` accepts it as policy (docs/ios-model.md#install I5, I6).
    @Test(arguments: [[], ["--distribution", "development"]])
    func aBuildNoDeviceRunsOpensNoLink(distribution: [String]) throws {
        let arguments = ["explain", "https://acme.example/products/42", SampleFiles.minimal, "--format", "json"]
        let result = try CLI.run(arguments + distribution + SampleFiles.offline)
        #expect(result.status == 1, "\(result.stdout)")
        let json = try result.jsonObject()
        #expect(json["verdict"] as? String == "breaks")
        let rules = Set(((json["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String })
        #expect(rules.isSuperset(of: ["DIST002", "DIST003"]), "\(rules)")
    }

    /// Acme.ipa signs applinks:www.acme.example, which its profile does not grant (Samples/README.md): iOS refuses
    /// to install such a build, so no link of it opens, whatever the AASA says; check reports the same ENT104.
    @Test func aBuildIOSWillNotInstallOpensNoLink() throws {
        let url = "https://acme.example/products/42"
        let result = try CLI.run(["explain", url, SampleFiles.acme, "--format", "json"] + SampleFiles.offline)
        #expect(result.status == 1, "\(result.stdout)")
        let json = try result.jsonObject()
        #expect(json["verdict"] as? String == "breaks")
        let rules = ((json["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String }
        #expect(rules.contains("ENT104"), "\(rules)")
        let steps = (json["steps"] as? [[String: Any]]) ?? []
        #expect(steps.first { $0["name"] as? String == "build" }?["status"] as? String == "fail")
        let check = try CLI.run(["check", SampleFiles.acme, "--format", "json"] + SampleFiles.offline).jsonObject()
        let checkRules = ((check["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String }
        #expect(Set(rules).isSubset(of: Set(checkRules)))
    }

    @Test(arguments: ["https://acme.example/account/settings", "http://acme.example/products/42"])
    func explainALinkThatOpensSafari(url: String) throws {
        let result = try CLI.run(["explain", url, SampleFiles.acme, "--format", "json"] + SampleFiles.offline)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(try result.jsonObject()["opensApp"] as? Bool == false)
    }

    @Test func explainAnUnreadableIPAExitsTwo() throws {
        let path = SampleFiles.broken("NotAZip.ipa")
        let result = try CLI.run(["explain", "https://acme.example/cart", path] + SampleFiles.offline)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(path))
    }

    // MARK: - aasa (offline)

    @Test func aasaOfflineReadsTheFolder() throws {
        let result = try CLI.run(["aasa", "acme.example", "*.acme.example", "--format", "json"] + SampleFiles.offline)
        #expect(result.status == 0, "\(result.stdout)")
        let sites = try #require(try result.jsonObject()["sites"] as? [[String: Any]])
        #expect(sites.count == 2)
        let missing = try CLI.run(["aasa", "acme.page.link"] + SampleFiles.offline)
        #expect(missing.status == 1, "no offline AASA for this host is a problem")
    }

    @Test(arguments: [
        ["match", "https://acme.example/cart", "--app-id", "7QX3KD52VH.com.acme.shop", "--offline"],
        ["match", "https://acme.example/cart"],
        ["match", "--app-id", "7QX3KD52VH.com.acme.shop", "--aasa", "x.json"],
        ["match", "https://acme.example/cart", "--app-id", "nodot", "--aasa", "x.json"],
        ["aasa", "acme.example", "--offline"],
        ["aasa"],
        ["explain", "https://acme.example/cart", "App.ipa", "--offline"],
        ["explain", "https://acme.example/cart"],
        ["lint"],
        ["lint", "a.json", "--fail-on", "sometimes"],
    ])
    func usageErrorsExit64(arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
