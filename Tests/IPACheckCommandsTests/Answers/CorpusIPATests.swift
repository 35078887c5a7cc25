import Foundation
import IPACheckBundle
import IPACheckCommands
import IPACheckReport
import IPACheckTestSupport
import Testing

/// The real ipas in ../shared/corpus, with the values their MANIFEST.tsv entries (and the peers' own test suites
/// quoted there) say they hold.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct CorpusIPATests {
    private func open(_ name: String) throws -> IPAFile {
        try IPAFile(path: Corpus.url("ipa/\(name)").path)
    }

    @Test(arguments: ["fastlane_very-capable-app.ipa", "fastlane_very capable app.ipa"])
    func readsFastlanesCapableApp(name: String) throws {
        let ipa = try open(name)
        #expect(ipa.mainApp.bundleID == "org.fastlane.very-capable-app")
        #expect(ipa.mainApp.provisioningProfile != nil)
        let report = try InfoReport.make(for: ipa)
        #expect(report.bundles[0].architectures == ["arm64"])
        #expect(report.bundles[0].signing.signed)
    }

    @Test func readsAppInfosIPhoneApp() throws {
        let report = try InfoReport.make(for: try open("appinfo_iphone.ipa"))
        let main = report.bundles[0]
        #expect(main.bundleID == "com.icyleaf.AppInfoDemo")
        #expect(main.build == "5")
        #expect(main.version == "1.2.3")
        #expect(main.minimumOSVersion == "9.3")
        #expect(main.architectures == ["armv7", "arm64"])
    }

    @Test func readsTheEmbeddedExtensionOfTheUniversalApp() throws {
        let report = try InfoReport.make(for: try open("appinfo_embedded_universal.ipa"))
        #expect(report.bundles.first?.bundleID == "com.icyleaf.test.Demo")
        #expect(report.bundles.first?.minimumOSVersion == "14.3")
        #expect(report.bundles.first?.architectures == ["arm64"])
        #expect(report.bundles.contains { $0.kind == .appex })
    }

    @Test func readsTheIPadEnterpriseApp() throws {
        let ipa = try open("appinfo_ipad.ipa")
        #expect(ipa.mainApp.bundleID == "com.icyleaf.bundle")
        #expect(ipa.mainApp.version == "1.0")
        #expect(ipa.mainApp.build == "1")
    }

    @Test func detectsTheTVOSPlatform() throws {
        #expect(try open("appinfo_apple-tv.ipa").mainApp.platform == "appletvos")
    }

    @Test func picksTheTopLevelAppOfTheWatchIPA() throws {
        let ipa = try open("fastlane_ContainsWatchApp.ipa")
        #expect(ipa.mainApp.bundleID == "com.example.Sample")
        #expect(ipa.mainApp.build == "1")
        #expect(ipa.bundles.contains { $0.kind == .watch })
    }

    /// A zipped .app (the bundle at the archive's root, as device farms ship it) is a target (README, targets):
    /// MANIFEST.tsv says isign's TestSimulator.app.zip holds `isignTestApp.app/` at its root, unsigned.
    @Test func readsAZippedApp() throws {
        let ipa = try open("isign_TestSimulator.app.zip")
        #expect(ipa.mainApp.path == "isignTestApp.app")
        #expect(ipa.mainApp.bundleID == "com.saucelabs.isignTestApp")
    }

    @Test func readsTheMinimalApp() throws {
        let ipa = try open("fastlane_iOSAppOnly.ipa")
        #expect(ipa.mainApp.bundleID == "com.example.Sample")
        #expect(ipa.mainApp.build == "1")
    }

    @Test(arguments: [
        ("fastlane_not-an-ipa.ipa", "unknown-format"),
        ("fastlane_no-app-bundle.ipa", "no-app-bundle"),
        ("isign_NotAnApp.ipa", "no-app-bundle"),
        ("appinfo_macos-signed.zip", "no-app-bundle"),
        ("appinfo_macos-unsigned.zip", "no-app-bundle"),
    ])
    func refusesWhatIsNotAnIPA(name: String, code: String) {
        #expect {
            _ = try open(name)
        } throws: { error in
            (error as? InputError)?.code == code
        }
    }
}
