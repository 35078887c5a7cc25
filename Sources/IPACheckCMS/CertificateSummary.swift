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
        subject = Self.text(of: certificate.subject)
        issuer = Self.text(of: certificate.issuer)
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
                return text(of: attribute.value)
            }
        }
        return nil
    }

    /// A distinguished name as RFC 4514 writes it (`CN=…,O=…,C=US`), as swift-certificates does, but with every
    /// value in words: strings of the types X.509 names use (T61, BMP, Universal, Visible, Numeric, as well as
    /// UTF-8, Printable and IA5) decoded, anything else as `#` and its DER in hex, never a type dump.
    package static func text(of name: DistinguishedName) -> String {
        name.reversed().map { rdn in
            rdn.map { attribute in
                let written = attribute.description
                guard String(attribute.value) == nil, let equals = written.firstIndex(of: "=") else { return written }
                // A decoded string is escaped as RFC 4514 asks; the hex form is written as it is.
                let shown =
                    decodedString(attribute.value).map {
                        RelativeDistinguishedName.Attribute.Value(utf8String: $0).description
                    } ?? text(of: attribute.value)
                return String(written[...equals]) + shown
            }.joined(separator: "+")
        }.joined(separator: ",")
    }

    /// An attribute's value in words: its string, decoded whatever its string type, else `#` and its DER in hex.
    static func text(of value: RelativeDistinguishedName.Attribute.Value) -> String {
        if let string = String(value) ?? decodedString(value) { return string }
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(ASN1Any(value))) != nil else { return "#" }
        return "#" + Hex.encode(serializer.serializedBytes, uppercase: false)
    }

    /// The text of a string type swift-certificates keeps as raw ASN.1: T61String (read as Latin-1, as OpenSSL
    /// shows it), BMPString (UTF-16BE), UniversalString (UTF-32BE), VisibleString and NumericString (ASCII).
    private static func decodedString(_ value: RelativeDistinguishedName.Attribute.Value) -> String? {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(ASN1Any(value))) != nil,
            let node = try? DER.parse(serializer.serializedBytes),
            node.identifier.tagClass == .universal,
            case .primitive(let bytes) = node.content
        else { return nil }
        switch node.identifier.tagNumber {
        case 20: return String(bytes.map { Character(Unicode.Scalar($0)) })
        case 18, 26: return bytes.allSatisfy { $0 < 0x80 } ? String(decoding: bytes, as: UTF8.self) : nil
        case 30:
            guard bytes.count.isMultiple(of: 2) else { return nil }
            let units = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).map {
                UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
            }
            return String(validating: units, as: UTF16.self)
        case 28:
            guard bytes.count.isMultiple(of: 4) else { return nil }
            var scalars = String.UnicodeScalarView()
            for start in stride(from: bytes.startIndex, to: bytes.endIndex, by: 4) {
                let code = bytes[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                guard let scalar = Unicode.Scalar(code) else { return nil }
                scalars.append(scalar)
            }
            return String(scalars)
        default: return nil
        }
    }

}
