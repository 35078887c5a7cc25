import Foundation
import IPACheckCMS
import IPACheckPlist
import IPACheckReport
import IPACheckSigning
import IPACheckTestSupport
import Testing

@testable import IPACheckGate

/// Profiles generated at test time by ``ProfileBuilder`` (fresh P-256 keys each run) cover the branches real
/// fixtures cannot: a broken signature, an expired or expiring profile, an Apple-named impostor.
struct ProfileSignatureTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func parse(_ builder: ProfileBuilder) throws -> ProvisioningProfile {
        try ProvisioningProfile.parse(builder.build())
    }

    private func ruleIDs(_ profile: ProvisioningProfile) -> Set<String> {
        Set(ProfileChecks.findings(for: profile, signature: profile.verifySignature(), now: Self.now).map(\.rule))
    }

    /// The trust rules' verdict on the profile's signer (PROF006 when it does not chain to an Apple root).
    private func trustRuleIDs(_ profile: ProvisioningProfile) async throws -> Set<String> {
        let identity = try #require(profile.verifySignature().identity)
        let findings = await TrustChecks.findings(
            code: [],
            profiles: [TrustChecks.Signed(identity: identity, bundle: nil)]
        )
        return Set(findings.map(\.rule))
    }

    @Test("a freshly signed profile verifies and reports its signer and chain")
    func validSignature() throws {
        let profile = try parse(ProfileBuilder(payload: ProfileBuilder.payload()))
        let status = profile.verifySignature()
        #expect(status.verdict == .valid)
        #expect(status.signer?.subjectCommonName == "ipacheck Test Profile Signing")
        #expect(status.chain.map(\.subjectCommonName) == ["ipacheck Test Profile Signing", "ipacheck Test Root"])
        #expect(status.digestAlgorithm == "SHA-256")
        #expect(status.signingTime == ISO8601DateFormatter().date(from: "2024-01-02T03:04:05Z"))
    }

    @Test("a signer without signed attributes signs the content directly, which also verifies")
    func contentSignedDirectly() throws {
        var builder = ProfileBuilder(payload: ProfileBuilder.payload())
        builder.includesSignedAttributes = false
        #expect(try parse(builder).verifySignature().verdict == .valid)
    }

    @Test("content changed after signing is a digest mismatch and raises PROF003")
    func tamperedContent() throws {
        var builder = ProfileBuilder(payload: ProfileBuilder.payload())
        builder.tamper = { bytes in
            Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "<false/>", with: "<true/>").utf8)
        }
        let profile = try parse(builder)
        #expect(profile.entitlements["get-task-allow"] == .bool(true))
        #expect(profile.verifySignature().verdict == .contentDigestMismatch)
        #expect(ruleIDs(profile).contains("PROF003"))
    }

    @Test("a damaged signature value is an invalid signature")
    func corruptedSignature() throws {
        var builder = ProfileBuilder(payload: ProfileBuilder.payload())
        builder.corruptsSignature = true
        let profile = try parse(builder)
        #expect(profile.verifySignature().verdict == .invalidSignature)
        #expect(ruleIDs(profile).contains("PROF003"))
    }

    @Test("without the root in the envelope the chain stops and names the missing issuer")
    func missingRoot() throws {
        var builder = ProfileBuilder(payload: ProfileBuilder.payload())
        builder.includesRoot = false
        let status = try parse(builder).verifySignature()
        #expect(status.verdict == .valid)
        #expect(status.chain.count == 1)
        #expect(status.missingIssuer == "ipacheck Test Root")
    }

    @Test("a signer merely named 'Apple Inc.' does not chain to an Apple root: PROF006")
    func appleNamedImpostor() async throws {
        var builder = ProfileBuilder(payload: ProfileBuilder.payload())
        builder.signerOrganization = "Apple Inc."
        let profile = try parse(builder)
        let status = profile.verifySignature()
        #expect(status.signer?.subjectOrganization == "Apple Inc.")
        #expect(status.verdict == .valid)
        #expect(try await trustRuleIDs(profile).contains("PROF006"))
    }

    @Test("an expired profile raises PROF001; one expiring within 30 days PROF002; a later one neither")
    func expiry() throws {
        let day: TimeInterval = 24 * 60 * 60
        let expired = try parse(ProfileBuilder(payload: ProfileBuilder.payload(expiration: Self.now - day)))
        let soon = try parse(ProfileBuilder(payload: ProfileBuilder.payload(expiration: Self.now + 10 * day)))
        let later = try parse(ProfileBuilder(payload: ProfileBuilder.payload(expiration: Self.now + 31 * day)))
        #expect(ruleIDs(expired).contains("PROF001"))
        #expect(ruleIDs(soon).contains("PROF002"))
        #expect(!ruleIDs(soon).contains("PROF001"))
        #expect(ruleIDs(later).isDisjoint(with: ["PROF001", "PROF002"]))
    }

    @Test("an expired signing certificate is a note (PROF008)")
    func expiredSigner() throws {
        var builder = ProfileBuilder(payload: ProfileBuilder.payload())
        builder.certificatesValid =
            Date(timeIntervalSince1970: 1_600_000_000)...Date(timeIntervalSince1970: 1_700_000_000)
        let profile = try parse(builder)
        #expect(profile.verifySignature().verdict == .valid)
        #expect(ruleIDs(profile).contains("PROF008"))
    }

    /// Whether a development profile fails the gate is the distribution checks' question (PROF007, see
    /// ReleaseGateTests.developmentProfileCountsOnlyInRelease); the profile's own checks never raise it.
    @Test("a development profile is classified as such, and the profile's own checks do not judge the distribution")
    func developmentProfile() throws {
        let profile = try parse(ProfileBuilder(payload: ProfileBuilder.payload(getTaskAllow: true, devices: 3)))
        #expect(profile.kind == .development)
        #expect(profile.provisionedDeviceCount == 3)
        #expect(!ruleIDs(profile).contains("PROF007"))
    }

    @Test(
        "kinds follow TN3125: devices ± get-task-allow, ProvisionsAllDevices, none",
        arguments: [
            (true, 2, false, "iOS", ProfileKind.development),
            (false, 2, false, "iOS", ProfileKind.adHoc),
            (false, nil, false, "iOS", ProfileKind.appStore),
            (false, nil, true, "iOS", ProfileKind.enterprise),
            (false, 1, false, "OSX", ProfileKind.development),
            (false, nil, true, "OSX", ProfileKind.developerID),
            (false, nil, false, "OSX", ProfileKind.appStore),
        ] as [(Bool, Int?, Bool, String, ProfileKind)]
    )
    func kinds(getTaskAllow: Bool, devices: Int?, allDevices: Bool, platform: String, kind: ProfileKind) throws {
        let payload = ProfileBuilder.payload(
            getTaskAllow: getTaskAllow,
            devices: devices,
            provisionsAllDevices: allDevices,
            platform: platform
        )
        #expect(try ProvisioningProfile(payload: payload).kind == kind)
    }

    @Test("truncating a valid profile anywhere gives a ProvisioningError, never a crash")
    func truncation() throws {
        let bytes = try ProfileBuilder(payload: ProfileBuilder.payload()).build()
        for length in stride(from: 1, to: bytes.count, by: 7) {
            #expect(throws: ProvisioningError.self) { try ProvisioningProfile.parse(Array(bytes.prefix(length))) }
        }
    }

    @Test("flipping any byte of the envelope never crashes the reader or the verifier")
    func bitFlips() throws {
        let bytes = try ProfileBuilder(payload: ProfileBuilder.payload()).build()
        var verdicts = 0
        for index in stride(from: 0, to: bytes.count, by: 3) {
            var damaged = bytes
            damaged[index] ^= 0x5A
            if let profile = try? ProvisioningProfile.parse(damaged) {
                _ = profile.verifySignature()
                verdicts += 1
            }
        }
        // Some flips land in the signature or certificates and still parse.
        #expect(verdicts > 0)
    }

    @Test("a profile whose content is not a property list is malformedPropertyList")
    func contentNotAPlist() throws {
        var builder = ProfileBuilder(payload: ProfileBuilder.payload())
        builder.tamper = { _ in Array("hello".utf8) }
        #expect(throws: ProvisioningError(.malformedPropertyList, "")) {
            _ = try ProvisioningProfile.parse(builder.build())
        }
    }

    @Test("garbage that is neither CMS nor XML is notCMS; a huge file is tooLarge")
    func garbage() throws {
        #expect(throws: ProvisioningError(.notCMS, "")) { _ = try ProvisioningProfile.parse([0x00, 0x01, 0x02]) }
        let large = [UInt8](repeating: 0x30, count: ProvisioningProfile.maximumSize + 1)
        #expect(throws: ProvisioningError(.tooLarge, "")) { _ = try ProvisioningProfile.parse(large) }
    }
}

extension ProfileSignatureTests {
    @Test("the status encodes its verdict and signer for JSON output")
    func statusJSON() throws {
        var builder = ProfileBuilder(payload: ProfileBuilder.payload())
        builder.corruptsSignature = true
        let status = try ProvisioningProfile.parse(builder.build()).verifySignature()
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(status)) as? [String: Any]
        #expect(object?["verdict"] as? String == "invalidSignature")
        #expect(object?["digestAlgorithm"] as? String == "SHA-256")
        #expect(object?["signingTime"] as? String == "2024-01-02T03:04:05Z")
        #expect((object?["chain"] as? [Any])?.count == 2)
    }
}
