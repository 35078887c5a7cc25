import Crypto
public import Foundation
public import IPACheckBinary
import IPACheckPlist
import SwiftASN1
import X509

/// A certificate as a report shows it: who, issued by whom, and when it is valid.
public struct CertificateSummary: Hashable, Sendable, Codable {
    /// The subject's distinguished name (`CN=iPhone Developer: ..., OU=..., O=..., C=US`).
    public let subject: String
    /// The issuer's distinguished name.
    public let issuer: String
    /// Start of validity.
    public let notBefore: Date
    /// End of validity.
    public let notAfter: Date

    init(_ certificate: Certificate) {
        subject = certificate.subject.description
        issuer = certificate.issuer.description
        notBefore = certificate.notValidBefore
        notAfter = certificate.notValidAfter
    }
}

/// The outcome of checking a code signature's CMS message (the `0xfade0b01` blob) against its CodeDirectories.
///
/// The check is the mathematics only, done with public API: swift-asn1 walks the `SignedData`, swift-certificates
/// parses the certificates and checks the RSA/ECDSA signature over the DER of the signed attributes
/// (`Certificate.PublicKey.isValidSignature(_:for:signatureAlgorithm:)`), and swift-crypto computes the digests.
/// No `@_spi(CMS)` is used, because that API also evaluates trust, which `verify` reports separately.
///
/// ```
/// ContentInfo ::= SEQUENCE { contentType OBJECT IDENTIFIER, content [0] EXPLICIT SignedData }
/// SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo SEQUENCE,
///                           certificates [0] IMPLICIT SET OF Certificate OPTIONAL,
///                           crls [1] IMPLICIT OPTIONAL, signerInfos SET OF SignerInfo }
/// SignerInfo ::= SEQUENCE { version, sid IssuerAndSerialNumber, digestAlgorithm AlgorithmIdentifier,
///                           signedAttrs [0] IMPLICIT SET OF Attribute, signatureAlgorithm, signature OCTET STRING,
///                           unsignedAttrs [1] IMPLICIT OPTIONAL }
/// ```
public struct CMSSignatureCheck: Hashable, Sendable {
    /// The signer's certificate, if the message carries it.
    public let signer: CertificateSummary?
    /// The chain from the signer up, as far as the message's certificates reach (signer first).
    public let chain: [CertificateSummary]
    /// Whether the chain ends in a self-signed certificate (a root); trust in that root is not judged here.
    public let chainReachesRoot: Bool
    /// The signing time attribute, if present.
    public let signingTime: Date?
    /// The digest algorithm of the signer (`sha256`).
    public let digestAlgorithm: String
    /// Whether the signer's signature over the signed attributes verifies with the certificate's public key.
    public let signatureVerifies: Bool
    /// Whether the `messageDigest` attribute equals the digest of the primary CodeDirectory.
    public let messageDigestMatches: Bool
    /// Whether Apple's CodeDirectory-hash attributes (1.2.840.113635.100.9.1 plist, .9.2 DER) list exactly the
    /// signature's cdhashes; `nil` when neither attribute is present.
    public let codeDirectoryHashesMatch: Bool?

    /// Whether the CMS message proves the CodeDirectories unchanged since signing.
    public var isValid: Bool { signatureVerifies && messageDigestMatches && codeDirectoryHashesMatch != false }

    /// Checks `cms` (the DER of the blob's payload) against the signature's CodeDirectories (primary first).
    ///
    /// - Throws: ``CodeSignatureError`` when the message is not a CMS `SignedData` we can read.
    public static func check(
        cms: some Collection<UInt8>,
        codeDirectories: [CodeDirectory]
    ) throws(CodeSignatureError)
        -> CMSSignatureCheck
    {
        do {
            return try checkThrowing(Array(cms), codeDirectories: codeDirectories)
        } catch let error as CodeSignatureError {
            throw error
        } catch {
            throw CodeSignatureError("CMS signature", "\(error)")
        }
    }

    private static let oidSignedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.2"
    private static let oidMessageDigest: ASN1ObjectIdentifier = "1.2.840.113549.1.9.4"
    private static let oidSigningTime: ASN1ObjectIdentifier = "1.2.840.113549.1.9.5"
    private static let oidAppleCDHashesPlist: ASN1ObjectIdentifier = "1.2.840.113635.100.9.1"
    private static let oidAppleCDHashes: ASN1ObjectIdentifier = "1.2.840.113635.100.9.2"

    private static func checkThrowing(_ bytes: [UInt8], codeDirectories: [CodeDirectory]) throws -> CMSSignatureCheck {
        let root = try BER.parse(bytes)
        let contentInfo = try children(root, "ContentInfo")
        guard contentInfo.count == 2, try ASN1ObjectIdentifier(berEncoded: contentInfo[0]) == oidSignedData else {
            throw CodeSignatureError("CMS signature", "not a SignedData ContentInfo")
        }
        let explicit = try children(contentInfo[1], "ContentInfo.content")
        guard explicit.count == 1 else { throw CodeSignatureError("CMS signature", "empty [0] content") }
        let signedData = try children(explicit[0], "SignedData")
        guard signedData.count >= 4, let signerInfos = signedData.last else {
            throw CodeSignatureError("CMS signature", "SignedData has \(signedData.count) fields")
        }
        var certificates: [Certificate] = []
        for field in signedData.dropFirst(3).dropLast()
        where field.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            for node in try children(field, "SignedData.certificates") {
                certificates.append(try Certificate(derEncoded: node))
            }
        }
        let signers = try children(signerInfos, "SignedData.signerInfos")
        guard let signerNode = signers.first else { throw CodeSignatureError("CMS signature", "no SignerInfo") }
        let signerInfo = try children(signerNode, "SignerInfo")
        guard signerInfo.count >= 5 else { throw CodeSignatureError("CMS signature", "SignerInfo is too short") }

        // sid: IssuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber INTEGER }
        var signerCertificate: Certificate?
        if signerInfo[1].identifier == .sequence {
            let sid = try children(signerInfo[1], "IssuerAndSerialNumber")
            if sid.count == 2, case .primitive(let serial) = sid[1].content {
                let issuer = try DistinguishedName(derEncoded: sid[0])
                signerCertificate = certificates.first {
                    $0.issuer == issuer
                        && $0.serialNumber.bytes.drop(while: { $0 == 0 }) == serial.drop(while: { $0 == 0 })
                }
            }
        }
        let digestOID = try algorithmOID(signerInfo[2])
        var index = 3
        var signedAttributes: ASN1Node?
        if signerInfo[index].identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            signedAttributes = signerInfo[index]
            index += 1
        }
        guard signerInfo.count > index + 1, case .primitive(let signature) = signerInfo[index + 1].content else {
            throw CodeSignatureError("CMS signature", "SignerInfo has no signature")
        }
        let signatureOID = try algorithmOID(signerInfo[index])
        guard let signedAttributes else {
            throw CodeSignatureError("CMS signature", "no signed attributes (code signatures always have them)")
        }

        var messageDigest: ArraySlice<UInt8>?
        var signingTime: Date?
        var plistHashes: [[UInt8]]?
        var derHashes: [(ASN1ObjectIdentifier, [UInt8])]?
        for attribute in try children(signedAttributes, "signedAttrs") {
            let parts = try children(attribute, "Attribute")
            guard parts.count == 2 else { continue }
            let type = try ASN1ObjectIdentifier(berEncoded: parts[0])
            let values = try children(parts[1], "Attribute.values")
            switch type {
            case oidMessageDigest:
                if let value = values.first, case .primitive(let digest) = value.content { messageDigest = digest }
            case oidSigningTime:
                if let value = values.first { signingTime = try? date(value) }
            case oidAppleCDHashesPlist:
                if let value = values.first, case .primitive(let plist) = value.content {
                    plistHashes = try? PlistParser.parse(plist)["cdhashes"]?.arrayValue?.compactMap(\.dataValue)
                }
            case oidAppleCDHashes:
                var entries: [(ASN1ObjectIdentifier, [UInt8])] = []
                for value in values {
                    let pair = try children(value, "CDHashes2")
                    if pair.count == 2, case .primitive(let hash) = pair[1].content {
                        entries.append((try ASN1ObjectIdentifier(berEncoded: pair[0]), Array(hash)))
                    }
                }
                derHashes = entries
            default:
                continue
            }
        }

        // The signature covers the DER of the signed attributes with the SET OF tag (0x31), not [0] IMPLICIT.
        var toBeSigned = Array(signedAttributes.encodedBytes)
        if !toBeSigned.isEmpty { toBeSigned[0] = 0x31 }
        var signatureVerifies = false
        if let signerCertificate, let algorithm = signatureAlgorithm(signatureOID, digest: digestOID) {
            signatureVerifies = signerCertificate.publicKey.isValidSignature(
                signature,
                for: toBeSigned,
                signatureAlgorithm: algorithm
            )
        }
        var digestMatches = false
        if let primary = codeDirectories.first, let messageDigest, let digest = digest(digestOID, primary.bytes) {
            digestMatches = Array(messageDigest) == digest
        }
        var hashesMatch: Bool?
        if let plistHashes {
            let expected = codeDirectories.compactMap { cd in
                cd.hashType.map { Array(CodeHash.digest($0, cd.bytes).prefix(20)) }
            }
            hashesMatch = plistHashes == expected
        }
        if let derHashes {
            let matches =
                derHashes.count == codeDirectories.count
                && derHashes.allSatisfy { oid, hash in
                    codeDirectories.contains { cd in digest(oid, cd.bytes) == hash }
                }
            hashesMatch = (hashesMatch ?? true) && matches
        }
        let chain = chainFrom(signerCertificate, certificates: certificates)
        return CMSSignatureCheck(
            signer: signerCertificate.map(CertificateSummary.init),
            chain: chain.map(CertificateSummary.init),
            chainReachesRoot: chain.last.map { $0.subject == $0.issuer } ?? false,
            signingTime: signingTime,
            digestAlgorithm: digestName(digestOID),
            signatureVerifies: signatureVerifies,
            messageDigestMatches: digestMatches,
            codeDirectoryHashesMatch: hashesMatch
        )
    }

    private static func children(_ node: ASN1Node, _ what: String) throws -> [ASN1Node] {
        guard case .constructed(let nodes) = node.content else {
            throw CodeSignatureError("CMS signature", "\(what) is not constructed")
        }
        return Array(nodes)
    }

    private static func algorithmOID(_ node: ASN1Node) throws -> ASN1ObjectIdentifier {
        let parts = try children(node, "AlgorithmIdentifier")
        guard let first = parts.first else { throw CodeSignatureError("CMS signature", "empty AlgorithmIdentifier") }
        return try ASN1ObjectIdentifier(berEncoded: first)
    }

    private static func date(_ node: ASN1Node) throws -> Date {
        if node.identifier == .utcTime {
            let time = try UTCTime(derEncoded: node)
            return components(time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
        }
        let time = try GeneralizedTime(derEncoded: node)
        return components(time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
    }

    private static func components(
        _ year: Int,
        _ month: Int,
        _ day: Int,
        _ hour: Int,
        _ minute: Int,
        _ second: Int
    )
        -> Date
    {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: parts) ?? Date(timeIntervalSince1970: 0)
    }

    private static func digest(_ oid: ASN1ObjectIdentifier, _ bytes: [UInt8]) -> [UInt8]? {
        switch oid.description {
        case "1.3.14.3.2.26": Array(Insecure.SHA1.hash(data: bytes))
        case "2.16.840.1.101.3.4.2.1": Array(SHA256.hash(data: bytes))
        case "2.16.840.1.101.3.4.2.2": Array(SHA384.hash(data: bytes))
        case "2.16.840.1.101.3.4.2.3": Array(SHA512.hash(data: bytes))
        default: nil
        }
    }

    private static func digestName(_ oid: ASN1ObjectIdentifier) -> String {
        switch oid.description {
        case "1.3.14.3.2.26": "sha1"
        case "2.16.840.1.101.3.4.2.1": "sha256"
        case "2.16.840.1.101.3.4.2.2": "sha384"
        case "2.16.840.1.101.3.4.2.3": "sha512"
        default: oid.description
        }
    }

    /// Maps CMS's (signatureAlgorithm, digestAlgorithm) pair to swift-certificates' combined algorithm; CMS often
    /// names only the key type (`rsaEncryption`, `id-ecPublicKey`) and leaves the digest to `digestAlgorithm`.
    private static func signatureAlgorithm(
        _ oid: ASN1ObjectIdentifier,
        digest: ASN1ObjectIdentifier
    )
        -> Certificate.SignatureAlgorithm?
    {
        let digestName = digestName(digest)
        switch oid.description {
        case "1.2.840.113549.1.1.1":  // rsaEncryption
            switch digestName {
            case "sha1": return .sha1WithRSAEncryption
            case "sha256": return .sha256WithRSAEncryption
            case "sha384": return .sha384WithRSAEncryption
            case "sha512": return .sha512WithRSAEncryption
            default: return nil
            }
        case "1.2.840.10045.2.1":  // id-ecPublicKey
            switch digestName {
            case "sha256": return .ecdsaWithSHA256
            case "sha384": return .ecdsaWithSHA384
            case "sha512": return .ecdsaWithSHA512
            default: return nil
            }
        case "1.2.840.113549.1.1.5": return .sha1WithRSAEncryption
        case "1.2.840.113549.1.1.11": return .sha256WithRSAEncryption
        case "1.2.840.113549.1.1.12": return .sha384WithRSAEncryption
        case "1.2.840.113549.1.1.13": return .sha512WithRSAEncryption
        case "1.2.840.10045.4.3.2": return .ecdsaWithSHA256
        case "1.2.840.10045.4.3.3": return .ecdsaWithSHA384
        case "1.2.840.10045.4.3.4": return .ecdsaWithSHA512
        default: return nil
        }
    }

    private static func chainFrom(_ signer: Certificate?, certificates: [Certificate]) -> [Certificate] {
        guard var current = signer else { return [] }
        var chain = [current]
        // At most as many steps as certificates, so a loop of cross-signed certificates cannot hang.
        while chain.count <= certificates.count, current.subject != current.issuer,
            let parent = certificates.first(where: { $0.subject == current.issuer })
        {
            chain.append(parent)
            current = parent
        }
        return chain
    }
}
