import IPACheckPlist
import IPACheckReport
import IPACheckTestSupport
import Testing

@testable import IPACheckGate

/// ENT023 (docs/ios-model.md I57): a watch app with a separate WatchKit extension needs its associated domains on the
/// extension; a single-target watch app carries them itself.
struct WatchKitExtensionDomainsTests {
    static let watchPath = "Payload/Acme.app/Watch/AcmeWatch.app"
    static let extensionPath = watchPath + "/PlugIns/AcmeWatchExtension.appex"

    /// An ipa whose watch app claims `watch` and, when `watchKit` is given, has a WatchKit extension claiming it.
    static func ipa(watch: [String], watchKit: [String]?, extensionExecutable: Bool = true) throws -> String {
        var zip = ZipBuilder()
        let app = GeneratedBundle.app("Acme.app", bundleID: "com.acme.shop", domains: ["applinks:acme.example"])
        for (name, bytes) in PlatformFactTests.members(app, at: "Payload/Acme.app") { zip.add(name, bytes) }
        let watchApp = GeneratedBundle.app("AcmeWatch.app", bundleID: "com.acme.shop.watchkitapp", domains: watch)
        for (name, bytes) in PlatformFactTests.members(watchApp, at: watchPath) { zip.add(name, bytes) }
        if let watchKit {
            let bundle = GeneratedBundle.app(
                "AcmeWatchExtension.appex",
                bundleID: "com.acme.shop.watchkitapp.extension",
                domains: watchKit
            )
            let point: PlistValue = .dictionary(["NSExtensionPointIdentifier": .string("com.apple.watchkit")])
            let members = PlatformFactTests.members(bundle, at: extensionPath, values: [("NSExtension", point)])
            for (name, bytes) in members where extensionExecutable || name.hasSuffix("/Info.plist") {
                zip.add(name, bytes)
            }
        }
        return try zip.write(named: "Watch.ipa")
    }

    @Test func firesWhenOnlyTheWatchAppClaimsTheDomains() async throws {
        let ipa = try Self.ipa(watch: ["applinks:acme.example", "webcredentials:acme.example"], watchKit: [])
        let result = try await Gate.offline(ipa, AASAFolder())
        let fired = result.findings("ENT023", bundle: Self.watchPath)
        #expect(fired.count == 1, "\(result.dump)")
        #expect(fired.first?.severity == .warning)
        #expect(fired.first?.message.contains("claims no associated domain") == true)
        #expect(fired.first?.message.contains(Self.extensionPath) == true)
    }

    @Test func namesTheEntriesTheExtensionLacks() async throws {
        let ipa = try Self.ipa(
            watch: ["applinks:acme.example", "webcredentials:acme.example"],
            watchKit: ["applinks:acme.example"]
        )
        let result = try await Gate.offline(ipa, AASAFolder())
        let fired = result.findings("ENT023", bundle: Self.watchPath)
        #expect(
            fired.map(\.message) == [
                "\(Self.watchPath) claims webcredentials:acme.example, but its WatchKit extension \(Self.extensionPath) "
                    + "does not claim it"
            ]
        )
    }

    @Test func quietWhenTheExtensionCarriesThem() async throws {
        let ipa = try Self.ipa(watch: ["applinks:acme.example"], watchKit: ["applinks:acme.example"])
        let result = try await Gate.offline(ipa, AASAFolder())
        #expect(result.findings("ENT023").isEmpty, "\(result.dump)")
        #expect(result.coverage.status(of: "ENT023") == .ran)
    }

    /// An extension whose executable is missing has unknown entitlements: ARC008 says so, ENT023 does not guess.
    @Test func quietWhenTheExtensionCannotBeRead() async throws {
        let ipa = try Self.ipa(watch: ["applinks:acme.example"], watchKit: [], extensionExecutable: false)
        let result = try await Gate.offline(ipa, AASAFolder())
        #expect(result.findings("ENT023").isEmpty, "\(result.dump)")
        #expect(!result.findings("ARC008", bundle: Self.extensionPath).isEmpty, "\(result.dump)")
    }

    @Test func quietForASingleTargetWatchApp() async throws {
        let ipa = try Self.ipa(watch: ["applinks:acme.example"], watchKit: nil)
        let result = try await Gate.offline(ipa, AASAFolder())
        #expect(result.findings("ENT023").isEmpty, "\(result.dump)")
    }

    @Test func isInTheCatalogueAndTheGate() {
        #expect(RuleFamily.registered.first { $0.prefix == "ENT" }?.all.contains(WatchKitExtensionDomains.rule) == true)
        #expect(GateChecks.rules.contains(WatchKitExtensionDomains.rule))
    }
}
