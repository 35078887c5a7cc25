import Foundation
import IPACheckTestSupport
import Testing

/// The App Store's own builds: an app as the App Store delivers it is FairPlay-encrypted
/// (`LC_ENCRYPTION_INFO_64` `cryptid` 1), signed by Apple's application-signing certificate and has no
/// `embedded.mobileprovision`.
///
/// No such build is in ../shared/corpus (store downloads carry a buyer's account), so every case runs on an ipa
/// generated here: ``MachOBuilder/appStoreExecutable(bodySize:cryptID:cryptOffset:cryptSize:signerName:infoPlist:codeResources:)``
/// writes the executable (its CodeDirectory hashes the bytes of the "encrypted" range as they lie in the file, as
/// Apple's do) and signs it with a throwaway leaf carrying Apple's subject names, under a root that is not Apple's.
/// The expected values are the fixture's own: the encrypted range is bytes 16384 to 32768 (`cryptoff` 0x4000,
/// `cryptsize` 0x4000), pages 4 to 7 of 4096 bytes.
struct AppStoreBuildCLITests {
    static let bundle = "Payload/Store.app"

    /// A seal of no resources (the bundle holds only Info.plist, omitted as codesign's rules2 omit it, and the
    /// executable, which is code, not a resource).
    static let codeResources = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        <key>files</key><dict/>
        <key>files2</key><dict/>
        <key>rules</key><dict><key>^.*</key><true/></dict>
        <key>rules2</key>
        <dict>
        <key>^.*</key><true/>
        <key>^Info\\.plist$</key><dict><key>omit</key><true/><key>weight</key><real>20</real></dict>
        </dict>
        </dict>
        </plist>
        """.utf8
    )

    /// The fixture ipa, `Payload/Store.app`.
    ///
    /// Info.plist and CodeResources (sealed in slots −1 and −3) and the executable; no profile unless
    /// `withProfile`. `change` edits the executable after signing.
    static func storeIPA(
        cryptID: UInt32 = 1,
        signerName: String = MachOBuilder.appStoreSignerName,
        withProfile: Bool = false,
        change: (inout [UInt8]) -> Void = { _ in }
    ) throws -> String {
        let info = PlistFixture.info([
            "CFBundleIdentifier": "com.example.app", "CFBundleExecutable": "Store", "CFBundlePackageType": "APPL",
            "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
        ])
        var executable = try MachOBuilder.appStoreExecutable(
            cryptID: cryptID,
            signerName: signerName,
            infoPlist: info,
            codeResources: codeResources
        )
        change(&executable)
        var zip = ZipBuilder()
        zip.add("Payload/")
        zip.add("Payload/Store.app/")
        zip.add("Payload/Store.app/Info.plist", info)
        zip.add("Payload/Store.app/_CodeSignature/")
        zip.add("Payload/Store.app/_CodeSignature/CodeResources", codeResources)
        zip.add("Payload/Store.app/Store", executable)
        if withProfile {
            zip.add(
                "Payload/Store.app/embedded.mobileprovision",
                try ProfileBuilder(payload: ProfileBuilder.payload()).build()
            )
        }
        return try zip.write(named: "Store-\(UUID()).ipa")
    }

    static func findings(_ result: CLIResult) throws -> [[String: Any]] {
        try #require(try result.jsonObject()["findings"] as? [[String: Any]], "\(result.stdout)")
    }

    static func rules(_ findings: [[String: Any]]) -> [String] {
        findings.compactMap { $0["rule"] as? String }
    }

    static func check(_ ipa: String, _ extra: [String] = []) throws -> CLIResult {
        try CLI.run(["check", ipa] + SampleFiles.offline + extra)
    }

    static func messages(_ findings: [[String: Any]], rule: String) -> [String] {
        findings.filter { $0["rule"] as? String == rule }.compactMap { $0["message"] as? String }
    }

    // MARK: info

    /// Before: `… no entitlements · no profile · FairPlay-encrypted`, and no `distribution` key.
    @Test func infoSaysAppStoreInTheSigningSummary() throws {
        let ipa = try Self.storeIPA()
        let text = try CLI.run(["info", ipa])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("App Store (FairPlay-encrypted)"), "\(text.stdout)")
        #expect(!text.stdout.contains("no profile"))
        let json = try CLI.run(["info", ipa, "--format", "json"]).jsonObject()
        let bundles = try #require(json["bundles"] as? [[String: Any]])
        let signing = try #require(bundles.first?["signing"] as? [String: Any])
        #expect(signing["distribution"] as? String == "App Store (FairPlay-encrypted)")
        #expect(signing["encrypted"] as? Bool == true)
        #expect(signing["provisioningProfile"] == nil)
    }

    // MARK: check

    /// Before: DIST001 "has no embedded.mobileprovision, so no device installs it" (an error, exit 1).
    @Test func checkTreatsTheDistributionAsTheAppStore() throws {
        let result = try Self.check(try Self.storeIPA(), ["--format", "json"])
        #expect(result.status == 0, "\(result.stdout)")
        let findings = try Self.findings(result)
        let rules = Self.rules(findings)
        #expect(!rules.contains("DIST001"))
        #expect(rules.contains("DIST005"))
        #expect(!rules.contains("SIG002"))
        let note = try #require(Self.messages(findings, rule: "DIST005").first)
        #expect(note.contains("FairPlay-encrypted (arm64)"))
        #expect(note.contains("CN=Apple iPhone OS Application Signing"))
        // The fixture's range: cryptoff 0x4000, cryptsize 0x4000, so 4 pages of 4096 bytes.
        let pages = try #require(Self.messages(findings, rule: "SIG040").first)
        #expect(pages.contains("bytes 16384 to 32768"))
        #expect(pages.contains("4 code pages were checked as delivered"))
    }

    /// Gated for another distribution, a store delivery is the wrong build (DIST004), still not DIST001.
    @Test func checkGatedForAdHocSaysItIsAnAppStoreDelivery() throws {
        let result = try Self.check(try Self.storeIPA(), ["--format", "json", "--distribution", "ad-hoc"])
        #expect(result.status == 1, "\(result.stdout)")
        let findings = try Self.findings(result)
        #expect(!Self.rules(findings).contains("DIST001"))
        let mismatch = try #require(Self.messages(findings, rule: "DIST004").first)
        #expect(mismatch.contains("is gated for ad-hoc but is an App Store delivery"))
    }

    /// Control: the same encrypted build signed by another identity is no store delivery; DIST001 stands.
    @Test func anotherSignerIsNotTheAppStore() throws {
        let ipa = try Self.storeIPA(signerName: "Apple Distribution: Example (ABCDE12345)")
        let findings = try Self.findings(try Self.check(ipa, ["--format", "json"]))
        #expect(Self.rules(findings).contains("DIST001"))
        #expect(!Self.rules(findings).contains("DIST005"))
        let pages = try #require(Self.messages(findings, rule: "SIG040").first)
        #expect(pages.contains("FairPlay-encrypted (cryptid 1):"), "\(pages)")
        let info = try CLI.run(["info", ipa])
        #expect(info.stdout.contains("no profile · FairPlay-encrypted"), "\(info.stdout)")
    }

    /// Control: with an embedded profile the profile decides (App Store kind here), as before.
    @Test func aBuildWithAProfileIsJudgedByItsProfile() throws {
        let findings = try Self.findings(try Self.check(try Self.storeIPA(withProfile: true), ["--format", "json"]))
        #expect(!Self.rules(findings).contains("DIST005"))
        #expect(!Self.rules(findings).contains("DIST001"))
    }

    // MARK: verify

    /// Before: no word that the pages are encrypted (the same hashes passed silently).
    @Test func verifyChecksTheEncryptedPagesAsDelivered() throws {
        let result = try CLI.run(["verify", try Self.storeIPA(), "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)")
        let findings = try Self.findings(result)
        #expect(!Self.rules(findings).contains("SIG002"))
        #expect(!Self.rules(findings).contains("SIG011"))
        let note = try #require(Self.messages(findings, rule: "SIG040").first)
        #expect(
            note.contains("FairPlay-encrypted (cryptid 1, signed by Apple iPhone OS Application Signing for App Store")
        )
        #expect(note.contains("checked as delivered, encrypted"))
    }

    /// A byte of an encrypted page (0x5000, page 5) changed after signing fails SIG002, which says the page is
    /// in the encrypted range.
    @Test func verifyFailsAnEncryptedPageChangedAfterSigning() throws {
        let ipa = try Self.storeIPA { $0[0x5000] ^= 0xff }
        let result = try CLI.run(["verify", ipa, "--format", "json"])
        #expect(result.status == 1, "\(result.stdout)")
        let message = try #require(Self.messages(try Self.findings(result), rule: "SIG002").first)
        #expect(message.contains("1 of 10 code pages differ"), "\(message)")
        #expect(message.contains("(pages 5)"))
        #expect(message.contains("1 of them lie in the FairPlay-encrypted range"))
    }

    /// A copy whose `cryptid` was set to 0 after signing (what decrypting tools do) breaks page 0, which holds the
    /// load commands, and is no store delivery any more: DIST001, no SIG040, no App Store in info.
    @Test func aCopyMarkedDecryptedAfterSigningIsNeither() throws {
        // LC_ENCRYPTION_INFO_64 is the first load command, at 32: cmd, cmdsize, cryptoff, cryptsize, cryptid (+16).
        let ipa = try Self.storeIPA { $0[48] = 0 }
        let verify = try Self.findings(try CLI.run(["verify", ipa, "--format", "json"]))
        #expect(Self.messages(verify, rule: "SIG002").first?.contains("(pages 0)") == true)
        #expect(!Self.rules(verify).contains("SIG040"))
        let check = try Self.findings(try Self.check(ipa, ["--format", "json"]))
        #expect(Self.rules(check).contains("DIST001"))
        #expect(!(try CLI.run(["info", ipa]).stdout.contains("App Store")))
    }
}
