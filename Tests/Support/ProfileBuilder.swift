import Crypto
package import Foundation
package import IPACheckPlist
import SwiftASN1
import X509

/// Builds CMS-signed provisioning profiles at test time: a throwaway P-256 root and leaf, generated on every
/// run (no private key is ever committed), sign a property list the test chooses.
///
/// The output has the shape of Apple's profiles (`ContentInfo` → `SignedData` with attached `id-data` content,
/// the certificates, one signer with signed attributes `contentType`, `signingTime`, `messageDigest`), in DER.
package struct ProfileBuilder {
    /// The property list inside the envelope.
    package var payload: PlistValue
    /// The organization of the signer and its root (`Apple Inc.` to imitate Apple's names).
    package var signerOrganization = "ipacheck tests"
    /// Validity of the generated certificates.
    package var certificatesValid: ClosedRange<Date> =
        Date(
            timeIntervalSince1970: 1_700_000_000
        )...Date(
            timeIntervalSince1970: 2_000_000_000
        )
    /// Whether the root certificate is included next to the leaf.
    package var includesRoot = true
    /// Whether the signer's own (leaf) certificate is included; without it the signature cannot be checked.
    package var includesSignerCertificate = true
    /// Bytes to sign instead of the payload's XML: a CodeDirectory, to build a code signature's CMS message.
    package var signedContent: [UInt8]? = nil
    /// Whether the signer has signed attributes (otherwise it signs the content directly).
    package var includesSignedAttributes = true
    /// A change applied to the content *after* signing, to model tampering.
    package var tamper: (([UInt8]) -> [UInt8])? = nil
    /// Whether to flip a bit of the signature value after signing.
    package var corruptsSignature = false
    /// Whether to leave the content out of the message (a detached signature, as code signatures are).
    package var detachesContent = false
    /// Whether the signer names its certificate by subject key identifier instead of issuer and serial number.
    package var identifiesSignerByKeyIdentifier = false
    /// The subject key identifier given to the signing certificate.
    package static let signerKeyIdentifier: [UInt8] = Array(1...20)

    /// Creates a builder for `payload`.
    package init(payload: PlistValue) {
        self.payload = payload
    }

    /// A profile-shaped payload: the keys ipacheck reads, with fictitious values.
    package static func payload(
        name: String = "Test Profile",
        teamID: String = "ABCDE12345",
        bundleID: String = "com.example.app",
        entitlements: [String: PlistValue] = [:],
        getTaskAllow: Bool = false,
        devices: Int? = nil,
        provisionsAllDevices: Bool = false,
        platform: String = "iOS",
        expiration: Date = Date(timeIntervalSince1970: 1_900_000_000),
        creation: Date = Date(timeIntervalSince1970: 1_700_000_000)
    ) -> PlistValue {
        var granted: [String: PlistValue] = [
            "application-identifier": .string("\(teamID).\(bundleID)"),
            "com.apple.developer.team-identifier": .string(teamID),
            "get-task-allow": .bool(getTaskAllow),
            "keychain-access-groups": .array([.string("\(teamID).*")]),
        ]
        granted.merge(entitlements) { _, new in new }
        var root: [String: PlistValue] = [
            "AppIDName": .string("Example"),
            "ApplicationIdentifierPrefix": .array([.string(teamID)]),
            "CreationDate": .date(creation),
            "DeveloperCertificates": .array([]),
            "Entitlements": .dictionary(granted),
            "ExpirationDate": .date(expiration),
            "Name": .string(name),
            "Platform": .array([.string(platform)]),
            "TeamIdentifier": .array([.string(teamID)]),
            "TeamName": .string("Example Team"),
            "UUID": .string("00000000-1111-2222-3333-444444444444"),
            "Version": .integer(1),
        ]
        if let devices {
            root["ProvisionedDevices"] = .array(
                (0..<devices).map { .string(String(repeating: "0", count: 39) + "\($0)") }
            )
        }
        if provisionsAllDevices { root["ProvisionsAllDevices"] = .bool(true) }
        return .dictionary(root)
    }

    /// The signed content: ``signedContent`` when set, else the payload as an XML property list.
    package var content: [UInt8] { signedContent ?? Array(payload.xmlDocument.utf8) }

    /// The DER bytes of the signed profile.
    package func build() throws -> [UInt8] {
        let rootKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            CommonName("ipacheck Test Root")
            OrganizationName(signerOrganization)
        }
        let leafName = try DistinguishedName {
            CommonName("ipacheck Test Profile Signing")
            OrganizationName(signerOrganization)
        }
        let root = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(rootKey.publicKey),
            notValidBefore: certificatesValid.lowerBound,
            notValidAfter: certificatesValid.upperBound,
            issuer: rootName,
            subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )
        let leaf = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(leafKey.publicKey),
            notValidBefore: certificatesValid.lowerBound,
            notValidAfter: certificatesValid.upperBound,
            issuer: rootName,
            subject: leafName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                SubjectKeyIdentifier(keyIdentifier: ArraySlice(Self.signerKeyIdentifier))
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )

        var attributes = DER.Serializer()
        try attributes.appendConstructedNode(identifier: .set) { set in
            try Self.attribute([1, 2, 840, 113_549, 1, 9, 3], into: &set) { try $0.serialize(Self.dataOID) }
            try Self.attribute([1, 2, 840, 113_549, 1, 9, 5], into: &set) {
                try $0.serialize(try UTCTime(year: 2024, month: 1, day: 2, hours: 3, minutes: 4, seconds: 5))
            }
            try Self.attribute([1, 2, 840, 113_549, 1, 9, 4], into: &set) {
                try $0.serialize(ASN1OctetString(contentBytes: ArraySlice(SHA256.hash(data: content))))
            }
        }
        let signedAttributes = attributes.serializedBytes
        var signature = Array(
            try leafKey.signature(for: includesSignedAttributes ? signedAttributes : content).derRepresentation
        )
        if corruptsSignature, let last = signature.indices.last { signature[last] ^= 0x01 }
        let finalContent = tamper.map { $0(content) } ?? content

        var out = DER.Serializer()
        try out.appendConstructedNode(identifier: .sequence) { contentInfo in
            try contentInfo.serialize(Self.signedDataOID)
            try contentInfo.appendConstructedNode(identifier: Self.context(0)) { explicit in
                try explicit.appendConstructedNode(identifier: .sequence) { signedData in
                    try signedData.serialize(1)
                    try signedData.appendConstructedNode(identifier: .set) {
                        try Self.algorithmSequence(Self.sha256OID, &$0)
                    }
                    try signedData.appendConstructedNode(identifier: .sequence) { encap in
                        try encap.serialize(Self.dataOID)
                        if !detachesContent {
                            try encap.appendConstructedNode(identifier: Self.context(0)) {
                                try $0.serialize(ASN1OctetString(contentBytes: ArraySlice(finalContent)))
                            }
                        }
                    }
                    try signedData.appendConstructedNode(identifier: Self.context(0)) { certificates in
                        if includesSignerCertificate { try certificates.serialize(leaf) }
                        if includesRoot { try certificates.serialize(root) }
                    }
                    try signedData.appendConstructedNode(identifier: .set) { signers in
                        try signers.appendConstructedNode(identifier: .sequence) { signer in
                            if identifiesSignerByKeyIdentifier {
                                try signer.serialize(3)
                                try ASN1OctetString(contentBytes: ArraySlice(Self.signerKeyIdentifier))
                                    .serialize(into: &signer, withIdentifier: Self.context(0))
                            } else {
                                try signer.serialize(1)
                                try signer.appendConstructedNode(identifier: .sequence) { sid in
                                    try sid.serialize(leaf.issuer)
                                    try sid.serialize(leaf.serialNumber.bytes)
                                }
                            }
                            try Self.algorithmSequence(Self.sha256OID, &signer)
                            if includesSignedAttributes {
                                var implicit = signedAttributes
                                implicit[0] = 0xA0  // [0] IMPLICIT, constructed
                                signer.serializeRawBytes(implicit)
                            }
                            try Self.algorithmSequence(Self.ecdsaWithSHA256OID, &signer)
                            try signer.serialize(ASN1OctetString(contentBytes: ArraySlice(signature)))
                        }
                    }
                }
            }
        }
        return out.serializedBytes
    }

    private static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    private static let dataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]
    private static let sha256OID: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    private static let ecdsaWithSHA256OID: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]

    private static func context(_ number: UInt) -> ASN1Identifier {
        ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific)
    }

    private static func algorithmSequence(_ oid: ASN1ObjectIdentifier, _ serializer: inout DER.Serializer) throws {
        try serializer.appendConstructedNode(identifier: .sequence) { try $0.serialize(oid) }
    }

    private static func attribute(
        _ type: ASN1ObjectIdentifier,
        into serializer: inout DER.Serializer,
        value: (inout DER.Serializer) throws -> Void
    ) throws {
        try serializer.appendConstructedNode(identifier: .sequence) { attribute in
            try attribute.serialize(type)
            try attribute.appendConstructedNode(identifier: .set, value)
        }
    }
}
