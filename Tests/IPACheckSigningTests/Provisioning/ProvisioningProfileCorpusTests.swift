import Foundation
import IPACheckCMS
import IPACheckPlist
import IPACheckTestSupport
import Testing

@testable import IPACheckSigning

/// Every profile in the corpus loads or fails as ../shared/corpus/MANIFEST.tsv describes it.
///
/// Signature verdicts
/// were established independently with `openssl cms -verify -noverify -inform DER` (all valid except
/// fastlane_match_test.provisionprofile: "content verify error"; its payload differs from fastlane_test's by the
/// one edited `Platform` string). Kinds come from app-info's spec (spec/app_info/mobile_provision_spec.rb).
@Suite("Provisioning profiles from the corpus", .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ProvisioningProfileCorpusTests {
    static let signedProfiles = [
        "appinfo_NotificationService.appex_embedded.mobileprovision",
        "appinfo_ios_adhoc.mobileprovision",
        "appinfo_ios_appstore.mobileprovision",
        "appinfo_ios_development.mobileprovision",
        "appinfo_macos_appstore.provisionprofile",
        "appinfo_macos_development.provisionprofile",
        "appinfo_profile.mobileprovision",
        "appinfo_signed_plist.mobileprovision",
        "fastlane_gym_AppStore_net.sunapps.9.watch.mobileprovision",
        "fastlane_match_AppStore_tools.fastlane.app.mobileprovision",
        "fastlane_test.mobileprovision",
        "fastlane_very-capable-app_embedded.mobileprovision",
        "isign_test.mobileprovision",
    ]

    private func load(_ file: String, allowingUnsigned: Bool = false) throws -> ProvisioningProfile {
        try ProvisioningProfile.parse(Corpus.bytes("mobileprovision/\(file)"), allowingUnsigned: allowingUnsigned)
    }

    private func failure(_ file: String) throws -> ProvisioningError? {
        do {
            _ = try ProvisioningProfile.parse(Corpus.bytes("mobileprovision/\(file)"))
            return nil
        } catch let error as ProvisioningError {
            return error
        }
    }

    @Test("CMS profiles parse and their signatures verify", arguments: signedProfiles)
    func signedProfileVerifies(file: String) throws {
        let profile = try load(file)
        #expect(profile.isSigned)
        #expect(profile.verifySignature().verdict == .valid)
    }

    @Test("a profile edited after signing reports a content digest mismatch")
    func tamperedProfile() throws {
        let profile = try load("fastlane_match_test.provisionprofile")
        #expect(profile.platforms == ["OSX"])
        #expect(profile.verifySignature().verdict == .contentDigestMismatch)
    }

    @Test(
        "empty files fail as empty",
        arguments: ["appinfo_invalid_empty.mobileprovision", "fastlane_gym_dummy_empty.mobileprovision"]
    )
    func emptyFile(file: String) throws {
        #expect(try failure(file)?.code == .empty)
    }

    @Test(
        "an XML prologue without a plist is neither CMS nor a property list",
        arguments: [
            "appinfo_invalid_missing_plist_block.mobileprovision", "appinfo_invalid_missing_plist_tag.mobileprovision",
        ]
    )
    func missingPlist(file: String) throws {
        #expect(try failure(file)?.code == .notCMS)
    }

    @Test(
        "bare property lists are reported as unsigned, and load only when allowed",
        arguments: [
            "appinfo_bplist.mobileprovision", "appinfo_plist.mobileprovision",
            "fastlane_spaceship_downloaded_provisioning_profile.mobileprovision",
        ]
    )
    func unsignedPropertyList(file: String) throws {
        #expect(try failure(file)?.code == .unsignedPropertyList)
        let profile = try load(file, allowingUnsigned: true)
        #expect(!profile.isSigned)
        #expect(profile.verifySignature().verdict == .unsigned)
    }

    @Test("the binary plist fixture is an in-house profile (ProvisionsAllDevices)")
    func binaryPlistKind() throws {
        let profile = try load("appinfo_bplist.mobileprovision", allowingUnsigned: true)
        #expect(profile.provisionsAllDevices)
        #expect(profile.kind == .enterprise)
        #expect(profile.platforms == ["iOS"])
    }

    @Test("isign's profile decodes to exactly isign's plist, with its documented entitlements")
    func isignGroundTruth() throws {
        let profile = try load("isign_test.mobileprovision")
        let truth = try PlistParser.parse(Corpus.bytes("mobileprovision/isign_test.mobileprovision.plist"))
        #expect(profile.payload == truth)
        #expect(profile.entitlements["application-identifier"] == .string("ISIGNTESTS.*"))
        #expect(profile.entitlements["get-task-allow"] == .bool(true))
        #expect(profile.kind == .development)
    }

    @Test("isign's profile is signed by a self-signed, non-Apple certificate")
    func isignSigner() async throws {
        let status = try load("isign_test.mobileprovision").verifySignature()
        let signer = try #require(status.signer)
        #expect(signer.subjectCommonName == "isign_tests")
        #expect(signer.isSelfIssued)
        #expect(signer.subjectOrganization != "Apple Inc.")
        #expect(try await trust(status) == .untrusted(reason: "it is self-signed, not issued by Apple"))
        #expect(status.digestAlgorithm == "SHA-256")
    }

    @Test("fastlane's very-capable-app profile has the documented UUID and team name")
    func veryCapableApp() throws {
        let profile = try load("fastlane_very-capable-app_embedded.mobileprovision")
        #expect(profile.uuid == "12345678-1234-1234-1234-123456789012")
        #expect(profile.teamName == "TestFixture")
        #expect(profile.verifySignature().verdict == .valid)
    }

    @Test(
        "app-info's fixtures classify as its spec says",
        arguments: [
            ("appinfo_ios_development.mobileprovision", ProfileKind.development, true, "iOS"),
            ("appinfo_ios_adhoc.mobileprovision", ProfileKind.adHoc, true, "iOS"),
            ("appinfo_ios_appstore.mobileprovision", ProfileKind.appStore, false, "iOS"),
            ("appinfo_macos_development.provisionprofile", ProfileKind.development, true, "OSX"),
            ("appinfo_macos_appstore.provisionprofile", ProfileKind.appStore, false, "OSX"),
        ]
    )
    func appInfoKinds(file: String, kind: ProfileKind, hasDevices: Bool, platform: String) throws {
        let profile = try load(file)
        #expect(profile.kind == kind)
        #expect((profile.provisionedDeviceCount != nil) == hasDevices)
        #expect(profile.platforms == [platform])
        #expect(!profile.teamIdentifiers.isEmpty)
        #expect(profile.teamName?.isEmpty == false)
        #expect(profile.name?.isEmpty == false)
        #expect(profile.appIDName?.isEmpty == false)
        #expect(profile.creationDate != nil)
        #expect(profile.expirationDate != nil)
        #expect(!profile.entitlements.isEmpty)
        #expect(!profile.developerCertificates.isEmpty)
    }

    @Test("Apple-signed profiles name Apple's signer and chain to the pinned Apple Root CA")
    func appleChain() async throws {
        let status = try load("appinfo_ios_adhoc.mobileprovision").verifySignature()
        #expect(status.signer?.subjectCommonName == "Apple iPhone OS Provisioning Profile Signing")
        #expect(
            status.chain.map(\.subjectCommonName) == [
                "Apple iPhone OS Provisioning Profile Signing", "Apple iPhone Certification Authority", "Apple Root CA",
            ]
        )
        #expect(
            try await trust(status)
                == .trusted(chain: [
                    "Apple iPhone OS Provisioning Profile Signing", "Apple iPhone Certification Authority",
                    "Apple Root CA",
                ])
        )
        #expect(status.missingIssuer == nil)
        #expect(status.digestAlgorithm == "SHA-1")
    }

    /// Whether the profile's signer chains to one of Apple's pinned roots.
    private func trust(_ status: ProfileSignatureStatus) async throws -> AppleTrust.Verdict {
        try await #require(status.identity).evaluateTrust(now: Date())
    }

    /// The envelope carries "Apple Root Certificate Authority", but the intermediate is issued by "Apple Root CA":
    /// the chain inside the envelope stops there, and the pinned Apple Root CA completes it, so the profile is
    /// Apple's (it was reported as "not Apple" when the chain was judged by the envelope alone).
    @Test("a chain whose root is not in the envelope is completed by the pinned Apple Root CA")
    func chainWithoutItsRoot() async throws {
        let status = try load("fastlane_test.mobileprovision").verifySignature()
        #expect(status.chain.count == 2)
        #expect(status.missingIssuer == "Apple Root CA")
        #expect(try await trust(status).isTrusted)
    }

    @Test("the expiry date is read as the plist states it")
    func expirationDate() throws {
        // isign_test.mobileprovision.plist: <key>ExpirationDate</key><date>2017-11-28T22:57:49Z</date>
        let profile = try load("isign_test.mobileprovision")
        #expect(profile.expirationDate == ISO8601DateFormatter().date(from: "2017-11-28T22:57:49Z"))
        #expect(profile.provisionedDeviceCount == 2)
    }
}
