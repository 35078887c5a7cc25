package import SwiftASN1

/// A CMS `SignedData` message (RFC 5652, PKCS #7), read from BER or DER: what provisioning profiles, code
/// signatures (`0xfade0b01` blobs) and iOS 8 signed AASA files are wrapped in.
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
/// - Note: swift-certificates keeps its CMS types and verifier behind `@_spi(CMS)`, and against real files
///   (swift-certificates 1.21.1) `CMS.isValidAttachedSignature` rejects every Apple profile: Apple's signers name
///   the signature algorithm as plain `rsaEncryption`, and indefinite-length profiles fail on the constructed
///   eContent OCTET STRING. Hence this reader, on public swift-asn1 API, and ``verify(signer:content:now:)``.
/// - Note: a `SignedData` without `signerInfos` (which RFC 5652 requires) is read as having no signers, so that
///   the content of a damaged signed AASA file can still be extracted; verification then has nobody to check.
package struct CMSSignedData: Hashable, Sendable {
    /// The largest message read: 16 MiB, eight times the largest real provisioning profile allowed.
    package static let maximumSize = 16 * 1024 * 1024
    /// The most digest algorithms, certificates, signers, attributes and attribute values read per list; real
    /// messages have one signer and at most a handful of certificates.
    package static let maximumElements = 64

    /// `id-signedData`.
    package static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    /// `id-data`.
    package static let dataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]

    /// `version`.
    package var version: Int
    /// `digestAlgorithms`.
    package var digestAlgorithms: [ASN1ObjectIdentifier]
    /// `eContentType`: `id-data` in every Apple message.
    package var contentType: ASN1ObjectIdentifier
    /// `eContent` with constructed OCTET STRING chunks joined; `nil` for a detached signature (code signatures,
    /// whose content is the CodeDirectory).
    package var content: [UInt8]?
    /// The encoding of each certificate in `certificates`, in file order (other `CertificateChoices` are
    /// skipped).
    package var certificates: [[UInt8]]
    /// `signerInfos`, in file order.
    package var signers: [CMSSignerInfo]

    /// Whether the content is carried in the message (attached) rather than supplied by the caller (detached).
    package var isDetached: Bool { content == nil }

    /// Reads `bytes` as a BER (or DER) `ContentInfo` holding `SignedData`.
    ///
    /// - Throws: ``CMSError`` naming the structure that is damaged, too large or of the wrong type.
    package static func parse(_ bytes: [UInt8]) throws(CMSError) -> CMSSignedData {
        guard bytes.count <= maximumSize else {
            throw CMSError(.tooLarge, "ContentInfo", "\(bytes.count) bytes is over the \(maximumSize)-byte limit")
        }
        let root = try ASN1Reading.decoding("ContentInfo") { try BER.parse(bytes) }
        let info = try ASN1Reading.children(of: root, identifier: .sequence, named: "ContentInfo", count: 2...2)
        let type = try ASN1Reading.objectIdentifier(info[0], named: "ContentInfo.contentType")
        guard type == signedDataOID else {
            throw CMSError(.notSignedData, "ContentInfo", "holds \(type), not SignedData (\(signedDataOID))")
        }
        let explicit = try ASN1Reading.children(
            of: info[1],
            identifier: contextTag(0),
            named: "ContentInfo.content [0]",
            count: 1...1
        )
        return try parseSignedData(explicit[0])
    }

    private static func parseSignedData(_ node: ASN1Node) throws(CMSError) -> CMSSignedData {
        let fields = try ASN1Reading.children(of: node, identifier: .sequence, named: "SignedData", count: 3...6)
        let version = try ASN1Reading.decoding("SignedData.version") { try Int(berEncoded: fields[0]) }
        let digests = try ASN1Reading.children(
            of: fields[1],
            identifier: .set,
            named: "SignedData.digestAlgorithms",
            count: 0...maximumElements
        )
        var digestAlgorithms: [ASN1ObjectIdentifier] = []
        for digest in digests {
            digestAlgorithms.append(try ASN1Reading.algorithm(of: digest, named: "SignedData.digestAlgorithms"))
        }
        let (contentType, content) = try parseEncapsulatedContent(fields[2])

        var index = 3
        var certificates: [[UInt8]] = []
        if index < fields.count, fields[index].identifier == contextTag(0) {
            certificates = try ASN1Reading.children(
                of: fields[index],
                identifier: contextTag(0),
                named: "SignedData.certificates",
                count: 0...maximumElements
            ).filter { $0.identifier == .sequence }.map { Array($0.encodedBytes) }
            index += 1
        }
        if index < fields.count, fields[index].identifier == contextTag(1) {
            index += 1  // crls: not used.
        }
        var signers: [CMSSignerInfo] = []
        if index < fields.count {
            let nodes = try ASN1Reading.children(
                of: fields[index],
                identifier: .set,
                named: "SignedData.signerInfos",
                count: 0...maximumElements
            )
            for node in nodes { signers.append(try CMSSignerInfo(berEncoded: node)) }
            index += 1
        }
        guard index == fields.count else {
            throw CMSError(.malformed, "SignedData", "unexpected field \(fields[index].identifier)")
        }
        return CMSSignedData(
            version: version,
            digestAlgorithms: digestAlgorithms,
            contentType: contentType,
            content: content,
            certificates: certificates,
            signers: signers
        )
    }

    private static func parseEncapsulatedContent(
        _ node: ASN1Node
    ) throws(CMSError) -> (ASN1ObjectIdentifier, [UInt8]?) {
        let name = "SignedData.encapContentInfo"
        let encap = try ASN1Reading.children(of: node, identifier: .sequence, named: name, count: 1...2)
        let contentType = try ASN1Reading.objectIdentifier(encap[0], named: "\(name).eContentType")
        guard encap.count == 2 else { return (contentType, nil) }
        let wrapper = try ASN1Reading.children(
            of: encap[1],
            identifier: contextTag(0),
            named: "\(name).eContent [0]",
            count: 1...1
        )
        return (contentType, Array(try ASN1Reading.octets(wrapper[0], named: "\(name).eContent")))
    }

    /// A context-specific tag (`[n]`).
    static func contextTag(_ number: UInt) -> ASN1Identifier {
        ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific)
    }
}
