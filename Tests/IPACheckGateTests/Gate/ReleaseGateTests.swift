import Foundation
import IPACheckFetching
import IPACheckGate
import IPACheckPlist
import IPACheckReport
import IPACheckSigning
import IPACheckSites
import IPACheckTestSupport
import Testing

/// The release gate's cross-check rules (LINK001–LINK010), each made to fire and kept quiet.
///
/// Expected outcomes come from the sample design (Samples/README.md: which entry of Acme.ipa meets which AASA
/// file, and what each is designed to give) and from the rules' definitions in CrossCheckRules.swift. Each test
/// copies `Samples/aasa` to a temporary folder and changes exactly one file, so exactly one thing differs from
/// the designed run.
struct ReleaseGateTests {
    // MARK: - The designed run

    /// "Designed findings: check Samples/Acme.ipa --offline --aasa-dir Samples/aasa": errors only for the www
    /// profile grant, developer mode, managed mode, the links wrong prefix, acme.page.link, the port and the iOS 17
    /// SDK App Store Connect no longer accepts (since 2026-04-28), and every one of those has an error.
    @Test func acmeErrorsAreExactlyTheDesignedOnes() async throws {
        let result = try await Gate.offline(Acme.ipa, AASAFolder())
        let designed = [
            "www.acme.example", "beta.acme.example", "mdm.acme.example", "links.acme.example", "acme.page.link",
            "shop.acme.example", "iphoneos17.0",
        ]
        let errors = result.findings.filter { $0.severity == .error }
        for error in errors {
            let text = (error.domain ?? "") + " " + error.message
            #expect(designed.contains { text.contains($0) }, "undesigned error: \(error.rule) \(error.message)")
            #expect(error.bundle == nil || error.bundle == Acme.mainBundle, "nested bundles pass: \(error.message)")
        }
        for host in designed {
            #expect(
                errors.contains { (($0.domain ?? "") + " " + $0.message).contains(host) },
                "no error about \(host)\n\(result.dump)"
            )
        }
    }

    /// Minimal.ipa, an ad hoc simulator build: "No errors" in a development gate (acme.example lists it in
    /// details[2]); any other gate fails it for what it is built for (no profile, simulator, ad hoc).
    @Test func minimalHasNoErrors() async throws {
        let result = try await Gate.offline(Acme.minimalIPA, AASAFolder(), release: false)
        #expect(!result.findings.contains { $0.severity == .error }, "\(result.dump)")
        let release = try await Gate.offline(Acme.minimalIPA, AASAFolder())
        #expect(
            Set(release.findings.filter { $0.severity == .error }.map(\.rule)) == ["DIST001", "DIST002", "DIST003"]
        )
    }

    // MARK: - LINK001 app ID not listed

    @Test func link001FiresWhenWebcredentialsDropsTheApp() async throws {
        let folder = try AASAFolder()
        try folder.edit("acme.example") { $0["webcredentials"] = ["apps": [Acme.shareAppID]] }
        let result = try await Gate.offline(Acme.ipa, folder)
        let fired = result.findings("LINK001", bundle: Acme.mainBundle, domain: "acme.example")
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.message.contains("webcredentials") == true)
        #expect(fired.first?.message.contains(Acme.mainAppID) == true)
        #expect(fired.first?.severity == .error)
        // The share extension is still listed.
        #expect(result.findings("LINK001", bundle: Acme.shareBundle).isEmpty)
    }

    @Test func link001FiresForMinimalWithoutItsDetailsEntry() async throws {
        let folder = try AASAFolder()
        try folder.edit("acme.example") { json in
            json["applinks"] = AASAFolder.applinks([
                (Acme.mainAppID, [["/": "/products/*"]]), (Acme.clipAppID, [["/": "/products/*"]]),
            ])
        }
        let result = try await Gate.offline(Acme.minimalIPA, folder)
        #expect(result.findings("LINK001", bundle: Acme.minimalBundle, domain: "acme.example").count == 1)
    }

    /// With the sample files, every listing passes (links.acme.example is the wrong-prefix rule, not this one).
    @Test func link001QuietWithTheSampleFiles() async throws {
        let acme = try await Gate.offline(Acme.ipa, AASAFolder())
        #expect(acme.findings("LINK001").isEmpty, "\(acme.dump)")
        let minimal = try await Gate.offline(Acme.minimalIPA, AASAFolder())
        #expect(minimal.findings("LINK001").isEmpty, "\(minimal.dump)")
    }

    // MARK: - LINK002 wrong prefix

    @Test func link002FiresForTheWrongPrefixOnLinks() async throws {
        let result = try await Gate.offline(Acme.ipa, AASAFolder())
        let fired = result.findings("LINK002", bundle: Acme.mainBundle, domain: "links.acme.example")
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.message.contains("ZZZZZ99999.com.acme.shop") == true)
        #expect(result.findings("LINK002").count == 1)
        // One problem, one finding: the wrong prefix is not also reported as "not listed".
        #expect(result.findings("LINK001", domain: "links.acme.example").isEmpty)
    }

    @Test func link002QuietWhenTheRightPrefixIsListed() async throws {
        let folder = try AASAFolder()
        try folder.edit("links.acme.example") { json in
            json["applinks"] = AASAFolder.applinks([(Acme.mainAppID, [["/": "/r/*"]])])
        }
        let result = try await Gate.offline(Acme.ipa, folder)
        #expect(result.findings("LINK002").isEmpty, "\(result.dump)")
        #expect(result.findings("LINK001", domain: "links.acme.example").isEmpty)
    }

    /// After an app transfer the AASA lists the app under the old and the new team.
    ///
    /// "As long as you do not remove the old Team ID from your AASA file, Universal Links will remain unbroken" (Apple, forums thread 826916;
    /// docs/ios-model.md I58). Both listings together are right; LINK002's fix says to keep the old one.
    @Test func bothTeamsListedAfterATransferIsNoFinding() async throws {
        let folder = try AASAFolder()
        try folder.edit("links.acme.example") { json in
            json["applinks"] = [
                "details": [["appIDs": ["ZZZZZ99999.com.acme.shop", Acme.mainAppID], "components": [["/": "/r/*"]]]]
            ]
        }
        let result = try await Gate.offline(Acme.ipa, folder)
        #expect(result.findings("LINK002").isEmpty, "\(result.dump)")
        #expect(result.findings("LINK001", domain: "links.acme.example").isEmpty)

        let wrong = try await Gate.offline(Acme.ipa, AASAFolder())
        let fix = try #require(wrong.findings("LINK002").first?.fix)
        #expect(fix.contains("keep the old team's entry"), "\(fix)")
    }

    /// One cause, one finding: a file over 128 KB is SERVE020 as served, not also AASA010 from its content.
    @Test func anOversizeFileIsOneFinding() async throws {
        let folder = try AASAFolder()
        try folder.edit("acme.example") { json in
            json["padding"] = String(repeating: " ", count: 140_000)
        }
        let result = try await Gate.offline(Acme.ipa, folder)
        #expect(result.findings("SERVE020", domain: "acme.example").count == 1, "\(result.dump)")
        #expect(result.findings("AASA010").isEmpty, "\(result.dump)")
    }

    // MARK: - LINK003 no reachable paths

    @Test(arguments: ["every rule excludes", "no rules"])
    func link003FiresWhenTheAppsRulesOnlyExclude(shape: String) async throws {
        let components: [[String: Any]] =
            shape == "no rules" ? [] : [["/": "/account/*", "exclude": true], ["/": "*", "exclude": true]]
        let folder = try AASAFolder()
        try folder.edit("acme.example") { json in
            json["applinks"] = AASAFolder.applinks([
                (Acme.mainAppID, components), (Acme.clipAppID, [["/": "/products/*"]]),
                (Acme.minimalAppID, [["/": "/products/*"]]),
            ])
        }
        let result = try await Gate.offline(Acme.ipa, folder)
        let fired = result.findings("LINK003", bundle: Acme.mainBundle, domain: "acme.example")
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.message.contains(Acme.mainAppID) == true)
        // The clip's own entry still reaches /products/*.
        #expect(result.findings("LINK003", bundle: Acme.clipBundle).isEmpty)
    }

    @Test func link003QuietWithTheSampleFiles() async throws {
        let result = try await Gate.offline(Acme.ipa, AASAFolder())
        #expect(result.findings("LINK003").isEmpty, "\(result.dump)")
    }

    // MARK: - LINK004 managed without the entitlement

    @Test func link004FiresOnTheSamplesManagedEntry() async throws {
        let result = try await Gate.offline(Acme.ipa, AASAFolder())
        let fired = result.findings("LINK004", bundle: Acme.mainBundle)
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.domain == "mdm.acme.example")
    }

    @Test(arguments: [false, true])
    func link004DependsOnTheMDMManagedEntitlement(entitled: Bool) async throws {
        let extra: [(key: String, value: PlistValue)] =
            entitled ? [("com.apple.developer.associated-domains.mdm-managed", .bool(true))] : []
        let app = GeneratedBundle.app(
            "Acme.app",
            bundleID: "com.acme.shop",
            domains: ["applinks:mdm.acme.example?mode=managed"],
            extra: extra
        )
        let result = try await Gate.offline(try GeneratedIPA.write(app: app), AASAFolder())
        #expect(result.findings("LINK004").count == (entitled ? 0 : 1), "\(result.dump)")
        // mdm.acme.example lists the app either way.
        #expect(result.findings("LINK001").isEmpty)
        #expect(result.findings("LINK006").isEmpty)
    }

    // MARK: - LINK005 / LINK009 Apple's CDN copy (through an in-memory fetcher)

    /// The origin serves the sample apex file; the CDN serves `cdn`.
    private func minimalAgainstCDN(_ cdn: [String: Any]) async throws -> GateResult {
        let origin = try Data(contentsOf: AASAFolder().file("acme.example"))
        let cdnBytes = try JSONSerialization.data(withJSONObject: cdn, options: [.sortedKeys])
        let fetcher = InMemoryFetcher(host: "acme.example", origin: Array(origin), cdn: Array(cdnBytes))
        return try await Gate.online(Acme.minimalIPA, fetcher: fetcher, release: false)
    }

    @Test func link005FiresWhenTheCDNHasOtherRulesForTheApp() async throws {
        var cdn = try AASAFolder().json("acme.example")
        cdn["applinks"] = AASAFolder.applinks([
            (Acme.mainAppID, [["/": "/products/*"]]), (Acme.minimalAppID, [["/": "/items/*"]]),
        ])
        let result = try await minimalAgainstCDN(cdn)
        let fired = result.findings("LINK005", bundle: Acme.minimalBundle, domain: "acme.example")
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.severity == .warning)
        #expect(result.findings("LINK009").isEmpty)
    }

    @Test func link009FiresWhenTheCDNLacksTheApp() async throws {
        var cdn = try AASAFolder().json("acme.example")
        cdn["applinks"] = AASAFolder.applinks([(Acme.mainAppID, [["/": "/products/*"]])])
        let result = try await minimalAgainstCDN(cdn)
        let fired = result.findings("LINK009", bundle: Acme.minimalBundle, domain: "acme.example")
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.severity == .warning)
        #expect(result.findings("LINK005").isEmpty)
        // The origin lists the app, so it is not "not listed".
        #expect(result.findings("LINK001").isEmpty)
    }

    @Test func link005AndLink009QuietWhenTheCDNCopyIsCurrent() async throws {
        let result = try await minimalAgainstCDN(try AASAFolder().json("acme.example"))
        #expect(result.findings("LINK005").isEmpty, "\(result.dump)")
        #expect(result.findings("LINK009").isEmpty)
        #expect(!result.findings.contains { $0.severity == .error }, "\(result.dump)")
        // The fetcher was really asked for the CDN copy.
        #expect(result.sites.contains { $0.cdn != nil })
    }

    // MARK: - LINK006 no usable AASA

    /// One cause, one finding: acme.page.link has no file, which is one finding for the host (SERVE060 offline)
    /// naming the claim it breaks; LINK006 speaks only when the fetch left no finding to name the claims.
    @Test func link006FiresForAcmePageLinkWhichHasNoFile() async throws {
        let result = try await Gate.offline(Acme.ipa, AASAFolder())
        let missing = result.findings("SERVE060", domain: "acme.page.link")
        #expect(missing.count == 1, "\(result.dump)")
        #expect(missing.first?.affects == ["applinks:acme.page.link (\(Acme.mainBundle))"])
        #expect(result.findings("LINK006").isEmpty)
        #expect(result.findings.filter { $0.domain == "acme.page.link" && $0.rule.hasPrefix("SERVE") }.count == 1)
    }

    @Test func link006QuietOnceAcmePageLinkServesTheApp() async throws {
        let folder = try AASAFolder()
        try folder.write("acme.page.link", ["applinks": AASAFolder.applinks([(Acme.mainAppID, [["/": "*"]])])])
        let result = try await Gate.offline(Acme.ipa, folder)
        #expect(result.findings("LINK006").isEmpty, "\(result.dump)")
    }

    /// `applinks:*.acme.example` is served by the apex file: with it present there is no LINK006 (above), and
    /// with it gone both the apex and the wildcard entry lose their file, and only those.
    @Test func wildcardIsServedByTheApexFile() async throws {
        let folder = try AASAFolder()
        try folder.remove("acme.example")
        let result = try await Gate.offline(Acme.ipa, folder)
        let apex = try #require(result.findings("SERVE060", domain: "acme.example").first, "\(result.dump)")
        let affected = apex.affects ?? []
        #expect(affected.contains("applinks:*.acme.example (\(Acme.mainBundle))"), "\(affected)")
        #expect(affected.contains("applinks:acme.example (\(Acme.mainBundle))"))
        // No folder for "*.acme.example" was ever looked up.
        #expect(!result.sites.contains { $0.fetchHost.contains("*") })
        #expect(result.findings("SERVE060", domain: "www.acme.example").isEmpty)
        #expect(!affected.contains { $0.contains("www.acme.example") })
    }

    // MARK: - LINK007 expected domain missing

    @Test func link007FiresForAnExpectedDomainTheBuildLacks() async throws {
        var configuration = GateConfiguration()
        configuration.expectedDomains = ["applinks:acme.example", "applinks:help.acme.example"]
        let result = try await Gate.offline(Acme.ipa, AASAFolder(), configuration: configuration)
        let fired = result.findings("LINK007")
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.domain == "help.acme.example")
    }

    @Test func link007QuietWhenEveryExpectedDomainIsClaimed() async throws {
        var configuration = GateConfiguration()
        configuration.expectedDomains = [
            "applinks:acme.example", "applinks:*.acme.example", "webcredentials:acme.example", "appclips:acme.example",
        ]
        let result = try await Gate.offline(Acme.ipa, AASAFolder(), configuration: configuration)
        #expect(result.findings("LINK007").isEmpty, "\(result.dump)")
    }

    // MARK: - LINK008 App Clip without applinks / LINK010 appclips without a clip

    private static let clip = GeneratedBundle.app(
        "AcmeClip.app",
        bundleID: "com.acme.shop.Clip",
        domains: ["appclips:acme.example"],
        extra: [
            ("com.apple.developer.on-demand-install-capable", .bool(true)),
            ("com.apple.developer.parent-application-identifiers", .array([.string(Acme.mainAppID)])),
        ]
    )

    @Test func link008FiresWhenNeitherClipNorParentClaimsApplinks() async throws {
        let app = GeneratedBundle.app("Acme.app", bundleID: "com.acme.shop", domains: ["webcredentials:acme.example"])
        let result = try await Gate.offline(try GeneratedIPA.write(app: app, clip: Self.clip), AASAFolder())
        let fired = result.findings("LINK008", bundle: "Payload/Acme.app/AppClips/AcmeClip.app")
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.domain == "acme.example")
        // The clip's appclips entry itself is fine: acme.example lists the clip.
        #expect(result.findings("LINK001").isEmpty)
    }

    @Test func link008QuietWhenTheParentClaimsApplinks() async throws {
        let app = GeneratedBundle.app("Acme.app", bundleID: "com.acme.shop", domains: ["applinks:acme.example"])
        let result = try await Gate.offline(try GeneratedIPA.write(app: app, clip: Self.clip), AASAFolder())
        #expect(result.findings("LINK008").isEmpty, "\(result.dump)")
        let acme = try await Gate.offline(Acme.ipa, AASAFolder())
        #expect(acme.findings("LINK008").isEmpty, "\(acme.dump)")
    }

    @Test func link010FiresForAppclipsWithoutAnAppClip() async throws {
        let app = GeneratedBundle.app(
            "Acme.app",
            bundleID: "com.acme.shop",
            domains: ["applinks:acme.example", "appclips:acme.example"]
        )
        let result = try await Gate.offline(try GeneratedIPA.write(app: app), AASAFolder())
        let fired = result.findings("LINK010", bundle: "Payload/Acme.app", domain: "acme.example")
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.severity == .warning)
        // Not also "not listed": the full app's ID never belongs in appclips.apps.
        #expect(result.findings("LINK001").isEmpty)
    }

    @Test func link010QuietWhenTheIPAShipsTheClip() async throws {
        let result = try await Gate.offline(Acme.ipa, AASAFolder())
        #expect(result.findings("LINK010").isEmpty, "\(result.dump)")
    }

    // MARK: - App Clip IDs in appclips.apps

    /// Apple wants the clip's app ID in `appclips.apps`, so the parent's `appclips:acme.example` passes with the
    /// sample file, which lists only the clip (Samples/README.md).
    @Test func parentsAppclipsEntryIsJudgedByTheClipID() async throws {
        let result = try await Gate.offline(Acme.ipa, AASAFolder())
        let appclips = result.findings.filter {
            $0.bundle == Acme.mainBundle && $0.domain == "acme.example" && $0.message.contains("appclips")
        }
        #expect(appclips.isEmpty, "\(result.dump)")
    }

    /// Listing the parent instead of the clip breaks both the clip's own entry and the parent's.
    @Test func clipsAppclipsEntryIsJudgedByTheClipID() async throws {
        let folder = try AASAFolder()
        try folder.edit("acme.example") { $0["appclips"] = ["apps": [Acme.mainAppID]] }
        let result = try await Gate.offline(Acme.ipa, folder)
        // The same claim (appclips:acme.example, answered by the clip's ID) breaks in both bundles: one finding
        // naming both.
        let clip = result.findings("LINK001", domain: "acme.example").filter { $0.message.contains("appclips") }
        #expect(clip.count == 1, "\(result.dump)")
        #expect(clip.first?.message.contains(Acme.clipAppID) == true)
        #expect(clip.first?.affects?.contains(Acme.clipBundle) == true)
        #expect(clip.first?.affects?.contains(Acme.mainBundle) == true)
    }

    // MARK: - Suppressions

    private func configuration(_ json: String) throws -> GateConfiguration {
        let url = Scratch.folder.appendingPathComponent("ipacheck-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return try GateConfiguration.load(path: url.path)
    }

    @Test func aSuppressedFindingMovesToSuppressedWithItsReason() async throws {
        let configuration = try configuration(
            #"{"suppress": [{"rule": "LINK002", "domain": "links.acme.example", "reason": "ticket 42"}]}"#
        )
        let plain = try await Gate.offline(Acme.ipa, AASAFolder())
        let result = try await Gate.offline(Acme.ipa, AASAFolder(), configuration: configuration)
        #expect(result.findings("LINK002").isEmpty, "\(result.dump)")
        #expect(result.suppressed.count == 1)
        #expect(result.suppressed.first?.finding.rule == "LINK002")
        #expect(result.suppressed.first?.reason == "ticket 42")
        #expect(result.findings.count == plain.findings.count - 1)
    }

    @Test func aSuppressionForAnotherDomainSuppressesNothing() async throws {
        let configuration = try configuration(
            #"{"suppress": [{"rule": "LINK002", "domain": "acme.example", "reason": "not this one"}]}"#
        )
        let result = try await Gate.offline(Acme.ipa, AASAFolder(), configuration: configuration)
        #expect(result.findings("LINK002").count == 1)
        #expect(result.suppressed.isEmpty)
    }

    @Test(arguments: [
        #"{"suppress": [{"rule": "LINK002"}]}"#,
        #"{"suppress": [{"rule": "LINK002", "reason": "   "}]}"#,
        #"{"suppress": [{"reason": "no rule"}]}"#,
    ])
    func aSuppressionWithoutAReasonIsRefused(json: String) throws {
        let url = Scratch.folder.appendingPathComponent("ipacheck-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        let error = #expect(throws: InputError.self) { try GateConfiguration.load(path: url.path) }
        #expect(error?.code == "bad-config")
        #expect(error?.file == url.path)
        #expect(error?.message.contains("suppress[0]") == true)
    }

    // MARK: - Release and development builds

    /// Acme is App Store signed (get-task-allow false, App Store profile): its `?mode=developer` entry is skipped
    /// by iOS whatever the gate is told, so ENT022 fires in both modes and the beta host is never consulted.
    @Test(arguments: [true, false])
    func developerModeInADistributionSignedBuild(release: Bool) async throws {
        let result = try await Gate.offline(Acme.ipa, AASAFolder(), release: release)
        let fired = result.findings("ENT022", bundle: Acme.mainBundle)
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.severity == .error)
        #expect(fired.first?.message.contains("beta.acme.example") == true)
        #expect(!result.sites.contains { $0.fetchHost == "beta.acme.example" })
    }

    /// A development-signed build (get-task-allow true) may use `?mode=developer`: no ENT022, and the beta host's
    /// file is read (and lists the app).
    @Test func developerModeInADevelopmentSignedBuild() async throws {
        let app = GeneratedBundle.app(
            "Acme.app",
            bundleID: "com.acme.shop",
            domains: ["applinks:beta.acme.example?mode=developer"],
            getTaskAllow: true
        )
        let result = try await Gate.offline(try GeneratedIPA.write(app: app), AASAFolder(), release: false)
        #expect(result.findings("ENT022").isEmpty, "\(result.dump)")
        #expect(result.sites.contains { $0.fetchHost == "beta.acme.example" })
        #expect(result.findings("LINK001").isEmpty)
        #expect(result.findings("LINK006").isEmpty)
    }

    /// A development profile is an error only when gating a release (`check` without `--development`).
    @Test(arguments: [true, false])
    func developmentProfileCountsOnlyInRelease(release: Bool) async throws {
        let domains: [String] = ["applinks:acme.example"]
        var app = GeneratedBundle.app("Acme.app", bundleID: "com.acme.shop", domains: domains, getTaskAllow: true)
        app.profile = try ProfileBuilder(
            payload: ProfileBuilder.payload(
                teamID: Acme.team,
                bundleID: "com.acme.shop",
                entitlements: ["com.apple.developer.associated-domains": .array(domains.map { .string($0) })],
                getTaskAllow: true,
                devices: 2
            )
        ).build()
        let result = try await Gate.offline(try GeneratedIPA.write(app: app), AASAFolder(), release: release)
        #expect(result.findings("PROF007").count == (release ? 1 : 0), "\(result.dump)")
    }

    // MARK: - Distribution

    /// Acme embeds App Store profiles: gated for ad hoc, every bundle with a profile is of another kind (DIST004);
    /// gated for the App Store (or by default, from the profile), none is.
    @Test(arguments: [(Distribution?.none, false), (.appStore, false), (.adHoc, true), (.enterprise, true)])
    func profileOfAnotherKind(distribution: Distribution?, fires: Bool) async throws {
        let options = GateOptions(
            fetch: FetchOptions(offlineDirectory: try AASAFolder().url),
            fetcher: nil,
            distribution: distribution
        )
        let result = try await ReleaseGate.check(path: Acme.ipa, options: options)
        let fired = result.findings("DIST004")
        #expect(fired.isEmpty == !fires, "\(result.dump)")
        #expect(result.distribution == distribution ?? .appStore)
        if fires {
            #expect(fired.contains { $0.bundle == Acme.mainBundle || ($0.affects ?? []).contains(Acme.mainBundle) })
        }
    }

    /// The config file's distribution applies when --distribution is not given, and the option wins over it.
    @Test func configDistributionAndOptionOverride() async throws {
        var configuration = GateConfiguration()
        configuration.distribution = .adHoc
        let folder = try AASAFolder()
        let fromConfig = try await ReleaseGate.check(
            path: Acme.ipa,
            options: GateOptions(
                fetch: FetchOptions(offlineDirectory: folder.url),
                fetcher: nil,
                configuration: configuration
            )
        )
        #expect(!fromConfig.findings("DIST004").isEmpty)
        let overridden = try await ReleaseGate.check(
            path: Acme.ipa,
            options: GateOptions(
                fetch: FetchOptions(offlineDirectory: folder.url),
                fetcher: nil,
                configuration: configuration,
                distribution: .appStore
            )
        )
        #expect(overridden.findings("DIST004").isEmpty)
    }

    /// The build and the files its hosts serve are judged at one time: the gate's and the fetch options' are one
    /// value, whichever is set.
    @Test func oneJudgementTimeForTheBuildAndTheHostsFiles() {
        let given = Date(timeIntervalSince1970: 1_700_000_000)
        var options = GateOptions(fetch: FetchOptions(now: given), fetcher: nil)
        #expect(options.now == given && options.fetch.now == given)
        let later = given.addingTimeInterval(86_400)
        options.now = later
        #expect(options.fetch.now == later)
        options.fetch.now = given
        #expect(options.now == given)
    }
}
