import Foundation
import IPACheckTestSupport
import Testing

/// `explain --format json` as data a support tool can use: the claim, the copies with what was observed,
/// which copy devices read, the deciding rule with its trace, the findings on the path, and the causes outside the
/// files, each only where it applies.
@Suite(.serialized)
struct TriageCLITests {
    static func step(_ json: [String: Any], _ name: String) -> [String: Any]? {
        (json["steps"] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }

    static func causes(_ json: [String: Any]) -> [String] {
        ((step(json, "causes")?["causes"] as? [[String: Any]]) ?? []).compactMap { $0["cause"] as? String }
    }

    /// The minimal app's entitlements before the build (the Minimal sample itself is a simulator build, which no
    /// device runs).
    static func minimalEntitlements() throws -> String {
        let folder = try SameStoryEveryCommandCLITests.temporaryFolder()
        let target = try SameStoryEveryCommandCLITests.entitlements(["applinks:acme.example"], in: folder)
        let plist = try String(contentsOfFile: target, encoding: .utf8)
            .replacingOccurrences(of: SameStoryEveryCommandCLITests.appID, with: "7QX3KD52VH.com.acme.minimal")
        try Data(plist.utf8).write(to: URL(fileURLWithPath: target))
        return target
    }

    @Test func anOpeningLinkIsDataWithItsRuleTraceAndTheCausesOutsideTheFiles() throws {
        let arguments = [
            "explain", "https://acme.example/products/42", try Self.minimalEntitlements(), "--format", "json",
        ]
        let json = try CLI.run(arguments + SampleFiles.offline).jsonObject()
        #expect(json["verdict"] as? String == "opens")
        let claims = try #require(Self.step(json, "claim")?["claims"] as? [[String: Any]])
        #expect(claims.first?["entry"] as? String == "applinks:acme.example")
        #expect(claims.first?["appID"] as? String == "7QX3KD52VH.com.acme.minimal")
        let decision = try #require(Self.step(json, "rules")?["decision"] as? [String: Any])
        #expect(decision["verdict"] as? String == "match")
        // Samples/aasa/acme.example: the minimal app's entry is details[2], whose first component is /products/*.
        #expect((decision["rule"] as? [String: Any])?["detail"] as? Int == 2)
        #expect((decision["rule"] as? [String: Any])?["component"] as? Int == 0)
        #expect(!((decision["trace"] as? [[String: Any]]) ?? []).isEmpty)
        let causes = Self.causes(json)
        for cause in [
            "typedURL", "sameDomain", "notATap", "otherBrowser", "openInSafariChoice", "installedBeforeChange",
        ] {
            #expect(causes.contains(cause), "\(cause) applies to a link the files open: \(causes)")
        }
        #expect(!causes.contains("developerMode"), "the entry has no mode")
        #expect(!causes.contains("staleCDN"), "the CDN was not asked")
        // The JSON holds data, not glyphs.
        #expect(!(json["conclusion"] as? String ?? "").contains("✓"))
    }

    /// The tap cause follows Apple's page, where the cause once said WKWebView links never open an app.
    ///
    /// Apple, "Allowing apps and websites to link to your content": users open the app "when they click links to
    /// your website within their browser app and WKWebView".
    @Test func theTapCauseSaysWhatApplesPageSays() throws {
        let arguments = [
            "explain", "https://acme.example/products/42", try Self.minimalEntitlements(), "--format", "json",
        ]
        let json = try CLI.run(arguments + SampleFiles.offline).jsonObject()
        let causes = (Self.step(json, "causes")?["causes"] as? [[String: Any]]) ?? []
        let detail = try #require(causes.first { $0["cause"] as? String == "notATap" }?["detail"] as? String)
        #expect(detail.contains("a person's tap on a link in Safari or a WKWebView opens the app"), "\(detail)")
        #expect(!detail.contains("never open"), "\(detail)")
        // What a tap in SFSafariViewController does, Apple does not say: named as unknown, not as a fact.
        #expect(detail.contains("U11"), "\(detail)")
    }

    /// An internationalised host is judged in its ASCII form, as browsers send it (UTS #46).
    ///
    /// The claim is found, the URL shown is the form judged, the forum report is named as a report, and match asks nothing of --no-cdn.
    @Test func anInternationalisedHostIsJudgedAsABrowserSendsIt() throws {
        let folder = try SameStoryEveryCommandCLITests.temporaryFolder()
        let target = try SameStoryEveryCommandCLITests.entitlements(["applinks:xn--caf-dma.test"], in: folder)
        let dir = try SameStoryEveryCommandCLITests.aasaDir(
            ["xn--caf-dma.test": SameStoryEveryCommandCLITests.aasa(appIDs: [SameStoryEveryCommandCLITests.appID])],
            in: folder
        )
        let offline = ["--offline", "--aasa-dir", dir]
        let json = try CLI.run(
            ["explain", "https://café.test/products/1", target, "--format", "json"] + offline
        ).jsonObject()
        #expect(json["url"] as? String == "https://xn--caf-dma.test/products/1")
        #expect(Self.step(json, "claim")?["status"] as? String == "pass", "\(json)")
        #expect(Self.causes(json).contains("internationalizedDomain"))
        let match = try CLI.run(
            [
                "match", "https://café.test/products/1", "--app-id", SameStoryEveryCommandCLITests.appID, "--format",
                "json",
            ] + offline
        )
        let results = (try match.jsonObject()["results"] as? [[String: Any]]) ?? []
        #expect(results.first?["url"] as? String == "https://xn--caf-dma.test/products/1", "\(match.stdout)")
        #expect(results.first?["verdict"] as? String == "match", "\(match.stdout)")
        #expect(!match.stderr.contains("--no-cdn"), "\(match.stderr)")
    }

    @Test func aDeveloperModeEntryNamesTheDeviceSetting() throws {
        let folder = try SameStoryEveryCommandCLITests.temporaryFolder()
        let target = try SameStoryEveryCommandCLITests.entitlements(["applinks:dev.example?mode=developer"], in: folder)
        let dir = try SameStoryEveryCommandCLITests.aasaDir(
            ["dev.example": SameStoryEveryCommandCLITests.aasa(appIDs: [SameStoryEveryCommandCLITests.appID])],
            in: folder
        )
        let json = try CLI.run([
            "explain", "https://dev.example/products/1", target, "--format", "json", "--offline", "--aasa-dir", dir,
        ]).jsonObject()
        #expect(json["verdict"] as? String == "opens")
        #expect(Self.causes(json).contains("developerMode"))
        #expect(!Self.causes(json).contains("cdnBlocked"), "a developer-mode entry is read from the origin")
        let claims = try #require(Self.step(json, "entry")?["claims"] as? [[String: Any]])
        #expect(claims.first?["mode"] as? String == "developer")
    }

    /// A stale CDN copy: the link breaks, the CDN copy is marked stale, and its expected refresh is the run's time
    /// plus what its cache headers leave (max-age 3600 − Age 600 = 3000 s).
    @Test(.enabled(if: SameStoryEveryCommandCLITests.canServe443, "needs to listen on 127.0.0.23:443 (root)"))
    func aStaleCDNCopySaysWhenItShouldRefresh() async throws {
        let before = Date()
        let answers = try await SameStoryEveryCommandCLITests.live(.stale)
        let after = Date()
        let json = answers.explanation
        #expect(json["verdict"] as? String == "breaks")
        let copies = try #require(json["copies"] as? [[String: Any]])
        let cdn = try #require(copies.first { $0["copy"] as? String == "cdn" })
        #expect(cdn["stale"] as? Bool == true)
        #expect(cdn["devicesRead"] as? Bool == true)
        #expect(cdn["maxAgeSeconds"] as? Int == 3600)
        #expect(cdn["ageSeconds"] as? Int == 600)
        let refresh = try #require(cdn["expectedRefresh"] as? String)
        let date = try #require(ISO8601DateFormatter().date(from: refresh), "\(refresh) is not ISO 8601")
        #expect(date >= before.addingTimeInterval(2999) && date <= after.addingTimeInterval(3001), "\(refresh)")
        #expect(Self.causes(json).contains("staleCDN"))
        let decision = try #require(Self.step(json, "rules")?["decision"] as? [String: Any])
        #expect((decision["origin"] as? [String: Any])?["verdict"] as? String == "match")
    }

    /// A URL iOS never opens as a universal link is answered from the URL alone, before the build, the device's
    /// record or any host is read: the same answer, whatever the other inputs are.
    @Test(arguments: ["ftp://acme.example/x", "acme.example/x", "mailto:someone@acme.example"])
    func aURLNoTapOpensIsAnsweredFirst(url: String) throws {
        let result = try CLI.run([
            "explain", url, "/nonexistent/App.ipa", "--device", "/nonexistent/sysdiagnose.tar.gz",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "nothing else was read: \(result.stderr)")
        #expect(result.stdout.contains("1. ✗ URL:"))
        #expect(result.stdout.contains("not a URL iOS could open as a universal link"))
    }
}
