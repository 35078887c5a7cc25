import Crypto
public import Foundation
import SwiftASN1
import X509

/// What a report needs to know about one certificate (a profile's developer certificate or a CMS signer),
/// without dumping it: names, serial, validity and fingerprint.
///
/// - Important: developer certificates name people (`Apple Development: Jane Doe (…)`); print
///   ``subjectCommonName`` only where the output stays with the user.
public struct ProfileCertificateSummary: Hashable, Sendable, Codable {
    /// The subject's common name (CN).
    public var subjectCommonName: String?
    /// The subject's organization (O).
    public var subjectOrganization: String?
    /// The issuer's common name (CN).
    public var issuerCommonName: String?
    /// The issuer's organization (O).
    public var issuerOrganization: String?
    /// The serial number in upper-case hex, as Keychain Access and `openssl x509 -serial` show it.
    public var serialNumber: String
    /// Start of validity.
    public var notValidBefore: Date
    /// End of validity.
    public var notValidAfter: Date
    /// SHA-256 of the DER encoding, upper-case hex without separators.
    public var sha256Fingerprint: String

    /// Whether subject and issuer are the same name (a root, or a self-signed test certificate).
    public var isSelfIssued: Bool {
        subjectCommonName == issuerCommonName && subjectOrganization == issuerOrganization
    }

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

    init(_ certificate: Certificate, derEncoding: some Collection<UInt8>) {
        subjectCommonName = Self.attribute(.RDNAttributeType.commonName, in: certificate.subject)
        subjectOrganization = Self.attribute(.RDNAttributeType.organizationName, in: certificate.subject)
        issuerCommonName = Self.attribute(.RDNAttributeType.commonName, in: certificate.issuer)
        issuerOrganization = Self.attribute(.RDNAttributeType.organizationName, in: certificate.issuer)
        serialNumber = Self.hex(certificate.serialNumber.bytes)
        notValidBefore = certificate.notValidBefore
        notValidAfter = certificate.notValidAfter
        sha256Fingerprint = Self.hex(SHA256.hash(data: Array(derEncoding)))
    }

    static func attribute(_ type: ASN1ObjectIdentifier, in name: DistinguishedName) -> String? {
        for rdn in name {
            for attribute in rdn where attribute.type == type {
                return String(attribute.value)
            }
        }
        return nil
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// One entry of a profile's `DeveloperCertificates`: the certificates allowed to sign apps with it.
public enum DeveloperCertificate: Hashable, Sendable {
    /// A certificate that parsed.
    case certificate(ProfileCertificateSummary)
    /// Bytes that are not a DER certificate (redacted or damaged fixtures), with the reason.
    case unreadable(reason: String)

    init(der bytes: [UInt8]) {
        do {
            let certificate = try Certificate(derEncoded: bytes)
            self = .certificate(ProfileCertificateSummary(certificate, derEncoding: bytes))
        } catch {
            self = .unreadable(reason: "\(bytes.count) bytes that are not a DER certificate")
        }
    }
}
