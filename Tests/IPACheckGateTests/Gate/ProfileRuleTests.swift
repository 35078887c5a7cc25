import Foundation
import IPACheckBundle
import IPACheckGate
import IPACheckPlist
import IPACheckReport
import IPACheckSigning
import IPACheckTestSupport
import Testing

/// Profile rules made to fire, and kept quiet on the closest valid input.
///
/// Profiles come from ``ProfileBuilder`` (a fresh CA each run); a profile is a DER CMS `SignedData` whose
/// `eContent` is an XML property list (Apple's TN3125, "Inside Code Signing: Provisioning Profiles").
struct ProfileRuleTests {
    static let app = "Payload/A.app"
    static let profilePath = "Payload/A.app/embedded.mobileprovision"
    // Before the payload's ExpirationDate (2030-03-17) and inside the certificates' validity (2023-11 to 2033-05).
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    // MARK: PROF004 signature cannot be checked

    private static func findings(_ builder: ProfileBuilder) throws -> [Finding] {
        let profile = try ProvisioningProfile.parse(try builder.build())
        return ProfileChecks.findings(
            for: profile,
            signature: profile.verifySignature(),
            now: now,
            bundle: app
        )
    }

    @Test("a signer whose certificate is not in the message raises PROF004")
    func signatureUnverifiableFires() throws {
        var builder = ProfileBuilder(payload: ProfileBuilder.payload())
        builder.includesSignerCertificate = false  // only the root travels with the message
        let found = try Self.findings(builder).filter { $0.rule == "PROF004" }
        #expect(found.map(\.bundle) == [Self.app])
        #expect(found.map(\.location) == ["embedded.mobileprovision"])
        #expect(found.first?.severity == .warning)
    }

    @Test("the same profile carrying its signer certificate verifies and raises no PROF004 (nor PROF003)")
    func signatureUnverifiableQuiet() throws {
        let builder = ProfileBuilder(payload: ProfileBuilder.payload())
        let rules = Set(try Self.findings(builder).map(\.rule))
        #expect(!rules.contains("PROF004"))
        #expect(!rules.contains("PROF003"))
    }

    @Test("a bare property list has no signature to check: PROF005, not PROF004")
    func signatureUnverifiableQuietForUnsigned() throws {
        let bare = Array(ProfileBuilder.payload().xmlDocument.utf8)
        let profile = try ProvisioningProfile.parse(bare, allowingUnsigned: true)
        let rules = ProfileChecks.findings(
            for: profile,
            signature: profile.verifySignature(),
            now: Self.now,
            bundle: Self.app
        ).map(\.rule)
        #expect(rules.contains("PROF005"))
        #expect(!rules.contains("PROF004"))
    }

    // MARK: PROF009 profile unreadable

    /// An ipa whose main app (ad hoc signed) embeds `profile` as its `embedded.mobileprovision`.
    private static func facts(embedding profile: [UInt8]) throws -> BundleFacts {
        var zip = ZipBuilder()
        zip.add(
            "\(app)/Info.plist",
            PlistFixture.info(["CFBundleIdentifier": "com.example.app", "CFBundleExecutable": "A"])
        )
        zip.add("\(app)/A", MachOBuilder.slice(signing: MachOBuilder.Signing()))
        zip.add(profilePath, profile)
        let ipa = try IPAFile(path: try zip.write())
        return try #require(try BundleFacts.gatherAll(ipa: ipa).first)
    }

    /// Embedded profiles that are neither a CMS-signed property list nor a bare one.
    enum UnreadableProfile: String, CaseIterable, Sendable {
        /// MANIFEST: fastlane's 0-byte `dummy.mobileprovision` is such a file.
        case empty
        case textNeitherCMSNorPlist
        case truncatedCMS
        case cmsContentNotAPlist

        func bytes() throws -> [UInt8] {
            let signed = ProfileBuilder(payload: ProfileBuilder.payload())
            switch self {
            case .empty: return []
            case .textNeitherCMSNorPlist: return Array("not a profile".utf8)
            case .truncatedCMS: return Array(try signed.build().prefix(200))
            case .cmsContentNotAPlist:
                var builder = signed
                builder.signedContent = Array("hello".utf8)
                return try builder.build()
            }
        }
    }

    @Test(
        "an embedded profile that is not a CMS-signed property list raises PROF009",
        arguments: UnreadableProfile.allCases
    )
    func profileUnreadableFires(profile: UnreadableProfile) throws {
        let facts = try Self.facts(embedding: try profile.bytes())
        let found = facts.findings(judgedAt: Self.now).filter { $0.rule == "PROF009" }
        #expect(found.map(\.bundle) == [Self.app])
        #expect(found.map(\.location) == [Self.profilePath])
        #expect(found.first?.severity == .error)
        #expect(facts.profile == nil)
    }

    @Test("a well-formed signed profile raises no PROF009")
    func profileUnreadableQuiet() throws {
        let facts = try Self.facts(embedding: try ProfileBuilder(payload: ProfileBuilder.payload()).build())
        #expect(!facts.findings(judgedAt: Self.now).contains { $0.rule == "PROF009" })
        #expect(facts.profile?.teamIdentifiers == ["ABCDE12345"])  // ProfileBuilder.payload's default team
    }
}
