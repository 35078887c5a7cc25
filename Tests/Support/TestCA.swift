package import Crypto
package import Foundation
import SwiftASN1
package import X509

/// A certificate authority made at test time (no committed keys), issuing server certificates for local TLS
/// servers; tests trust it through `--ca-file` / ``IPACheckFetching/FetchOptions/extraCAFile``.
package struct TestCA: Sendable {
    /// The CA's signing key.
    package let key: P256.Signing.PrivateKey
    /// The self-signed CA certificate.
    package let certificate: Certificate

    /// Creates a new CA valid from an hour ago for a day.
    package init(commonName: String = "ipacheck test CA") throws {
        key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(key)
        )
    }

    /// The CA certificate as PEM (what `--ca-file` reads).
    package func certificatePEM() throws -> String {
        try certificate.serializeAsPEM().pemString
    }

    /// Writes the CA certificate as PEM to `directory/ca.pem` and returns its URL.
    package func writeCertificate(to directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("ca.pem")
        try Data(certificatePEM().utf8).write(to: file)
        return file
    }

    /// Issues a server certificate for `dnsNames`, valid from `notValidBefore` to `notValidAfter`.
    package func issueServerCertificate(
        dnsNames: [String],
        notValidBefore: Date = Date().addingTimeInterval(-3600),
        notValidAfter: Date = Date().addingTimeInterval(86_400)
    ) throws -> ServerIdentity {
        let leafKey = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(dnsNames.first ?? "localhost") }
        let leaf = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(leafKey.publicKey),
            notValidBefore: notValidBefore,
            notValidAfter: notValidAfter,
            issuer: certificate.subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(dnsNames.map { GeneralName.dnsName($0) })
            },
            issuerPrivateKey: .init(key)
        )
        return ServerIdentity(
            certificatePEM: try leaf.serializeAsPEM().pemString,
            privateKeyPEM: leafKey.pemRepresentation
        )
    }
}

/// A server certificate and its private key, as PEM (what nginx and NIOSSL load).
package struct ServerIdentity: Sendable {
    /// The leaf certificate, PEM.
    package var certificatePEM: String
    /// The leaf's private key, PEM (PKCS#8).
    package var privateKeyPEM: String

    /// Writes `name.crt` and `name.key` into `directory`; returns both URLs.
    package func write(to directory: URL, name: String) throws -> (certificate: URL, key: URL) {
        let certificate = directory.appendingPathComponent("\(name).crt")
        let key = directory.appendingPathComponent("\(name).key")
        try Data(certificatePEM.utf8).write(to: certificate)
        try Data(privateKeyPEM.utf8).write(to: key)
        return (certificate, key)
    }
}
