package import Foundation
package import IPACheckCMS
import IPACheckPlist

/// The result of checking a profile's CMS signature: the verdict on its mathematics, and beside it who signed and
/// how far the certificates it carries lead; whether that signer is Apple's is the trust rules' question.
package struct ProfileSignatureStatus: Hashable, Sendable {
    /// The judgement on integrity.
    package enum Verdict: Hashable, Sendable {
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
    package var verdict: Verdict
    /// The signing certificate, when found among the envelope's certificates.
    package var signer: CertificateSummary?
    /// The signer followed by each issuer found in the envelope whose signature over the previous certificate
    /// verifies; it stops at a self-signed certificate or where the issuer is not included.
    package var chain: [CertificateSummary]
    /// The issuer name (CN) the chain stops at when that issuer's certificate is not in the envelope.
    package var missingIssuer: String?
    /// The signer, for trust evaluation (the trust rules); `nil` when the message does not carry it.
    package var identity: SignerIdentity?
    /// The digest algorithm (`SHA-1`, `SHA-256`, …), when known.
    package var digestAlgorithm: String?
    /// The `signingTime` signed attribute, when present.
    package var signingTime: Date?

    /// Whether the signature mathematics hold (``Verdict/valid``).
    package var isValid: Bool { verdict == .valid }
}

extension ProfileSignatureStatus: Encodable {
    private enum CodingKeys: String, CodingKey {
        case verdict, reason, signer, chain, missingIssuer, digestAlgorithm, signingTime
    }

    /// Encodes for `--format json`: `verdict` is `valid`, `contentDigestMismatch`, `invalidSignature`,
    /// `unsigned` or `unverifiable` (with `reason`); dates as ISO 8601.
    package func encode(to encoder: any Encoder) throws {
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
        try container.encodeIfPresent(digestAlgorithm, forKey: .digestAlgorithm)
        try container.encodeIfPresent(signingTime.map(PlistValue.iso8601), forKey: .signingTime)
    }
}

extension ProvisioningProfile {
    /// Checks the CMS signature over the profile's property list, as a device does before installing it.
    ///
    /// Integrity only: the chain, the signer and its expiry are reported beside the verdict; trust in the signer
    /// is evaluated apart (``SignerIdentity/evaluateTrust(now:)``).
    package func verifySignature() -> ProfileSignatureStatus {
        guard let envelope else {
            return ProfileSignatureStatus(verdict: .unsigned, chain: [])
        }
        guard envelope.signers.count == 1, let signer = envelope.signers.first else {
            return ProfileSignatureStatus(
                verdict: .unverifiable(reason: "the CMS message has \(envelope.signers.count) signers, expected 1"),
                chain: []
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
            identity: SignerIdentity(
                result,
                signingTime: signer.signedAttributes?.signingTime ?? creationDate,
                purpose: .content
            ),
            digestAlgorithm: result.digestAlgorithm?.displayName,
            signingTime: signer.signedAttributes?.signingTime
        )
    }
}
