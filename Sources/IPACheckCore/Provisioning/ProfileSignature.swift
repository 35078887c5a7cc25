public import Foundation
public import IPACheckCMS
import IPACheckPlist

/// The result of checking a profile's CMS signature: the verdict on its mathematics, and beside it who signed
/// and how far the certificates it carries lead, because ipacheck ships no trust store.
public struct ProfileSignatureStatus: Hashable, Sendable {
    /// The judgement on integrity.
    public enum Verdict: Hashable, Sendable {
        /// The signer's signature covers the signed attributes, and their `messageDigest` is the content's digest.
        case valid
        /// The property list was changed after signing: its digest differs from the signed `messageDigest`.
        case contentDigestMismatch
        /// The signature does not verify with the signer certificate's public key.
        case invalidSignature
        /// No CMS envelope at all (a bare property list read with `allowingUnsigned`).
        case unsigned
        /// The signature could not be checked (no signer, signer certificate missing, unknown algorithm).
        case unverifiable(reason: String)
    }

    /// The verdict.
    public var verdict: Verdict
    /// The signing certificate, when found among the envelope's certificates.
    public var signer: CertificateSummary?
    /// The signer followed by each issuer found in the envelope whose signature over the previous certificate
    /// verifies; it stops at a self-signed certificate or where the issuer is not included.
    public var chain: [CertificateSummary]
    /// The issuer name (CN) the chain stops at when that issuer's certificate is not in the envelope.
    public var missingIssuer: String?
    /// Whether the chain ends at one of Apple's published root certificates (matched by SHA-256 fingerprint).
    public var chainEndsAtAppleRoot: Bool
    /// The digest algorithm (`SHA-1`, `SHA-256`, …), when known.
    public var digestAlgorithm: String?
    /// The `signingTime` signed attribute, when present.
    public var signingTime: Date?

    /// Whether the signature mathematics hold (``Verdict/valid``).
    public var isValid: Bool { verdict == .valid }

    /// Whether the signer is named as Apple's provisioning-profile signer.
    ///
    /// That is, an Apple-issued certificate whose subject organization is Apple. Only ``chainEndsAtAppleRoot``
    /// is evidence; this is the name.
    public var isSignerAppleNamed: Bool {
        guard let signer else { return false }
        return signer.isIssuerAppleNamed
            && (signer.subjectOrganization.map(CertificateSummary.isAppleOrganization) ?? false)
    }

    /// SHA-256 fingerprints of Apple's root certificates (https://www.apple.com/certificateauthority/):
    /// Apple Root CA, Apple Root CA - G2, Apple Root CA - G3, Apple Root Certificate Authority.
    static let appleRootFingerprints: Set<String> = [
        "B0B1730ECBC7FF4505142C49F1295E6EDA6BCAED7E2C68C5BE91B5A11001F024",
        "C2B9B042DD57830E7D117DAC55AC8AE19407D38E41D88F3215BC3A890444A050",
        "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179",
        "0D83B611B648A1A75EB8558400795375CAD92E264ED8E9D7A757C1F5EE2BB22D",
    ]
}

extension ProfileSignatureStatus: Encodable {
    private enum CodingKeys: String, CodingKey {
        case verdict, reason, signer, chain, missingIssuer, chainEndsAtAppleRoot, signerAppleNamed, digestAlgorithm
        case signingTime
    }

    /// Encodes for `--format json`: `verdict` is `valid`, `contentDigestMismatch`, `invalidSignature`,
    /// `unsigned` or `unverifiable` (with `reason`); dates as ISO 8601.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch verdict {
        case .valid: try container.encode("valid", forKey: .verdict)
        case .contentDigestMismatch: try container.encode("contentDigestMismatch", forKey: .verdict)
        case .invalidSignature: try container.encode("invalidSignature", forKey: .verdict)
        case .unsigned: try container.encode("unsigned", forKey: .verdict)
        case .unverifiable(let reason):
            try container.encode("unverifiable", forKey: .verdict)
            try container.encode(reason, forKey: .reason)
        }
        try container.encodeIfPresent(signer, forKey: .signer)
        try container.encode(chain, forKey: .chain)
        try container.encodeIfPresent(missingIssuer, forKey: .missingIssuer)
        try container.encode(chainEndsAtAppleRoot, forKey: .chainEndsAtAppleRoot)
        try container.encode(isSignerAppleNamed, forKey: .signerAppleNamed)
        try container.encodeIfPresent(digestAlgorithm, forKey: .digestAlgorithm)
        try container.encodeIfPresent(signingTime.map(PlistValue.iso8601), forKey: .signingTime)
    }
}

extension ProvisioningProfile {
    /// Checks the CMS signature over the profile's property list, as a device does before installing it.
    ///
    /// Integrity only: the chain, the signer's names and expiry are reported beside the verdict, since Apple's
    /// root is not shipped with ipacheck (its fingerprint is compared instead).
    public func verifySignature() -> ProfileSignatureStatus {
        guard let envelope else {
            return ProfileSignatureStatus(verdict: .unsigned, chain: [], chainEndsAtAppleRoot: false)
        }
        guard envelope.signers.count == 1, let signer = envelope.signers.first else {
            return ProfileSignatureStatus(
                verdict: .unverifiable(reason: "the CMS message has \(envelope.signers.count) signers, expected 1"),
                chain: [],
                chainEndsAtAppleRoot: false
            )
        }
        let result = envelope.verify(signer: signer)
        let verdict: ProfileSignatureStatus.Verdict =
            switch result.verdict {
            case .valid: .valid
            case .contentDigestMismatch: .contentDigestMismatch
            case .invalidSignature: .invalidSignature
            case .unverifiable(let reason): .unverifiable(reason: reason)
            }
        return ProfileSignatureStatus(
            verdict: verdict,
            signer: result.signer,
            chain: result.chain,
            missingIssuer: result.missingIssuer,
            chainEndsAtAppleRoot: result.chain.last.map {
                ProfileSignatureStatus.appleRootFingerprints.contains($0.sha256Fingerprint)
            } ?? false,
            digestAlgorithm: result.digestAlgorithm?.displayName,
            signingTime: signer.signedAttributes?.signingTime
        )
    }
}

extension CertificateSummary {
    /// Whether the issuer's organization is Apple's (`Apple Inc.` or the older `Apple Computer, Inc.`).
    ///
    /// A name is not proof: anyone can write it. ``ProfileSignatureStatus/chainEndsAtAppleRoot`` is the check
    /// that means something.
    public var isIssuerAppleNamed: Bool {
        issuerOrganization.map(Self.isAppleOrganization) ?? false
    }

    static func isAppleOrganization(_ name: String) -> Bool {
        name == "Apple Inc." || name == "Apple Computer, Inc."
    }
}
