import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@testable import IPACheckCMS

/// Apple's certificate policy as ipacheck applies it: the shipped roots and intermediates match their pins, the
/// intermediates are path candidates and never anchors, Apple's marker extensions are understood by policy (an
/// unknown critical one still refuses the chain), and the verdict says what is really wrong.
///
/// Chains other than Apple's are generated here with test keys (no key is committed), judged with generated roots in
/// place of Apple's through ``AppleTrust/evaluate(signer:intermediates:at:purpose:roots:shipped:)``.
struct AppleChainTests {
    // MARK: Pins

    @Test("every shipped root and intermediate hashes to its pin, recomputed from its bytes")
    func everyShippedCertificateMatchesItsPin() throws {
        for root in AppleRootCertificates.pinned {
            let der = try #require(Data(base64Encoded: root.base64, options: .ignoreUnknownCharacters))
            #expect(Self.sha256(Array(der)) == root.sha256, "root \(root.name)")
        }
        for intermediate in AppleIntermediateCertificates.pinned {
            let der = try #require(AppleIntermediateCertificates.der(intermediate))
            #expect(Self.sha256(der) == intermediate.sha256, "intermediate \(intermediate.sha256)")
            let certificate = try #require(CertificateReading.certificate(der: der))
            #expect(
                AppleTrust.name(certificate)
                    == intermediate.name.replacingOccurrences(of: #" \(.*\)$"#, with: "", options: .regularExpression)
            )
        }
        #expect(AppleIntermediateCertificates.certificates.count == AppleIntermediateCertificates.pinned.count)
        #expect(AppleTrust.intermediates.count == AppleIntermediateCertificates.pinned.count)
        #expect(AppleRootCertificates.certificates.count == 4)
    }

    @Test("the intermediates shipped are the ones Apple's signatures need")
    func theShippedIntermediatesCoverApplesCAs() {
        let fingerprints = Set(AppleIntermediateCertificates.pinned.map(\.sha256))
        let expected: [String: String] = [
            "WWDR (2016)": "64B302913F11CA1B6806093B76CADE7F7B123BE0C04924FDA87F5F4E8647F051",
            "WWDR (2023)": "CE057691D730F89CA25E916F7335F4C8A15713DCD273A658C024023F8EB809C2",
            "WWDR G2": "9ED4B3B88C6A339CF1387895BDA9CA6EA31A6B5CE9EDF7511845923B0C8AC94C",
            "WWDR G3": "DCF21878C77F4198E4B4614F03D696D89C66C66008D4244E1B99161AAC91601F",
            "WWDR G4": "EA4757885538DD8CB59FF4556F676087D83C85E70902C122E42C0808B5BCE14C",
            "WWDR G5": "53FD008278E5A595FE1E908AE9C5E5675F26243264A5A6438C023E3CE2870760",
            "WWDR G6": "BDD4ED6E74691F0C2BFD01BE0296197AF1379E0418E2D300EFA9C3BEF642CA30",
            "WWDR G7": "0F570D7502373A2102E2106FAAA8FA4844944A07EE676198484F4D6CE15BEA47",
            "Developer ID": "7AFC9D01A62F03A2DE9637936D4AFE68090D2DE18D03F29C88CFB0B1BA63587F",
            "Developer ID G2": "F16CD3C54C7F83CEA4BF1A3E6A0819C8AAA8E4A1528FD144715F350643D2DF3A",
            "iPhone CA (2022)": "E4E2936D3C076EC4AEA8AC37277524950CA005894B39BBA2D347FA33155AE5FA",
            "iPhone CA (2030)": "C6A6F35C3BEE9A9413A063919F61B8400F50F708AC867F462C2D029BA9505ED2",
        ]
        for (name, fingerprint) in expected {
            #expect(fingerprints.contains(fingerprint), "\(name) is not shipped")
        }
    }

    @Test("the shipped intermediates are never anchors: each chains to a pinned Apple root through its signature")
    func shippedIntermediatesAreNotAnchors() async throws {
        let rootNames = Set(AppleRootCertificates.certificates.map { AppleTrust.name($0) })
        for certificate in AppleIntermediateCertificates.certificates {
            #expect(certificate.subject != certificate.issuer)
            #expect(!AppleRootCertificates.certificates.contains(certificate))
            let during = certificate.notValidBefore.addingTimeInterval(86_400)
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            let verdict = await AppleTrust.evaluate(
                signer: serializer.serializedBytes,
                intermediates: [],
                at: .signingTime(during),
                purpose: .content
            )
            guard case .trusted(let chain) = verdict else {
                Issue.record("\(AppleTrust.name(certificate)): \(verdict)")
                continue
            }
            // The chain goes on to a root: the intermediate anchored nothing itself.
            #expect(chain.count == 2 && rootNames.contains(chain[1]), "\(chain)")
        }
    }

    @Test("Apple's marker extensions are declared understood by policies, not by switching checks off")
    func markersAreUnderstoodByPolicy() {
        let signing = Set(AppleSigningMarkerPolicy().verifyingCriticalExtensions)
        let authority = Set(AppleAuthorityMarkerPolicy().verifyingCriticalExtensions)
        for arc: ASN1ObjectIdentifier in [
            [1, 2, 840, 113_635, 100, 6, 1, 2], [1, 2, 840, 113_635, 100, 6, 1, 3], [1, 2, 840, 113_635, 100, 6, 1, 4],
            [1, 2, 840, 113_635, 100, 6, 1, 7], [1, 2, 840, 113_635, 100, 6, 1, 12],
            [1, 2, 840, 113_635, 100, 6, 1, 13],
            [1, 2, 840, 113_635, 100, 6, 1, 14], [1, 2, 840, 113_635, 100, 6, 1, 33],
            [1, 2, 840, 113_635, 100, 6, 3, 6],
        ] {
            #expect(signing.contains(arc), "\(arc)")
        }
        for arc: ASN1ObjectIdentifier in [
            [1, 2, 840, 113_635, 100, 6, 2, 1], [1, 2, 840, 113_635, 100, 6, 2, 6],
            [1, 2, 840, 113_635, 100, 6, 2, 18],
        ] {
            #expect(authority.contains(arc), "\(arc)")
        }
        #expect(signing.isDisjoint(with: authority))
        #expect(!signing.contains([1, 2, 840, 113_635, 100, 6, 1, 99]))
    }

    // MARK: Generated chains

    @Test(
        "a leaf with the critical markers of each kind of Apple signing identity chains to its root",
        arguments: [
            [[1, 2, 840, 113_635, 100, 6, 1, 4], [1, 2, 840, 113_635, 100, 6, 1, 7]],  // Apple Distribution
            [[1, 2, 840, 113_635, 100, 6, 1, 2], [1, 2, 840, 113_635, 100, 6, 1, 12]],  // Apple Development
            [[1, 2, 840, 113_635, 100, 6, 1, 3]],  // Apple iPhone OS Application Signing (the App Store)
            [[1, 2, 840, 113_635, 100, 6, 1, 13], [1, 2, 840, 113_635, 100, 6, 1, 33]],  // Developer ID Application
            [[1, 2, 840, 113_635, 100, 6, 1, 14]],  // Developer ID Installer
        ] as [[ASN1ObjectIdentifier]]
    )
    func signingIdentityMarkersAreAccepted(markers: [ASN1ObjectIdentifier]) async throws {
        let pki = try TestPKI()
        let leaf = try pki.leaf(markers: markers)
        let verdict = await pki.judge(leaf, carrying: [pki.intermediate], at: .signingTime(pki.now))
        #expect(verdict == .trusted(chain: ["Test Leaf", "Test Intermediate", "Test Root"]))
    }

    @Test("an unknown critical extension in Apple's arc refuses the chain, and says so instead of 'no chain'")
    func unknownAppleMarkerRefusesTheChain() async throws {
        let pki = try TestPKI()
        let unknown: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 1, 99]
        let leaf = try pki.leaf(markers: [unknown])
        let verdict = await pki.judge(leaf, carrying: [pki.intermediate], at: .signingTime(pki.now))
        guard case .invalidChain(let root, let reason) = verdict else {
            Issue.record("expected an invalid chain, got \(verdict)")
            return
        }
        #expect(root == "Test Root")
        #expect(reason.contains("1.2.840.113635.100.6.1.99 (in Apple's marker arc)"), "\(reason)")
        #expect(reason.contains("does not know"), "\(reason)")
        Self.expectNoDump(reason)
    }

    @Test("an expired intermediate is found expired, named, dated, with the time judged")
    func expiredIntermediateIsAnExpiryNotNoChain() async throws {
        let pki = try TestPKI()
        let old = try pki.intermediate(expiring: pki.now.addingTimeInterval(-86_400))
        let leaf = try pki.leaf(issuer: old)
        let verdict = await pki.judge(leaf, carrying: [old.certificate], at: .signingTime(pki.now))
        guard case .expired(let expiry) = verdict else {
            Issue.record("expected expired, got \(verdict)")
            return
        }
        #expect(expiry.lapses.map(\.certificate) == ["Test Intermediate"])
        #expect(expiry.lapses.first?.isSigner == false)
        #expect(expiry.chain == ["Test Leaf", "Test Intermediate", "Test Root"])
        let day = AppleTrust.timestamp(old.certificate.notValidAfter)
        #expect(
            expiry.reason
                == "\"Test Intermediate\" expired on \(day); the chain was judged at the CMS signing time, "
                + "\(AppleTrust.timestamp(pki.now))"
        )
        Self.expectNoDump(expiry.reason)
    }

    @Test("a shipped renewal of an expired intermediate (same name and key) completes the chain, as Apple's tools do")
    func shippedRenewalReplacesAnExpiredIntermediate() async throws {
        let pki = try TestPKI()
        let old = try pki.intermediate(expiring: pki.now.addingTimeInterval(-86_400))
        let leaf = try pki.leaf(issuer: old)
        let verdict = await pki.judge(
            leaf,
            carrying: [old.certificate],
            at: .signingTime(pki.now),
            shipped: [pki.intermediate]
        )
        #expect(verdict == .trusted(chain: ["Test Leaf", "Test Intermediate", "Test Root"]))
        // And a signature that carries no intermediate at all.
        #expect(await pki.judge(leaf, carrying: [], at: .signingTime(pki.now), shipped: [pki.intermediate]).isTrusted)
    }

    @Test("a signer that has expired, judged now because the signature states no signing time, is said so")
    func expiredSignerJudgedNow() async throws {
        let pki = try TestPKI()
        let leaf = try pki.leaf(expiring: pki.now.addingTimeInterval(-3600))
        let verdict = await pki.judge(leaf, carrying: [pki.intermediate], at: .now(pki.now))
        guard case .expired(let expiry) = verdict else {
            Issue.record("expected expired, got \(verdict)")
            return
        }
        #expect(expiry.lapses.map(\.isSigner) == [true])
        #expect(expiry.reason.hasPrefix("\"Test Leaf\" expired on "), "\(expiry.reason)")
        #expect(
            expiry.reason.hasSuffix(
                "judged now, \(AppleTrust.timestamp(pki.now)), as the signature states no signing time"
            )
        )
    }

    @Test("a shipped intermediate anchors nothing: a chain that ends at it, not at a root, does not chain")
    func shippedIntermediateIsNoAnchor() async throws {
        let pki = try TestPKI()
        let elsewhere = try TestPKI()
        let leaf = try elsewhere.leaf()
        let verdict = await pki.judge(leaf, carrying: [], at: .signingTime(pki.now), shipped: [elsewhere.intermediate])
        #expect(verdict == .untrusted(reason: "no chain leads from it through Test Intermediate to an Apple root"))
    }

    @Test("a certificate carrying a signing-identity marker cannot issue one")
    func signingMarkerOnAnIssuerIsRefused() async throws {
        let pki = try TestPKI()
        let issuer = try pki.intermediate(markers: [Self.appleDistribution])
        let leaf = try pki.leaf(issuer: issuer)
        let verdict = await pki.judge(leaf, carrying: [issuer.certificate], at: .signingTime(pki.now))
        guard case .invalidChain(_, let reason) = verdict else {
            Issue.record("expected an invalid chain, got \(verdict)")
            return
        }
        #expect(reason.contains("\"Test Intermediate\" carries Apple's marker of a signing identity"), "\(reason)")
    }

    // MARK: Helpers

    static let appleDistribution: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 1, 4]

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02X", $0) }.joined()
    }

    static func expectNoDump(_ reason: String) {
        for dump in ["RFC5280Policy", "Certificate(", "serialNumber", "X509v3", "DistinguishedName("] {
            #expect(!reason.contains(dump), "\(reason)")
        }
    }
}

/// A root, an intermediate and leaves made at test time with fresh P-256 keys, all valid around `now`.
private struct TestPKI {
    struct Authority {
        let key: P256.Signing.PrivateKey
        let certificate: Certificate
    }

    /// 2023-11-14T22:13:20Z, the time the generated chains are judged at.
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    let root: Authority
    let intermediateKey = P256.Signing.PrivateKey()
    let intermediate: Certificate

    var now: Date { Self.now }

    init() throws {
        let now = Self.now
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("Test Root") }
        root = Authority(
            key: key,
            certificate: try Self.certificate(
                subject: name,
                key: key.publicKey,
                issuer: name,
                issuerKey: key,
                from: now.addingTimeInterval(-10 * 365 * 86_400),
                until: now.addingTimeInterval(10 * 365 * 86_400),
                authority: true,
                markers: []
            )
        )
        intermediate = try Self.certificate(
            subject: try DistinguishedName { CommonName("Test Intermediate") },
            key: intermediateKey.publicKey,
            issuer: name,
            issuerKey: key,
            from: now.addingTimeInterval(-5 * 365 * 86_400),
            until: now.addingTimeInterval(5 * 365 * 86_400),
            authority: true,
            markers: [[1, 2, 840, 113_635, 100, 6, 2, 1]]
        )
    }

    /// An intermediate with the same name and key as ``intermediate`` (a renewal), expiring at `expiring`, or
    /// carrying `markers`.
    func intermediate(
        expiring: Date? = nil,
        markers: [ASN1ObjectIdentifier] = [[1, 2, 840, 113_635, 100, 6, 2, 1]]
    ) throws -> Authority {
        Authority(
            key: intermediateKey,
            certificate: try Self.certificate(
                subject: intermediate.subject,
                key: intermediateKey.publicKey,
                issuer: root.certificate.subject,
                issuerKey: root.key,
                from: now.addingTimeInterval(-8 * 365 * 86_400),
                until: expiring ?? now.addingTimeInterval(5 * 365 * 86_400),
                authority: true,
                markers: markers
            )
        )
    }

    /// A code-signing leaf issued by `issuer` (by default ``intermediate``), with Apple markers, critical.
    func leaf(
        issuer: Authority? = nil,
        markers: [ASN1ObjectIdentifier] = [[1, 2, 840, 113_635, 100, 6, 1, 4]],
        expiring: Date? = nil
    ) throws -> Certificate {
        let issuer = issuer ?? Authority(key: intermediateKey, certificate: intermediate)
        return try Self.certificate(
            subject: try DistinguishedName { CommonName("Test Leaf") },
            key: P256.Signing.PrivateKey().publicKey,
            issuer: issuer.certificate.subject,
            issuerKey: issuer.key,
            from: now.addingTimeInterval(-365 * 86_400),
            until: expiring ?? now.addingTimeInterval(365 * 86_400),
            authority: false,
            markers: markers
        )
    }

    /// Judges `leaf` against this PKI's root (the only anchor), with `carrying` as the message's certificates.
    func judge(
        _ leaf: Certificate,
        carrying: [Certificate],
        at time: AppleTrust.JudgementTime,
        shipped: [Certificate] = []
    ) async -> AppleTrust.Verdict {
        await AppleTrust.evaluate(
            signer: Self.der(leaf),
            intermediates: carrying.map(Self.der),
            at: time,
            purpose: .codeSigning,
            roots: [root.certificate],
            shipped: shipped
        )
    }

    static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        try? serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    static func certificate(
        subject: DistinguishedName,
        key: P256.Signing.PublicKey,
        issuer: DistinguishedName,
        issuerKey: P256.Signing.PrivateKey,
        from: Date,
        until: Date,
        authority: Bool,
        markers: [ASN1ObjectIdentifier]
    ) throws -> Certificate {
        var extensions: [Certificate.Extension] = [
            try Certificate.Extension(
                authority ? BasicConstraints.isCertificateAuthority(maxPathLength: nil) : .notCertificateAuthority,
                critical: true
            ),
            try Certificate.Extension(
                authority ? KeyUsage(keyCertSign: true) : KeyUsage(digitalSignature: true),
                critical: true
            ),
        ]
        if !authority {
            extensions.append(try Certificate.Extension(try ExtendedKeyUsage([.codeSigning]), critical: true))
        }
        // Apple's markers hold a DER NULL.
        extensions += markers.map { Certificate.Extension(oid: $0, critical: true, value: [0x05, 0x00]) }
        return try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key),
            notValidBefore: from,
            notValidAfter: until,
            issuer: issuer,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions(extensions),
            issuerPrivateKey: .init(issuerKey)
        )
    }
}
