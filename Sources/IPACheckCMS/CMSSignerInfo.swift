package import Foundation
package import SwiftASN1
package import X509

/// One `SignerInfo` of a ``CMSSignedData`` message: who signed, with which algorithms, over which attributes.
///
/// ```
/// SignerInfo ::= SEQUENCE {
///     version CMSVersion, sid SignerIdentifier, digestAlgorithm DigestAlgorithmIdentifier,
///     signedAttrs [0] IMPLICIT SignedAttributes OPTIONAL, signatureAlgorithm SignatureAlgorithmIdentifier,
///     signature OCTET STRING, unsignedAttrs [1] IMPLICIT UnsignedAttributes OPTIONAL }
/// SignerIdentifier ::= CHOICE {
///     issuerAndSerialNumber IssuerAndSerialNumber, subjectKeyIdentifier [0] SubjectKeyIdentifier }
/// IssuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber CertificateSerialNumber }
/// ```
package struct CMSSignerInfo: Hashable, Sendable {
    /// How the signer names its certificate (`sid`).
    package enum Identifier: Hashable, Sendable {
        /// The certificate's issuer and serial number (the big-endian INTEGER content octets).
        case issuerAndSerialNumber(issuer: DistinguishedName, serialNumber: [UInt8])
        /// The certificate's subject key identifier extension.
        case subjectKeyIdentifier([UInt8])
    }

    /// `version`: 1 with `issuerAndSerialNumber`, 3 with `subjectKeyIdentifier`.
    package var version: Int
    /// `sid`.
    package var identifier: Identifier
    /// `digestAlgorithm`.
    package var digestAlgorithm: ASN1ObjectIdentifier
    /// `signedAttrs`; without them the signature covers the content itself.
    package var signedAttributes: CMSSignedAttributes?
    /// `signatureAlgorithm`: a combined algorithm (`sha256WithRSAEncryption`) or, as Apple writes it, only the key
    /// type (`rsaEncryption`), leaving the digest to ``digestAlgorithm``.
    package var signatureAlgorithm: ASN1ObjectIdentifier
    /// `signature`.
    package var signature: [UInt8]

    init(berEncoded node: ASN1Node) throws(CMSError) {
        let fields = try ASN1Reading.children(of: node, identifier: .sequence, named: "SignerInfo", count: 5...7)
        version = try ASN1Reading.decoding("SignerInfo.version") { try Int(berEncoded: fields[0]) }
        if fields[1].identifier == .sequence {
            let name = "SignerInfo.sid.issuerAndSerialNumber"
            let parts = try ASN1Reading.children(of: fields[1], identifier: .sequence, named: name, count: 2...2)
            let issuer = try ASN1Reading.decoding("\(name).issuer") { try DistinguishedName(derEncoded: parts[0]) }
            let serial = try ASN1Reading.decoding("\(name).serialNumber") {
                try ArraySlice<UInt8>(berEncoded: parts[1])
            }
            identifier = .issuerAndSerialNumber(issuer: issuer, serialNumber: Array(serial))
        } else {
            let key = try ASN1Reading.octets(
                fields[1],
                identifier: CMSSignedData.contextTag(0),
                named: "SignerInfo.sid.subjectKeyIdentifier"
            )
            identifier = .subjectKeyIdentifier(Array(key))
        }
        digestAlgorithm = try ASN1Reading.algorithm(of: fields[2], named: "SignerInfo.digestAlgorithm")
        var index = 3
        if fields[index].identifier == CMSSignedData.contextTag(0) {
            signedAttributes = try CMSSignedAttributes(berEncoded: fields[index])
            index += 1
        }
        guard index + 1 < fields.count else {
            throw CMSError(.malformed, "SignerInfo", "ends before its signature")
        }
        signatureAlgorithm = try ASN1Reading.algorithm(of: fields[index], named: "SignerInfo.signatureAlgorithm")
        signature = Array(try ASN1Reading.octets(fields[index + 1], named: "SignerInfo.signature"))
        index += 2
        if index < fields.count, fields[index].identifier == CMSSignedData.contextTag(1) {
            index += 1  // unsignedAttrs: not used.
        }
        guard index == fields.count else {
            throw CMSError(.malformed, "SignerInfo", "unexpected field \(fields[index].identifier)")
        }
    }
}

/// A signer's `signedAttrs`: the signature covers their DER encoding as a `SET OF Attribute`, and
/// `messageDigest` binds them to the content.
///
/// ```
/// Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }
/// ```
package struct CMSSignedAttributes: Hashable, Sendable {
    /// One attribute: its type and its values, as parsed nodes for the caller to decode.
    package struct Attribute: Hashable, Sendable {
        /// `attrType`.
        package var type: ASN1ObjectIdentifier
        /// `attrValues`.
        package var values: [ASN1Node]
    }

    /// `id-contentType`.
    package static let contentTypeOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 3]
    /// `id-messageDigest`.
    package static let messageDigestOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 4]
    /// `id-signingTime`.
    package static let signingTimeOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 5]

    /// Every attribute, in file order.
    package var attributes: [Attribute]
    /// The bytes the signature covers: the attributes tagged `SET` (`0x31`) instead of `[0] IMPLICIT`, with
    /// definite lengths.
    package var signedBytes: [UInt8]
    /// The `messageDigest` attribute's value, if present.
    package var messageDigest: [UInt8]?
    /// The `contentType` attribute's value, if present.
    package var contentType: ASN1ObjectIdentifier?
    /// The `signingTime` attribute's value, if present and a valid `UTCTime` or `GeneralizedTime`.
    package var signingTime: Date?

    /// The values of the first attribute of `type`, or `nil` when there is none.
    package func values(of type: ASN1ObjectIdentifier) -> [ASN1Node]? {
        attributes.first { $0.type == type }?.values
    }

    init(berEncoded node: ASN1Node) throws(CMSError) {
        let name = "SignerInfo.signedAttrs"
        let nodes = try ASN1Reading.children(
            of: node,
            identifier: CMSSignedData.contextTag(0),
            named: name,
            count: 0...CMSSignedData.maximumElements
        )
        attributes = []
        for attribute in nodes {
            let parts = try ASN1Reading.children(of: attribute, identifier: .sequence, named: name, count: 2...2)
            let type = try ASN1Reading.objectIdentifier(parts[0], named: "\(name).attrType")
            let values = try ASN1Reading.children(
                of: parts[1],
                identifier: .set,
                named: "\(name) \(type)",
                count: 0...CMSSignedData.maximumElements
            )
            attributes.append(Attribute(type: type, values: values))
        }
        if let value = attributes.first(where: { $0.type == Self.messageDigestOID })?.values.first {
            messageDigest = Array(try ASN1Reading.octets(value, named: "\(name) messageDigest"))
        }
        if let value = attributes.first(where: { $0.type == Self.contentTypeOID })?.values.first {
            contentType = try ASN1Reading.objectIdentifier(value, named: "\(name) contentType")
        }
        if let value = attributes.first(where: { $0.type == Self.signingTimeOID })?.values.first {
            signingTime = ASN1Reading.date(value)
        }
        signedBytes = try Self.setEncoding(of: node, children: nodes)
    }

    /// The DER the signer hashed: the bytes as written with the tag changed to `SET`, or, when they use BER's
    /// indefinite lengths, the same nodes written again with definite ones.
    private static func setEncoding(of node: ASN1Node, children: [ASN1Node]) throws(CMSError) -> [UInt8] {
        var asWritten = Array(node.encodedBytes)
        if !asWritten.isEmpty { asWritten[0] = 0x31 }
        if (try? DER.parse(asWritten)) != nil { return asWritten }
        return try ASN1Reading.decoding("SignerInfo.signedAttrs") {
            var serializer = DER.Serializer()
            try serializer.appendConstructedNode(identifier: .set) { inner in
                for child in children { try appendDefinite(child, to: &inner) }
            }
            return serializer.serializedBytes
        }
    }

    private static func appendDefinite(_ node: ASN1Node, to serializer: inout DER.Serializer) throws {
        switch node.content {
        case .primitive(let bytes):
            serializer.appendPrimitiveNode(identifier: node.identifier) { $0.append(contentsOf: bytes) }
        case .constructed(let collection):
            try serializer.appendConstructedNode(identifier: node.identifier) { inner in
                for child in collection { try appendDefinite(child, to: &inner) }
            }
        }
    }
}
