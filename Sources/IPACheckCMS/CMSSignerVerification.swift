package import Foundation
import SwiftASN1
import X509

/// What checking one signer of a ``CMSSignedData`` message found: the verdict on its mathematics, and beside it
/// who signed, how far the message's own certificates lead and whether the signer is in date.
///
/// Trust is not judged: ipacheck ships no trust store, so callers compare the chain's root themselves (by
/// ``CertificateSummary/sha256Fingerprint``).
package struct CMSSignerVerification: Hashable, Sendable {
    /// The judgement on integrity, from the first check that fails.
    package enum Verdict: Hashable, Sendable {
        /// The signature verifies with the signer certificate's key, and `messageDigest` (when the signer has
        /// signed attributes) is the content's digest.
        case valid
        /// The content was changed after signing: its digest differs from the signed `messageDigest`.
        case contentDigestMismatch
        /// The signature does not verify with the signer certificate's public key.
        case invalidSignature
        /// The signature could not be checked (unknown algorithm, signer certificate missing, no content, no
        /// `messageDigest`), with the reason.
        case unverifiable(reason: String)
    }

    /// The verdict.
    package var verdict: Verdict
    /// The signer's digest algorithm, when supported.
    package var digestAlgorithm: CMSDigestAlgorithm?
    /// The signer's certificate, when found among the message's certificates.
    package var signer: CertificateSummary?
    /// The signer followed by each issuer found in the message whose signature over the previous certificate
    /// verifies; it stops at a self-issued certificate or where the issuer is not included.
    package var chain: [CertificateSummary]
    /// The issuer's common name where the chain stops because that issuer's certificate is not in the message.
    package var missingIssuer: String?
    /// Whether the signature verifies with the signer certificate's public key (over the signed attributes, or
    /// over the content when there are none).
    package var signatureVerifies: Bool
    /// Whether the signed `messageDigest` equals the content's digest; `nil` when the signer has no signed
    /// attributes, or when it could not be computed (unsupported digest, no content).
    package var messageDigestMatches: Bool?
    /// Whether the signer certificate was within its validity period at the `now` given to the check; `nil`
    /// without a signer certificate.
    package var signerValidAtNow: Bool?
    /// The signer certificate's DER, for trust evaluation (``AppleTrust``).
    package var signerCertificate: [UInt8]?
    /// Every certificate the message carries (DER), the candidate intermediates for trust evaluation.
    package var messageCertificates: [[UInt8]] = []

    /// Whether the signature mathematics hold (``Verdict/valid``).
    package var isValid: Bool { verdict == .valid }

    /// Whether the chain ends at a self-signed certificate (a root, trusted or not).
    package var chainEndsAtSelfSignedRoot: Bool { chain.last?.isSelfSigned ?? false }
}

extension CMSSignedData {
    /// Checks `signer` (one of ``signers``) over `content`, or over the attached content when `content` is `nil`.
    ///
    /// Follows RFC 5652 §5.6: with signed attributes, their `messageDigest` must be the content's digest and the
    /// signature covers their DER; without, the signature covers the content. The signer certificate is looked up
    /// by `sid` among ``certificates``, the chain followed from it, and its validity compared with `now`.
    package func verify(signer: CMSSignerInfo, content: [UInt8]? = nil, now: Date = Date()) -> CMSSignerVerification {
        var result = CMSSignerVerification(verdict: .valid, chain: [], signatureVerifies: false)
        let certificates = self.certificates.compactMap { der in
            CertificateReading.certificate(der: der).map { (certificate: $0, der: der) }
        }
        let digest = CMSDigestAlgorithm(oid: signer.digestAlgorithm)
        result.digestAlgorithm = digest
        let signerIndex = Self.index(of: signer.identifier, in: certificates.map(\.certificate))
        if let signerIndex {
            let certificate = certificates[signerIndex]
            result.signer = CertificateSummary(certificate.certificate, derEncoding: certificate.der)
            result.signerValidAtNow = result.signer?.isValid(at: now)
            result.signerCertificate = Array(certificate.der)
            result.messageCertificates = certificates.map { Array($0.der) }
            (result.chain, result.missingIssuer) = Self.chain(from: signerIndex, in: certificates)
        }
        let content = content ?? self.content
        if let digest, let content, let attributes = signer.signedAttributes {
            result.messageDigestMatches = attributes.messageDigest.map { digest.hash(content) == $0 } ?? false
        }
        let algorithm = digest?.signatureAlgorithm(for: signer.signatureAlgorithm)
        let signedBytes = signer.signedAttributes?.signedBytes ?? content
        if let signerIndex, let algorithm, let signedBytes {
            result.signatureVerifies = certificates[signerIndex].certificate.publicKey.isValidSignature(
                signer.signature,
                for: signedBytes,
                signatureAlgorithm: algorithm
            )
        }

        guard let digest else {
            result.verdict = .unverifiable(reason: "unsupported digest algorithm \(signer.digestAlgorithm)")
            return result
        }
        guard signerIndex != nil else {
            result.verdict = .unverifiable(reason: "the signer's certificate is not among the message's certificates")
            return result
        }
        guard algorithm != nil else {
            result.verdict = .unverifiable(
                reason: "unsupported signature algorithm \(signer.signatureAlgorithm) with \(digest.displayName)"
            )
            return result
        }
        guard content != nil else {
            result.verdict = .unverifiable(reason: "the signature is detached and no content was given")
            return result
        }
        if let attributes = signer.signedAttributes {
            guard attributes.messageDigest != nil else {
                result.verdict = .unverifiable(reason: "the signed attributes have no messageDigest")
                return result
            }
            guard result.messageDigestMatches == true else {
                result.verdict = .contentDigestMismatch
                return result
            }
        }
        result.verdict = result.signatureVerifies ? .valid : .invalidSignature
        return result
    }

    /// The index of the certificate a `SignerIdentifier` names.
    private static func index(of identifier: CMSSignerInfo.Identifier, in certificates: [Certificate]) -> Int? {
        switch identifier {
        case .issuerAndSerialNumber(let issuer, let serial):
            // INTEGER content octets may carry a sign-padding zero; compare the magnitudes.
            let wanted = serial.drop { $0 == 0 }
            return certificates.firstIndex { certificate in
                certificate.issuer == issuer && certificate.serialNumber.bytes.drop { $0 == 0 } == wanted
            }
        case .subjectKeyIdentifier(let key):
            return certificates.firstIndex { certificate in
                guard let extensionValue = try? certificate.extensions.subjectKeyIdentifier else { return false }
                return Array(extensionValue.keyIdentifier) == key
            }
        }
    }

    /// Follows issuers inside the message from `start`, checking each link's signature; at most one step per
    /// certificate, so a loop of cross-signed certificates cannot hang.
    private static func chain(
        from start: Int,
        in certificates: [(certificate: Certificate, der: [UInt8])]
    ) -> ([CertificateSummary], String?) {
        var current = certificates[start].certificate
        var result = [CertificateSummary(current, derEncoding: certificates[start].der)]
        var used: Set<Int> = [start]
        while result.count <= certificates.count {
            if current.subject == current.issuer { return (result, nil) }
            let next = certificates.indices.first { candidate in
                !used.contains(candidate) && certificates[candidate].certificate.subject == current.issuer
                    && certificates[candidate].certificate.publicKey.isValidSignature(current.signature, for: current)
            }
            guard let next else {
                return (result, CertificateSummary.attribute(.RDNAttributeType.commonName, in: current.issuer))
            }
            used.insert(next)
            current = certificates[next].certificate
            result.append(CertificateSummary(current, derEncoding: certificates[next].der))
        }
        return (result, nil)
    }
}
