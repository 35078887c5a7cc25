import Crypto
public import Foundation
import IPACheckPlist
import SwiftASN1
import X509

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
    public var signer: ProfileCertificateSummary?
    /// The signer followed by each issuer found in the envelope whose signature over the previous certificate
    /// verifies; it stops at a self-signed certificate or where the issuer is not included.
    public var chain: [ProfileCertificateSummary]
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
            && (signer.subjectOrganization.map(ProfileCertificateSummary.isAppleOrganization) ?? false)
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
        return ProfileSignatureChecker(envelope: envelope).check()
    }
}

/// Verifies a ``CMSEnvelope``'s single signer with swift-certificates' public-key API and swift-crypto digests.
struct ProfileSignatureChecker {
    let envelope: CMSEnvelope
    let certificates: [(certificate: Certificate, der: ArraySlice<UInt8>)]

    init(envelope: CMSEnvelope) {
        self.envelope = envelope
        certificates = envelope.certificates.compactMap { der in
            (try? Certificate(derEncoded: Array(der))).map { ($0, der) }
        }
    }

    func check() -> ProfileSignatureStatus {
        var status = ProfileSignatureStatus(verdict: .valid, chain: [], chainEndsAtAppleRoot: false)
        guard envelope.signers.count == 1, let signerInfo = envelope.signers.first else {
            status.verdict = .unverifiable(reason: "the CMS message has \(envelope.signers.count) signers, expected 1")
            return status
        }
        status.signingTime = signerInfo.signedAttributes?.signingTime
        guard let digest = DigestKind(signerInfo.digestAlgorithm) else {
            status.verdict = .unverifiable(reason: "unsupported digest algorithm \(signerInfo.digestAlgorithm)")
            return status
        }
        status.digestAlgorithm = digest.name
        guard let index = signerCertificateIndex(signerInfo.identifier) else {
            status.verdict = .unverifiable(reason: "the signer's certificate is not among the profile's certificates")
            return status
        }
        let signerCertificate = certificates[index].certificate
        status.signer = ProfileCertificateSummary(signerCertificate, derEncoding: certificates[index].der)
        (status.chain, status.missingIssuer) = chain(from: index)
        status.chainEndsAtAppleRoot =
            status.chain.last.map { ProfileSignatureStatus.appleRootFingerprints.contains($0.sha256Fingerprint) }
            ?? false

        guard let algorithm = signatureAlgorithm(signerInfo.signatureAlgorithm, digest: digest) else {
            status.verdict = .unverifiable(
                reason: "unsupported signature algorithm \(signerInfo.signatureAlgorithm) with \(digest.name)"
            )
            return status
        }
        let signedBytes: [UInt8]
        if let attributes = signerInfo.signedAttributes {
            guard let messageDigest = attributes.messageDigest else {
                status.verdict = .unverifiable(reason: "the signed attributes have no messageDigest")
                return status
            }
            guard digest.hash(envelope.content) == Array(messageDigest) else {
                status.verdict = .contentDigestMismatch
                return status
            }
            signedBytes = attributes.signedBytes
        } else {
            signedBytes = envelope.content
        }
        let valid = signerCertificate.publicKey.isValidSignature(
            Array(signerInfo.signature),
            for: signedBytes,
            signatureAlgorithm: algorithm
        )
        status.verdict = valid ? .valid : .invalidSignature
        return status
    }

    /// Finds the certificate a `SignerIdentifier` names.
    private func signerCertificateIndex(_ identifier: CMSSigner.Identifier) -> Int? {
        switch identifier {
        case .issuerAndSerialNumber(let issuerNode, let serial):
            let serialNumber = Certificate.SerialNumber(bytes: serial)
            let issuer = try? DistinguishedName(derEncoded: issuerNode)
            return certificates.firstIndex { entry in
                entry.certificate.serialNumber == serialNumber && (issuer == nil || entry.certificate.issuer == issuer)
            }
        case .subjectKeyIdentifier(let key):
            return certificates.firstIndex { entry in
                guard let identifier = try? entry.certificate.extensions.subjectKeyIdentifier else { return false }
                return identifier.keyIdentifier == key
            }
        }
    }

    /// Follows issuers inside the envelope, checking each link's signature.
    private func chain(from start: Int) -> ([ProfileCertificateSummary], String?) {
        var result = [ProfileCertificateSummary(certificates[start].certificate, derEncoding: certificates[start].der)]
        var current = certificates[start].certificate
        var used: Set<Int> = [start]
        while result.count <= certificates.count {
            if current.subject == current.issuer { return (result, nil) }
            let next = certificates.indices.first { candidate in
                !used.contains(candidate) && certificates[candidate].certificate.subject == current.issuer
                    && certificates[candidate].certificate.publicKey.isValidSignature(current.signature, for: current)
            }
            guard let next else {
                return (result, ProfileCertificateSummary.attribute(.RDNAttributeType.commonName, in: current.issuer))
            }
            used.insert(next)
            current = certificates[next].certificate
            result.append(ProfileCertificateSummary(current, derEncoding: certificates[next].der))
        }
        return (result, nil)
    }

    /// The X.509 signature algorithm for a CMS `signatureAlgorithm`, which Apple writes as plain
    /// `rsaEncryption` (the digest then comes from `digestAlgorithm`).
    private func signatureAlgorithm(
        _ oid: ASN1ObjectIdentifier,
        digest: DigestKind
    ) -> Certificate.SignatureAlgorithm? {
        let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]
        let ecPublicKey: ASN1ObjectIdentifier = [1, 2, 840, 10045, 2, 1]
        switch oid {
        case rsaEncryption:
            switch digest {
            case .sha1: return .sha1WithRSAEncryption
            case .sha256: return .sha256WithRSAEncryption
            case .sha384: return .sha384WithRSAEncryption
            case .sha512: return .sha512WithRSAEncryption
            }
        case ecPublicKey:
            switch digest {
            case .sha1: return nil
            case .sha256: return .ecdsaWithSHA256
            case .sha384: return .ecdsaWithSHA384
            case .sha512: return .ecdsaWithSHA512
            }
        case [1, 2, 840, 113_549, 1, 1, 5]: return digest == .sha1 ? .sha1WithRSAEncryption : nil
        case [1, 2, 840, 113_549, 1, 1, 11]: return digest == .sha256 ? .sha256WithRSAEncryption : nil
        case [1, 2, 840, 113_549, 1, 1, 12]: return digest == .sha384 ? .sha384WithRSAEncryption : nil
        case [1, 2, 840, 113_549, 1, 1, 13]: return digest == .sha512 ? .sha512WithRSAEncryption : nil
        case [1, 2, 840, 10045, 4, 3, 2]: return digest == .sha256 ? .ecdsaWithSHA256 : nil
        case [1, 2, 840, 10045, 4, 3, 3]: return digest == .sha384 ? .ecdsaWithSHA384 : nil
        case [1, 2, 840, 10045, 4, 3, 4]: return digest == .sha512 ? .ecdsaWithSHA512 : nil
        default: return nil
        }
    }
}

/// The digests CMS signers use, with their OIDs.
enum DigestKind {
    case sha1, sha256, sha384, sha512

    init?(_ oid: ASN1ObjectIdentifier) {
        switch oid {
        case [1, 3, 14, 3, 2, 26]: self = .sha1
        case [2, 16, 840, 1, 101, 3, 4, 2, 1]: self = .sha256
        case [2, 16, 840, 1, 101, 3, 4, 2, 2]: self = .sha384
        case [2, 16, 840, 1, 101, 3, 4, 2, 3]: self = .sha512
        default: return nil
        }
    }

    var name: String {
        switch self {
        case .sha1: "SHA-1"
        case .sha256: "SHA-256"
        case .sha384: "SHA-384"
        case .sha512: "SHA-512"
        }
    }

    func hash(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .sha1: Array(Insecure.SHA1.hash(data: bytes))
        case .sha256: Array(SHA256.hash(data: bytes))
        case .sha384: Array(SHA384.hash(data: bytes))
        case .sha512: Array(SHA512.hash(data: bytes))
        }
    }
}
