import Crypto
package import Foundation
import IPACheckBinary
package import SwiftASN1
package import X509

/// What a report needs to know about one certificate (a CMS signer, a chain member, a profile's developer
/// certificate) without dumping it: names, serial, validity, fingerprint.
///
/// - Important: developer certificates name people (`Apple Development: Jane Doe (…)`); print ``subject`` and
///   ``subjectCommonName`` only where the output stays with the user.
package struct CertificateSummary: Hashable, Sendable, Codable {
    /// The subject's distinguished name (`CN=iPhone Developer: ..., OU=..., O=..., C=US`).
    package var subject: String
    /// The issuer's distinguished name.
    package var issuer: String
    /// The subject's common name (CN).
    package var subjectCommonName: String?
    /// The subject's organization (O).
    package var subjectOrganization: String?
    /// The issuer's common name (CN).
    package var issuerCommonName: String?
    /// The issuer's organization (O).
    package var issuerOrganization: String?
    /// The serial number in upper-case hex, as Keychain Access and `openssl x509 -serial` show it.
    package var serialNumber: String
    /// Start of validity.
    package var notValidBefore: Date
    /// End of validity.
    package var notValidAfter: Date
    /// SHA-256 of the DER encoding, upper-case hex without separators.
    package var sha256Fingerprint: String
    /// Whether subject and issuer are the same name and the certificate's signature verifies with its own key.
    ///
    /// That makes it a root, trusted or not: callers judge trust themselves, by ``sha256Fingerprint``.
    package var isSelfSigned: Bool

    /// Whether subject and issuer have the same common name and organization (a root, or a self-made test
    /// certificate), whatever its signature.
    package var isSelfIssued: Bool {
        subjectCommonName == issuerCommonName && subjectOrganization == issuerOrganization
    }

    /// Summarises `certificate`, whose encoding is `derEncoding` (for the fingerprint).
    package init(_ certificate: Certificate, derEncoding: some Collection<UInt8>) {
        subject = certificate.subject.description
        issuer = certificate.issuer.description
        subjectCommonName = Self.attribute(.RDNAttributeType.commonName, in: certificate.subject)
        subjectOrganization = Self.attribute(.RDNAttributeType.organizationName, in: certificate.subject)
        issuerCommonName = Self.attribute(.RDNAttributeType.commonName, in: certificate.issuer)
        issuerOrganization = Self.attribute(.RDNAttributeType.organizationName, in: certificate.issuer)
        serialNumber = Hex.encode(certificate.serialNumber.bytes, uppercase: true)
        notValidBefore = certificate.notValidBefore
        notValidAfter = certificate.notValidAfter
        sha256Fingerprint = Hex.encode(SHA256.hash(data: Array(derEncoding)), uppercase: true)
        isSelfSigned =
            certificate.subject == certificate.issuer
            && certificate.publicKey.isValidSignature(certificate.signature, for: certificate)
    }

    /// Summarises the DER certificate `bytes`, or returns `nil` when they are not one.
    package init?(der bytes: [UInt8]) {
        guard let certificate = CertificateReading.certificate(der: bytes) else { return nil }
        self.init(certificate, derEncoding: bytes)
    }

    /// The name people know a certificate by: its common name, else its whole subject.
    package var displayName: String { subjectCommonName ?? subject }

    /// Whether `now` lies within the validity period.
    package func isValid(at now: Date) -> Bool {
        notValidBefore <= now && now < notValidAfter
    }

    /// The first value of attribute `type` (such as `.RDNAttributeType.commonName`) in `name`.
    package static func attribute(_ type: ASN1ObjectIdentifier, in name: DistinguishedName) -> String? {
        for rdn in name {
            for attribute in rdn where attribute.type == type {
                return String(attribute.value)
            }
        }
        return nil
    }

}
