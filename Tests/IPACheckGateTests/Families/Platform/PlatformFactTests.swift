import Foundation
import IPACheckFetching
import IPACheckPlist
import IPACheckReport
import IPACheckSigning
import IPACheckTestSupport
import Testing

@testable import IPACheckBundle
@testable import IPACheckGate

/// The platform facts that changed (docs/ios-model.md I17 and beside it): browser apps and universal links (PLAT001),
/// HTTPS callbacks of `ASWebAuthenticationSession` and `webcredentials:` (PLAT002–PLAT004), and what a failing
/// `appclips` entry breaks, by the clip's minimum OS (the LINK rules' wording).
///
/// Each rule is made to fire and kept quiet. On the code before this change there was no PLAT rule and the appclips
/// messages said nothing of website invocations or iOS 16.3, so every test here fails there.
struct PlatformFactTests {
    // MARK: - Fixtures

    /// An ipa whose app (and optional clip) carry these entitlements, Info.plist keys and executable strings.
    ///
    /// The strings follow the signed slice, NUL-separated as in `__cstring`, so the streaming search of the main
    /// executable sees them while the signature (which covers only the code before it) stays valid.
    static func ipa(
        domains: [String],
        extra: [(key: String, value: PlistValue)] = [],
        strings: [String] = [],
        info: [(key: String, value: PlistValue)] = [],
        clip: GeneratedBundle? = nil,
        clipMinimumOS: String? = nil,
        watch: GeneratedBundle? = nil
    ) throws -> String {
        let app = GeneratedBundle.app("Acme.app", bundleID: "com.acme.shop", domains: domains, extra: extra)
        var zip = ZipBuilder()
        for (name, bytes) in members(app, at: "Payload/Acme.app", values: info, strings: strings) {
            zip.add(name, bytes)
        }
        if let watch {
            for (name, bytes) in members(watch, at: "Payload/Acme.app/Watch/\(watch.folder)") { zip.add(name, bytes) }
        }
        if let clip {
            let info = clipMinimumOS.map { ["MinimumOSVersion": $0] } ?? [:]
            for (name, bytes) in members(clip, at: "Payload/Acme.app/AppClips/\(clip.folder)", info: info) {
                zip.add(name, bytes)
            }
        }
        return try zip.write(named: "Platform.ipa")
    }

    /// A bundle's Info.plist and signed executable, with `info` added to the plist and `strings` after the slice.
    static func members(
        _ bundle: GeneratedBundle,
        at root: String,
        info extraInfo: [String: String] = [:],
        values: [(key: String, value: PlistValue)] = [],
        strings: [String] = []
    ) -> [(String, [UInt8])] {
        let executable = String(bundle.folder.prefix { $0 != "." })
        let keys = [
            "CFBundleIdentifier": bundle.bundleID, "CFBundleExecutable": executable,
            "CFBundlePackageType": "APPL", "DTPlatformName": "iphoneos",
        ].merging(extraInfo) { _, new in new }
        let info =
            values.isEmpty
            ? PlistFixture.info(keys)
            : EntitlementsFixture.xml(
                keys.sorted { $0.key < $1.key }.map { ($0.key, PlistValue.string($0.value)) } + values
            )
        let signing = EntitlementsFixture.signing(bundle.entitlements, info: info)
        var binary = MachOBuilder.slice(signing: signing)
        if !strings.isEmpty { binary += [0] + strings.flatMap { Array($0.utf8) + [0] } }
        return [("\(root)/Info.plist", info), ("\(root)/\(executable)", binary)]
    }

    static let browser: [(key: String, value: PlistValue)] = [("com.apple.developer.web-browser", .bool(true))]
    static let selector = PlatformFactChecks.httpsCallbackSelector

    private func rules(_ result: GateResult) -> [String] {
        result.findings.map(\.rule).filter { $0.hasPrefix("PLAT") }.sorted()
    }

    // MARK: - PLAT001 browser apps

    @Test func plat001FiresForABrowserClaimingApplinks() async throws {
        let ipa = try Self.ipa(domains: ["applinks:acme.example", "webcredentials:acme.example"], extra: Self.browser)
        let result = try await Gate.offline(ipa, AASAFolder())
        let fired = result.findings("PLAT001", bundle: Acme.mainBundle, domain: "acme.example")
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.severity == .error)
        #expect(fired.first?.message.contains("applinks:acme.example") == true)
        // Only applinks: a browser may still claim webcredentials.
        #expect(rules(result) == ["PLAT001"], "\(result.dump)")
        #expect(result.coverage.status(of: "PLAT001") == .ran)
    }

    @Test(arguments: [
        ([("com.apple.developer.web-browser", PlistValue.bool(true))], ["webcredentials:acme.example"]),
        ([("com.apple.developer.web-browser", PlistValue.bool(false))], ["applinks:acme.example"]),
        ([], ["applinks:acme.example"]),
    ])
    func plat001QuietWithoutBothTheEntitlementAndApplinks(
        extra: [(String, PlistValue)],
        domains: [String]
    ) async throws {
        let ipa = try Self.ipa(domains: domains, extra: extra.map { (key: $0.0, value: $0.1) })
        let result = try await Gate.offline(ipa, AASAFolder())
        #expect(result.findings("PLAT001").isEmpty, "\(result.dump)")
        #expect(result.coverage.status(of: "PLAT001") == .ran)
    }

    // MARK: - PLAT002 HTTPS callbacks without webcredentials

    @Test func plat002FiresWhenTheAPIIsUsedAndNoWebcredentialsIsClaimed() async throws {
        let ipa = try Self.ipa(domains: ["applinks:acme.example"], strings: [Self.selector, "auth.acme.example"])
        let result = try await Gate.offline(ipa, AASAFolder())
        let fired = result.findings("PLAT002", bundle: Acme.mainBundle)
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.severity == .error)
        #expect(rules(result) == ["PLAT002"], "\(result.dump)")
    }

    /// `?mode=developer` is not used by a distribution build, so it is no claim there.
    @Test func plat002CountsOnlyEntriesTheBuildUses() async throws {
        let ipa = try Self.ipa(
            domains: ["applinks:acme.example", "webcredentials:acme.example?mode=developer"],
            strings: [Self.selector]
        )
        let result = try await Gate.offline(ipa, AASAFolder())
        let fired = result.findings("PLAT002")
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.message.contains("webcredentials:acme.example?mode=developer") == true)
    }

    @Test func plat002QuietWithoutTheHTTPSCallbackAPI() async throws {
        // The custom-scheme callback needs no associated domain.
        let ipa = try Self.ipa(
            domains: ["applinks:acme.example"],
            strings: ["callbackWithCustomScheme:", "ASWebAuthenticationSessionCallback"]
        )
        let result = try await Gate.offline(ipa, AASAFolder())
        #expect(rules(result).isEmpty, "\(result.dump)")
        for rule in ["PLAT002", "PLAT003", "PLAT004"] { #expect(result.coverage.status(of: rule) == .ran) }
    }

    // MARK: - PLAT003 the evident host is not under webcredentials

    @Test func plat003FiresWhenTheEvidentHostIsClaimedOnlyForApplinks() async throws {
        let ipa = try Self.ipa(
            domains: ["applinks:login.acme.example", "webcredentials:acme.example"],
            strings: [Self.selector, "login.acme.example"]
        )
        let result = try await Gate.offline(ipa, AASAFolder())
        let fired = result.findings("PLAT003", bundle: Acme.mainBundle, domain: "login.acme.example")
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.severity == .warning)
        #expect(fired.first?.message.contains("applinks:") == true)
        #expect(rules(result) == ["PLAT003"], "\(result.dump)")
    }

    /// A host the executable holds only inside a longer string (a URL) is not a host literal.
    @Test func plat003NeedsTheHostAsAStringOfItsOwn() async throws {
        let ipa = try Self.ipa(
            domains: ["applinks:login.acme.example", "webcredentials:acme.example"],
            strings: [Self.selector, "https://login.acme.example/help"]
        )
        let result = try await Gate.offline(ipa, AASAFolder())
        #expect(rules(result) == ["PLAT004"], "\(result.dump)")
    }

    @Test func plat003QuietWhenTheEvidentHostIsUnderWebcredentials() async throws {
        let ipa = try Self.ipa(
            domains: ["applinks:login.acme.example", "webcredentials:login.acme.example"],
            strings: [Self.selector, "login.acme.example"]
        )
        let result = try await Gate.offline(ipa, AASAFolder())
        #expect(rules(result).isEmpty, "\(result.dump)")
    }

    // MARK: - PLAT004 the host cannot be known

    @Test func plat004NamesTheClaimedWebcredentialsDomains() async throws {
        let ipa = try Self.ipa(
            domains: ["applinks:acme.example", "webcredentials:acme.example", "webcredentials:shop.acme.example"],
            strings: [Self.selector]
        )
        let result = try await Gate.offline(ipa, AASAFolder())
        let fired = result.findings("PLAT004", bundle: Acme.mainBundle)
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.severity == .note)
        #expect(fired.first?.message.contains("webcredentials:acme.example, webcredentials:shop.acme.example") == true)
        #expect(rules(result) == ["PLAT004"], "\(result.dump)")
    }

    @Test func plat004QuietWithoutTheAPI() async throws {
        let ipa = try Self.ipa(domains: ["webcredentials:acme.example"], strings: ["unrelated string"])
        let result = try await Gate.offline(ipa, AASAFolder())
        #expect(result.findings("PLAT004").isEmpty, "\(result.dump)")
    }

    /// The decision itself, with the executable's answers given: a literal host under webcredentials passes, one
    /// only under applinks warns, none leaves the note.
    @Test func httpsCallbackDecisionsWithoutAnIPA() throws {
        let appID = "\(Acme.team).com.acme.shop"
        let file = EntitlementsFile(
            path: "App.entitlements",
            entitlements: [
                "com.apple.developer.associated-domains": .array([
                    .string("applinks:a.example.com"), .string("webcredentials:b.example.com"),
                ])
            ],
            appID: appID,
            unexpandedAppID: nil
        )
        let main = file.facts()
        let used = BinaryStrings(found: [Self.selector])
        let unused = BinaryStrings(found: [])
        #expect(
            PlatformFactChecks.callbackHostCandidates(main: main, strings: used) == ["a.example.com", "b.example.com"]
        )
        #expect(PlatformFactChecks.callbackHostCandidates(main: main, strings: unused).isEmpty)
        func rules(_ strings: BinaryStrings, _ literals: [String]) -> [String] {
            PlatformFactChecks.httpsCallbacks(main: main, strings: strings, literals: literals).map(\.rule)
        }
        #expect(rules(unused, ["a.example.com"]).isEmpty)
        #expect(rules(used, []) == ["PLAT004"])
        #expect(rules(used, ["a.example.com"]) == ["PLAT003"])
        #expect(rules(used, ["b.example.com"]).isEmpty)
        #expect(rules(used, ["a.example.com", "b.example.com"]).isEmpty)
    }

    // MARK: - Coverage

    @Test func anEntitlementsFileSaysWhyTheCallbackRulesDidNotRun() async throws {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-plat-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("App.entitlements")
        try Data(
            EntitlementsFixture.xml(
                GeneratedBundle.app(
                    "A.app",
                    bundleID: "com.acme.shop",
                    domains: ["applinks:acme.example"],
                    extra: Self.browser
                ).entitlements
            )
        ).write(to: file)
        let result = try await Gate.offline(file.path, AASAFolder())
        #expect(result.findings("PLAT001").count == 1, "\(result.dump)")
        for rule in ["PLAT002", "PLAT003", "PLAT004"] {
            guard case .notRun(let reason) = result.coverage.status(of: rule) else {
                Issue.record("\(rule) is said to have run on an entitlements file")
                continue
            }
            #expect(reason.contains("entitlements file has no executable"))
        }
    }

    @Test func theCheckAccountsForEveryRule() throws {
        let check = try #require(GateChecks.all.first { $0.name == "platform facts" })
        #expect(
            Set(check.rules.map(\.id)) == ["PLAT001", "PLAT002", "PLAT003", "PLAT004", "PLAT005", "PLAT006"]
        )
    }

    // MARK: - PLAT005, PLAT006: the SDK the app was built with (docs/ios-model.md I55, I56)

    /// Info.plist keys Xcode writes for an iOS SDK of `version`.
    static func sdk(_ version: String) -> [(key: String, value: PlistValue)] {
        [("DTSDKName", .string("iphoneos\(version)")), ("DTPlatformVersion", .string(version))]
    }

    static let sceneManifest: (key: String, value: PlistValue) = (
        "UIApplicationSceneManifest",
        .dictionary(["UIApplicationSupportsMultipleScenes": .bool(false)])
    )

    @Test(
        "PLAT005: an app built with the iOS 27 SDK and no scene manifest does not launch (TN3187), so no link opens",
        arguments: [true, false]
    )
    func plat005Fires(developmentGate: Bool) async throws {
        let ipa = try Self.ipa(domains: ["applinks:acme.example"], info: Self.sdk("27.0"))
        let result = try await Gate.offline(ipa, AASAFolder(), release: !developmentGate)
        let fired = result.findings("PLAT005", bundle: Acme.mainBundle)
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.severity == .error)
        #expect(fired.first?.message.contains("iphoneos27.0") == true)
        // A device fact, whatever the gate's distribution: every link stops at the build.
        #expect(result.links.linkSheet().buildErrors.contains { $0.rule == "PLAT005" })
        #expect(!result.links.explain("https://acme.example/x").opensApp)
    }

    @Test(
        "PLAT005 is quiet for the iOS 26 SDK, for a scene manifest, and without a named SDK",
        arguments: [("26.4", true), ("27.0", false), ("", true)]
    )
    func plat005Quiet(version: String, withoutManifest: Bool) async throws {
        let info = (version.isEmpty ? [] : Self.sdk(version)) + (withoutManifest ? [] : [Self.sceneManifest])
        let ipa = try Self.ipa(domains: ["applinks:acme.example"], info: info + [("CFBundleName", .string("A"))])
        let result = try await Gate.offline(ipa, AASAFolder())
        #expect(result.findings("PLAT005").isEmpty, "\(result.dump)")
    }

    /// An App Store gate judged at `now`.
    static func appStoreGate(_ ipa: String, now: Date) async throws -> GateResult {
        let folder = try AASAFolder()
        let options = GateOptions(
            fetch: FetchOptions(offlineDirectory: folder.url, now: now),
            fetcher: nil,
            distribution: .appStore
        )
        return try await ReleaseGate.check(path: ipa, options: options)
    }

    /// 2026-11-26 and 2026-01-01 (UTC): after and before the iOS 26 SDK minimum of 2026-04-28.
    static let lateIn2026 = Date(timeIntervalSince1970: 1_795_651_200)
    static let early2026 = Date(timeIntervalSince1970: 1_767_225_600)

    @Test(
        "PLAT006: App Store Connect refuses an SDK below the minimum in force when judged (Apple's dated news)",
        arguments: [("17.0", early2026), ("18.2", lateIn2026)]
    )
    func plat006Fires(version: String, now: Date) async throws {
        let ipa = try Self.ipa(domains: ["applinks:acme.example"], info: Self.sdk(version))
        let result = try await Self.appStoreGate(ipa, now: now)
        let fired = result.findings("PLAT006", bundle: Acme.mainBundle)
        #expect(fired.count == 1, "\(result.dump)")
        let required = now == Self.lateIn2026 ? "iOS 26 SDK" : "iOS 18 SDK"
        #expect(fired.first?.message.contains(required) == true, "\(fired.first?.message ?? "")")
        // Release policy: never a reason a link stays in Safari.
        #expect(!result.links.linkSheet().buildErrors.contains { $0.rule == "PLAT006" })
    }

    @Test("PLAT006 is quiet at or above the minimum, and says why it did not run outside an App Store gate")
    func plat006QuietOrNotRun() async throws {
        let current = try Self.ipa(domains: ["applinks:acme.example"], info: Self.sdk("26.0"))
        #expect(try await Self.appStoreGate(current, now: Self.lateIn2026).findings("PLAT006").isEmpty)
        let old = try Self.ipa(domains: ["applinks:acme.example"], info: Self.sdk("17.0"))
        // 2025-01-01: no minimum had been announced as in force.
        let before = try await Self.appStoreGate(old, now: Date(timeIntervalSince1970: 1_735_689_600))
        #expect(before.findings("PLAT006").isEmpty)
        let development = try await Gate.offline(old, AASAFolder(), release: false)
        guard case .notRun(let reason) = development.coverage.status(of: "PLAT006") else {
            Issue.record("PLAT006 is said to have run in a development gate")
            return
        }
        #expect(reason.contains("not judged for the App Store"))
    }

    // MARK: - watchOS: a single-target watch app carries its own associated domains (I57)

    @Test("a single-target watch app's own applinks entry is a claim like any bundle's, with no extension needed")
    func singleTargetWatchAppClaims() async throws {
        let watch = GeneratedBundle.app(
            "AcmeWatch.app",
            bundleID: "com.acme.shop.watchkitapp",
            domains: ["applinks:watch.acme.example"]
        )
        let ipa = try Self.ipa(domains: ["applinks:acme.example"], watch: watch)
        let result = try await Gate.offline(ipa, AASAFolder(), release: false)
        let claims = result.links.resolvedClaims(for: "watch.acme.example")
        #expect(claims.map(\.bundle) == ["Payload/Acme.app/Watch/AcmeWatch.app"], "\(result.dump)")
        #expect(claims.first?.ignored == nil)
        #expect(!result.findings.contains { $0.message.localizedCaseInsensitiveContains("extension") })
    }

    // MARK: - App Clips: what a failing appclips entry breaks

    private static let clip = GeneratedBundle.app(
        "AcmeClip.app",
        bundleID: "com.acme.shop.Clip",
        domains: ["appclips:acme.example", "applinks:acme.example"],
        extra: [
            ("com.apple.developer.on-demand-install-capable", .bool(true)),
            ("com.apple.developer.parent-application-identifiers", .array([.string(Acme.mainAppID)])),
        ]
    )

    /// The appclips finding when acme.example lists the parent instead of the clip.
    private func appclipsFinding(minimumOS: String?) async throws -> Finding {
        let folder = try AASAFolder()
        try folder.edit("acme.example") { $0["appclips"] = ["apps": [Acme.mainAppID]] }
        let ipa = try Self.ipa(
            domains: ["applinks:acme.example", "appclips:acme.example"],
            clip: Self.clip,
            clipMinimumOS: minimumOS
        )
        let result = try await Gate.offline(ipa, folder)
        let found = result.findings("LINK001", domain: "acme.example").filter { $0.message.contains("appclips") }
        #expect(found.count == 1, "\(result.dump)")
        return try #require(found.first)
    }

    @Test func appclipsEntryMattersOnlyForTheWebsiteWhenTheClipNeeds16_4() async throws {
        let message = try await appclipsFinding(minimumOS: "17.0").message
        #expect(message.contains("only App Clip invocations from the website (Smart App Banner, links)"), "\(message)")
        #expect(message.contains("NFC tags, QR codes and App Clip Codes on iOS 16.4 and later do not need"))
        #expect(!message.contains("16.3 and earlier"))
    }

    @Test func appclipsEntryMattersForEveryInvocationOn16_3AndEarlier() async throws {
        let message = try await appclipsFinding(minimumOS: "15.0").message
        #expect(message.contains("invocations from the website"), "\(message)")
        #expect(message.contains("every invocation on iOS 16.3 and earlier, which the clip supports"), "\(message)")
        #expect(message.contains("MinimumOSVersion 15.0"))
    }

    @Test func appclipsEntryWithoutAMinimumOSSaysItIsUnknown() async throws {
        let message = try await appclipsFinding(minimumOS: nil).message
        #expect(message.contains("on iOS 16.3 and earlier every invocation"), "\(message)")
        #expect(message.contains("MinimumOSVersion is not known"))
    }

    @Test(arguments: [
        ("16.4", true), ("16.4.0", true), ("16.4.1", true), ("17", true), ("26.0", true),
        ("16.3", false), ("16.3.1", false), ("16", false), ("15.0", false),
    ])
    func appclipsReachFollowsTheMinimumOS(minimumOS: String, websiteOnly: Bool) {
        let text = PlatformFactChecks.appClipsEntryReach(minimumOS: minimumOS)
        #expect(text.contains("only App Clip invocations from the website") == websiteOnly, "\(text)")
        #expect(text.contains("16.3 and earlier") == !websiteOnly, "\(text)")
    }

    @Test(arguments: ["", "sixteen", "16..4", "16.-1"])
    func appclipsReachWithAnUnreadableMinimumOS(minimumOS: String) {
        #expect(PlatformFactChecks.appClipsEntryReach(minimumOS: minimumOS).contains("is not known"))
    }

    /// The rule texts say it too.
    @Test func link001SummarySaysWhatAppClipsNeedTheEntryFor() {
        let summary = CrossCheckRules.rules.appIDNotListed.summary
        #expect(summary.contains("from the website"))
        #expect(summary.contains("iOS 16.3 and earlier"))
        #expect(!summary.contains("the App Clip does not appear"))
    }
}
