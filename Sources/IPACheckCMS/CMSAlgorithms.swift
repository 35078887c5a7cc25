import Crypto
package import SwiftASN1
package import X509

/// The digest algorithms CMS signers use, by OID, with the hash each names.
package enum CMSDigestAlgorithm: String, Hashable, Sendable, CaseIterable {
    /// `id-sha1` (1.3.14.3.2.26): Apple's older profile and code signers.
    case sha1
    /// `id-sha256` (2.16.840.1.101.3.4.2.1).
    case sha256
    /// `id-sha384` (2.16.840.1.101.3.4.2.2).
    case sha384
    /// `id-sha512` (2.16.840.1.101.3.4.2.3).
    case sha512

    /// The algorithm an `AlgorithmIdentifier` names, or `nil` for one not supported.
    package init?(oid: ASN1ObjectIdentifier) {
        guard let match = Self.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = match
    }

    /// The algorithm's OID.
    package var oid: ASN1ObjectIdentifier {
        switch self {
        case .sha1: [1, 3, 14, 3, 2, 26]
        case .sha256: [2, 16, 840, 1, 101, 3, 4, 2, 1]
        case .sha384: [2, 16, 840, 1, 101, 3, 4, 2, 2]
        case .sha512: [2, 16, 840, 1, 101, 3, 4, 2, 3]
        }
    }

    /// The name as standards write it: `SHA-1`, `SHA-256`, `SHA-384`, `SHA-512`.
    package var displayName: String {
        switch self {
        case .sha1: "SHA-1"
        case .sha256: "SHA-256"
        case .sha384: "SHA-384"
        case .sha512: "SHA-512"
        }
    }

    /// The digest of `bytes`.
    package func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let data = Array(bytes)
        return switch self {
        case .sha1: Array(Insecure.SHA1.hash(data: data))
        case .sha256: Array(SHA256.hash(data: data))
        case .sha384: Array(SHA384.hash(data: data))
        case .sha512: Array(SHA512.hash(data: data))
        }
    }

    /// The X.509 signature algorithm for a CMS `signatureAlgorithm` used with this digest, or `nil` when the pair
    /// is unsupported or contradictory (`sha256WithRSAEncryption` with a SHA-1 `digestAlgorithm`).
    ///
    /// CMS signers often name only the key type (`rsaEncryption`, as Apple does, or `id-ecPublicKey`) and leave
    /// the digest to `digestAlgorithm`.
    package func signatureAlgorithm(for oid: ASN1ObjectIdentifier) -> Certificate.SignatureAlgorithm? {
        let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]
        let ecPublicKey: ASN1ObjectIdentifier = [1, 2, 840, 10045, 2, 1]
        let rsa: [CMSDigestAlgorithm: Certificate.SignatureAlgorithm] = [
            .sha1: .sha1WithRSAEncryption, .sha256: .sha256WithRSAEncryption,
            .sha384: .sha384WithRSAEncryption, .sha512: .sha512WithRSAEncryption,
        ]
        let ecdsa: [CMSDigestAlgorithm: Certificate.SignatureAlgorithm] = [
            .sha256: .ecdsaWithSHA256, .sha384: .ecdsaWithSHA384, .sha512: .ecdsaWithSHA512,
        ]
        let combined: [ASN1ObjectIdentifier: (CMSDigestAlgorithm, Certificate.SignatureAlgorithm)] = [
            [1, 2, 840, 113_549, 1, 1, 5]: (.sha1, .sha1WithRSAEncryption),
            [1, 2, 840, 113_549, 1, 1, 11]: (.sha256, .sha256WithRSAEncryption),
            [1, 2, 840, 113_549, 1, 1, 12]: (.sha384, .sha384WithRSAEncryption),
            [1, 2, 840, 113_549, 1, 1, 13]: (.sha512, .sha512WithRSAEncryption),
            [1, 2, 840, 10045, 4, 3, 2]: (.sha256, .ecdsaWithSHA256),
            [1, 2, 840, 10045, 4, 3, 3]: (.sha384, .ecdsaWithSHA384),
            [1, 2, 840, 10045, 4, 3, 4]: (.sha512, .ecdsaWithSHA512),
        ]
        switch oid {
        case rsaEncryption: return rsa[self]
        case ecPublicKey: return ecdsa[self]
        default:
            guard let (digest, algorithm) = combined[oid], digest == self else { return nil }
            return algorithm
        }
    }
}
