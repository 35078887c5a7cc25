import IPACheckPlist
import IPACheckReport
import IPACheckTestSupport
import Testing

@testable import IPACheckBundle
@testable import IPACheckGate
@testable import IPACheckLinks
@testable import IPACheckSigning

/// Signed entitlements against a profile's grants (Apple's TN3125, "Inside Code Signing: Provisioning Profiles":
/// `TEAMID.*` wildcards, `"*"` for associated domains).
struct EntitlementComparisonTests {
    private let grants: [String: PlistValue] = [
        "application-identifier": .string("ABCDE12345.*"),
        "com.apple.developer.team-identifier": .string("ABCDE12345"),
        "get-task-allow": .bool(false),
        "keychain-access-groups": .array([.string("ABCDE12345.*")]),
        "aps-environment": .string("production"),
        "com.apple.developer.associated-domains": .array([.string("applinks:example.com")]),
    ]

    private func rules(_ signed: [String: PlistValue], profile: [String: PlistValue]? = nil) -> [String] {
        EntitlementComparison.compare(signed: signed, profile: profile ?? grants).map(\.rule)
    }

    @Test("claims covered by the profile's wildcards and lists give no findings")
    func granted() {
        let signed: [String: PlistValue] = [
            "application-identifier": .string("ABCDE12345.com.example.app"),
            "com.apple.developer.team-identifier": .string("ABCDE12345"),
            "get-task-allow": .bool(false),
            "keychain-access-groups": .array([.string("ABCDE12345.com.example.app"), .string("ABCDE12345.shared")]),
            "aps-environment": .string("production"),
            "com.apple.developer.associated-domains": .array([.string("applinks:example.com")]),
            "beta-reports-active": .bool(true),
        ]
        #expect(rules(signed).isEmpty)
    }

    @Test("each named mismatch has its rule")
    func mismatches() {
        #expect(rules(["application-identifier": .string("OTHER12345.com.example.app")]) == ["ENT101"])
        #expect(rules(["com.apple.developer.team-identifier": .string("OTHER12345")]) == ["ENT102"])
        #expect(
            rules(["keychain-access-groups": .array([.string("ABCDE12345.ok"), .string("OTHER12345.no")])]) == [
                "ENT103"
            ]
        )
        #expect(rules(["get-task-allow": .bool(true)]) == ["ENT105"])
        #expect(rules(["aps-environment": .string("development")]) == ["ENT106"])
        #expect(rules([AssociatedDomains.mdmManagedKey: .bool(true)]) == ["ENT107"])
        #expect(rules(["com.apple.developer.healthkit": .bool(true)]) == ["ENT108"])
    }

    @Test("a concrete domain list must contain every signed entry; '*' grants any")
    func associatedDomains() {
        let signed: [String: PlistValue] = [
            AssociatedDomains.key: .array([.string("applinks:example.com"), .string("applinks:other.example")])
        ]
        let findings = EntitlementComparison.compare(signed: signed, profile: grants)
        #expect(findings.map(\.rule) == ["ENT104"])
        #expect(findings.first?.domain == "other.example")

        var anyDomain = grants
        anyDomain[AssociatedDomains.key] = .string("*")
        #expect(rules(signed, profile: anyDomain).isEmpty)

        var noDomains = grants
        noDomains[AssociatedDomains.key] = nil
        #expect(rules(signed, profile: noDomains) == ["ENT104", "ENT104"])
    }

    @Test("get-task-allow false under a development profile is only a note")
    func distributionSignatureDevelopmentProfile() {
        let findings = EntitlementComparison.compare(
            signed: ["get-task-allow": .bool(false)],
            profile: ["get-task-allow": .bool(true)]
        )
        #expect(findings.map(\.rule) == ["ENT109"])
        #expect(findings.first?.severity == .note)
    }

    @Test("signing kind: get-task-allow first, the profile's kind otherwise")
    func signingKind() throws {
        let development = try ProvisioningProfile(payload: ProfileBuilder.payload(getTaskAllow: true, devices: 1))
        let appStore = try ProvisioningProfile(payload: ProfileBuilder.payload())
        #expect(
            BundleFacts.signingKind(signed: ["get-task-allow": .bool(true)], profile: nil) == .development
        )
        #expect(
            BundleFacts.signingKind(signed: ["get-task-allow": .bool(false)], profile: appStore)
                == .distribution
        )
        #expect(
            BundleFacts.signingKind(signed: ["get-task-allow": .bool(false)], profile: nil) == .distribution
        )
        #expect(BundleFacts.signingKind(signed: [:], profile: development) == .development)
        #expect(BundleFacts.signingKind(signed: [:], profile: appStore) == .distribution)
        #expect(BundleFacts.signingKind(signed: [:], profile: nil) == nil)
    }
}

/// Real pairs from the corpus, the expectations read off both files with python3's plistlib.
@Suite("Entitlements against profiles in the corpus", .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct EntitlementComparisonCorpusTests {
    @Test("fastlane's very-capable-app: every archived entitlement is granted by its embedded profile")
    func veryCapableApp() throws {
        let signed = try PlistParser.parse(
            Corpus.bytes("entitlements/fastlane_very-capable-app_archived-expanded-entitlements.xcent")
        )
        let profile = try ProvisioningProfile.parse(
            Corpus.bytes("mobileprovision/fastlane_very-capable-app_embedded.mobileprovision")
        )
        let dictionary = try #require(signed.dictionaryValue)
        #expect(EntitlementComparison.compare(signed: dictionary, profile: profile.entitlements).isEmpty)
    }

    @Test("isign's sample entitlements name team ISIGNTEST, its profile grants ISIGNTESTS.*")
    func isignPrefixMismatch() throws {
        let signed = try #require(
            try PlistParser.parse(Corpus.bytes("entitlements/isign_sample-entitlements.plist")).dictionaryValue
        )
        let profile = try ProvisioningProfile.parse(Corpus.bytes("mobileprovision/isign_test.mobileprovision"))
        let rules = EntitlementComparison.compare(signed: signed, profile: profile.entitlements).map(\.rule)
        #expect(rules.sorted() == ["ENT101", "ENT102", "ENT103"])
    }
}
