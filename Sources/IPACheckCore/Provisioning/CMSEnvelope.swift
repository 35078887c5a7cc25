import Foundation
import SwiftASN1

/// The parts of a CMS `SignedData` message (RFC 5652) that a provisioning profile uses, read with swift-asn1's
/// BER parser because Apple and third-party tools write profiles with indefinite lengths and constructed
/// OCTET STRINGs.
///
/// ```
/// ContentInfo ::= SEQUENCE { contentType OBJECT IDENTIFIER, content [0] EXPLICIT ANY }
/// SignedData ::= SEQUENCE {
///     version CMSVersion, digestAlgorithms SET OF AlgorithmIdentifier,
///     encapContentInfo EncapsulatedContentInfo,
///     certificates [0] IMPLICIT CertificateSet OPTIONAL, crls [1] IMPLICIT RevocationInfoChoices OPTIONAL,
///     signerInfos SET OF SignerInfo }
/// EncapsulatedContentInfo ::= SEQUENCE { eContentType OBJECT IDENTIFIER, eContent [0] EXPLICIT OCTET STRING OPTIONAL }
/// ```
///
/// - Note: swift-certificates keeps its CMS types and verifier behind `@_spi(CMS)`. Evaluated against the corpus
///   (swift-certificates 1.21.1), `CMS.isValidAttachedSignature` rejects every real profile: Apple's signers
///   name the signature algorithm as plain `rsaEncryption` ("Cannot generate digest algorithm"), and
///   indefinite-length profiles fail on the constructed eContent OCTET STRING. Hence this reader and
///   ``ProfileSignatureChecker``, on public swift-asn1 and swift-certificates API only.
struct CMSEnvelope: Hashable, Sendable {
    /// `id-signedData`.
    static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    /// `id-data`.
    static let dataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]

    /// The most signers and certificates read; real profiles have one signer and three certificates.
    static let maximumElements = 64

    /// `eContentType`: `id-data` in every real profile.
    var contentType: ASN1ObjectIdentifier
    /// `eContent`, flattened: the property list.
    var content: [UInt8]
    /// `digestAlgorithms`.
    var digestAlgorithms: [ASN1ObjectIdentifier]
    /// The encodings of the `certificates` entries, in file order.
    var certificates: [ArraySlice<UInt8>]
    /// `signerInfos`.
    var signers: [CMSSigner]

    /// Reads `bytes` as a BER-encoded `ContentInfo` holding `SignedData` with attached content.
    static func parse(_ bytes: [UInt8]) throws(ProvisioningError) -> CMSEnvelope {
        var stage = "ContentInfo"
        do {
            let root = try BER.parse(bytes)
            let info = try children(of: root, identifier: .sequence, named: "ContentInfo", count: 2...2)
            let type = try ASN1ObjectIdentifier(berEncoded: info[0])
            guard type == signedDataOID else {
                throw ProvisioningError(.notSignedData, "ContentInfo holds \(type), not SignedData (\(signedDataOID))")
            }
            stage = "SignedData"
            let explicit = try children(
                of: info[1],
                identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific),
                named: "ContentInfo.content [0]",
                count: 1...1
            )
            return try parseSignedData(explicit[0], stage: &stage)
        } catch let error as ProvisioningError {
            throw error
        } catch {
            throw ProvisioningError(.malformedCMS, "malformed CMS in \(stage): \(describe(error))")
        }
    }

    private static func parseSignedData(_ node: ASN1Node, stage: inout String) throws -> CMSEnvelope {
        let fields = try children(of: node, identifier: .sequence, named: "SignedData", count: 4...6)
        stage = "SignedData.digestAlgorithms"
        let digests = try children(
            of: fields[1],
            identifier: .set,
            named: "digestAlgorithms",
            count: 0...maximumElements
        )
        .map(algorithm(of:))

        stage = "SignedData.encapContentInfo"
        let encap = try children(of: fields[2], identifier: .sequence, named: "encapContentInfo", count: 1...2)
        let contentType = try ASN1ObjectIdentifier(berEncoded: encap[0])
        guard encap.count == 2 else {
            throw ProvisioningError(
                .missingContent,
                "SignedData has no embedded content (a detached signature): there is no property list to read"
            )
        }
        let wrapper = try children(
            of: encap[1],
            identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific),
            named: "eContent [0]",
            count: 1...1
        )
        let content = try ASN1OctetString(berEncoded: wrapper[0])

        var certificates: [ArraySlice<UInt8>] = []
        var index = 3
        let certificatesTag = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
        if index < fields.count - 1, fields[index].identifier == certificatesTag {
            stage = "SignedData.certificates"
            certificates = try children(
                of: fields[index],
                identifier: certificatesTag,
                named: "certificates [0]",
                count: 0...maximumElements
            ).map(\.encodedBytes)
            index += 1
        }
        if index < fields.count - 1,
            fields[index].identifier == ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)
        {
            index += 1  // crls: not used.
        }
        guard index == fields.count - 1 else {
            throw ASN1Error.invalidASN1Object(reason: "unexpected field \(fields[index].identifier) in SignedData")
        }
        stage = "SignedData.signerInfos"
        let signers = try children(
            of: fields[index],
            identifier: .set,
            named: "signerInfos",
            count: 0...maximumElements
        )
        .map(CMSSigner.init(berEncoded:))
        return CMSEnvelope(
            contentType: contentType,
            content: Array(content.bytes),
            digestAlgorithms: digests,
            certificates: certificates,
            signers: signers
        )
    }

    /// The children of a constructed node, after checking its tag and how many children it has.
    static func children(
        of node: ASN1Node,
        identifier: ASN1Identifier,
        named name: String,
        count: ClosedRange<Int>
    ) throws -> [ASN1Node] {
        guard node.identifier == identifier else {
            throw ASN1Error.invalidASN1Object(reason: "\(name): expected \(identifier), found \(node.identifier)")
        }
        guard case .constructed(let collection) = node.content else {
            throw ASN1Error.invalidASN1Object(reason: "\(name) is primitive, expected constructed")
        }
        var result: [ASN1Node] = []
        for child in collection {
            guard result.count < count.upperBound else {
                throw ASN1Error.invalidASN1Object(reason: "\(name) has more than \(count.upperBound) elements")
            }
            result.append(child)
        }
        guard count.contains(result.count) else {
            throw ASN1Error.invalidASN1Object(reason: "\(name) has \(result.count) elements, expected \(count)")
        }
        return result
    }

    /// The OID of an `AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }`.
    static func algorithm(of node: ASN1Node) throws -> ASN1ObjectIdentifier {
        let parts = try children(of: node, identifier: .sequence, named: "AlgorithmIdentifier", count: 1...2)
        return try ASN1ObjectIdentifier(berEncoded: parts[0])
    }

    /// A short description of a swift-asn1 error, without its source location.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? ASN1Error else { return String(describing: error) }
        let text = String(describing: error)
        // "ASN1Error.<code>: <reason> <file>:<line>" -> "<code>: <reason>"
        var trimmed = text.hasPrefix("ASN1Error.") ? String(text.dropFirst("ASN1Error.".count)) : text
        if let space = trimmed.lastIndex(of: " "), trimmed[space...].contains(".swift:") {
            trimmed = String(trimmed[..<space])
        }
        return trimmed
    }
}

/// One `SignerInfo`, as RFC 5652 defines it.
///
/// ```
/// SignerInfo ::= SEQUENCE {
///     version CMSVersion, sid SignerIdentifier, digestAlgorithm DigestAlgorithmIdentifier,
///     signedAttrs [0] IMPLICIT SignedAttributes OPTIONAL, signatureAlgorithm SignatureAlgorithmIdentifier,
///     signature OCTET STRING, unsignedAttrs [1] IMPLICIT UnsignedAttributes OPTIONAL }
/// SignerIdentifier ::= CHOICE {
///     issuerAndSerialNumber IssuerAndSerialNumber, subjectKeyIdentifier [0] SubjectKeyIdentifier }
/// ```
struct CMSSigner: Hashable, Sendable {
    /// How the signer names its certificate.
    enum Identifier: Hashable, Sendable {
        /// The issuer's `Name` (as encoded) and the certificate's serial number.
        case issuerAndSerialNumber(issuer: ASN1Node, serialNumber: ArraySlice<UInt8>)
        /// The certificate's subject key identifier.
        case subjectKeyIdentifier(ArraySlice<UInt8>)
    }

    var identifier: Identifier
    var digestAlgorithm: ASN1ObjectIdentifier
    var signedAttributes: CMSSignedAttributes?
    var signatureAlgorithm: ASN1ObjectIdentifier
    var signature: ArraySlice<UInt8>

    init(berEncoded node: ASN1Node) throws {
        let fields = try CMSEnvelope.children(of: node, identifier: .sequence, named: "SignerInfo", count: 5...7)
        if fields[1].identifier == .sequence {
            let parts = try CMSEnvelope.children(
                of: fields[1],
                identifier: .sequence,
                named: "IssuerAndSerialNumber",
                count: 2...2
            )
            identifier = .issuerAndSerialNumber(
                issuer: parts[0],
                serialNumber: try ArraySlice<UInt8>(berEncoded: parts[1])
            )
        } else {
            let key = try ASN1OctetString(
                berEncoded: fields[1],
                withIdentifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
            )
            identifier = .subjectKeyIdentifier(key.bytes)
        }
        digestAlgorithm = try CMSEnvelope.algorithm(of: fields[2])
        var index = 3
        if fields[index].identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            signedAttributes = try CMSSignedAttributes(berEncoded: fields[index])
            index += 1
        }
        guard index + 1 < fields.count else {
            throw ASN1Error.invalidASN1Object(reason: "SignerInfo ends before its signature")
        }
        signatureAlgorithm = try CMSEnvelope.algorithm(of: fields[index])
        signature = try ASN1OctetString(berEncoded: fields[index + 1]).bytes
    }
}

/// The signed attributes of a signer: the signature covers their DER encoding as a `SET OF Attribute`, and
/// `messageDigest` binds them to the content.
///
/// ```
/// Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }
/// ```
struct CMSSignedAttributes: Hashable, Sendable {
    static let contentTypeOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 3]
    static let messageDigestOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 4]
    static let signingTimeOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 5]

    /// The bytes the signature covers: the attributes re-tagged as `SET` (`0x31`) with definite lengths.
    var signedBytes: [UInt8]
    /// The `messageDigest` attribute's value, if present.
    var messageDigest: ArraySlice<UInt8>?
    /// The `contentType` attribute's value, if present.
    var contentType: ASN1ObjectIdentifier?
    /// The `signingTime` attribute's value, if present and readable.
    var signingTime: Date?

    init(berEncoded node: ASN1Node) throws {
        let attributes = try CMSEnvelope.children(
            of: node,
            identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific),
            named: "signedAttrs",
            count: 0...CMSEnvelope.maximumElements
        )
        for attribute in attributes {
            let parts = try CMSEnvelope.children(of: attribute, identifier: .sequence, named: "Attribute", count: 2...2)
            let type = try ASN1ObjectIdentifier(berEncoded: parts[0])
            let values = try CMSEnvelope.children(of: parts[1], identifier: .set, named: "attrValues", count: 0...64)
            guard let value = values.first else { continue }
            switch type {
            case Self.messageDigestOID:
                messageDigest = try ASN1OctetString(berEncoded: value).bytes
            case Self.contentTypeOID:
                contentType = try ASN1ObjectIdentifier(berEncoded: value)
            case Self.signingTimeOID:
                if let time = try? UTCTime(berEncoded: value) {
                    signingTime = Self.date(time)
                } else if let time = try? GeneralizedTime(berEncoded: value) {
                    signingTime = Self.date(time)
                }
            default:
                break
            }
        }
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .set) { inner in
            for attribute in attributes { try Self.appendDefinite(attribute, to: &inner) }
        }
        signedBytes = serializer.serializedBytes
    }

    /// Writes `node` with definite lengths (the signer hashed DER; BER files may carry indefinite lengths).
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

    private static func date(_ time: UTCTime) -> Date? {
        DateComponents(
            calendar: Calendar(identifier: .gregorian),
            timeZone: TimeZone(identifier: "UTC"),
            year: time.year,
            month: time.month,
            day: time.day,
            hour: time.hours,
            minute: time.minutes,
            second: time.seconds
        ).date
    }

    private static func date(_ time: GeneralizedTime) -> Date? {
        DateComponents(
            calendar: Calendar(identifier: .gregorian),
            timeZone: TimeZone(identifier: "UTC"),
            year: time.year,
            month: time.month,
            day: time.day,
            hour: time.hours,
            minute: time.minutes,
            second: time.seconds
        ).date
    }
}
