import IPACheckBinary
import IPACheckBundle

/// The subject of the certificate that signed a code signature's CMS message, read just far enough for `info`'s
/// signing summary to tell an App Store delivery.
///
/// `info` lists; it does not verify. The gate (`check`, `verify`) reads the same message with `IPACheckCMS`, checks
/// its signature and judges the chain. This module does not depend on `IPACheckCMS`, so it walks the DER itself,
/// through the bounds-checked ``ByteReader``: single-byte tags, definite lengths of at most four bytes, and only
/// the path below. Anything else gives `nil` (no signer named), never a guess.
///
/// ```asn1
/// ContentInfo ::= SEQUENCE { contentType OBJECT IDENTIFIER (signedData), content [0] EXPLICIT SignedData }
/// SignedData ::= SEQUENCE { version INTEGER, digestAlgorithms SET, encapContentInfo SEQUENCE,
///                           certificates [0] IMPLICIT SET OF Certificate OPTIONAL, crls [1] OPTIONAL,
///                           signerInfos SET OF SignerInfo }
/// SignerInfo ::= SEQUENCE { version INTEGER, sid IssuerAndSerialNumber | [0] SubjectKeyIdentifier, ... }
/// IssuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber INTEGER }
/// TBSCertificate ::= SEQUENCE { version [0] EXPLICIT OPTIONAL, serialNumber INTEGER, signature SEQUENCE,
///                               issuer Name, validity SEQUENCE, subject Name, ... }
/// ```
struct CMSSignerSubject: Hashable, Sendable {
    /// The subject's common name (2.5.4.3), if present.
    let commonName: String?
    /// The subject's organization (2.5.4.10), if present.
    let organization: String?

    /// The most certificates looked through (Apple's messages carry three).
    static let maximumCertificates = 16

    /// `1.2.840.113549.1.7.2`, id-signedData, as DER content bytes.
    private static let signedDataOID: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]
    /// `2.5.4.3`, id-at-commonName.
    private static let commonNameOID: [UInt8] = [0x55, 0x04, 0x03]
    /// `2.5.4.10`, id-at-organizationName.
    private static let organizationOID: [UInt8] = [0x55, 0x04, 0x0a]

    /// The subject of the first signer's certificate in `cms`, or `nil` when the message cannot be read this far,
    /// names its signer by key identifier, or does not carry the signer's certificate.
    static func read(_ cms: ArraySlice<UInt8>) -> CMSSignerSubject? {
        try? parse(cms)
    }

    private static func parse(_ cms: ArraySlice<UInt8>) throws(ParseError) -> CMSSignerSubject? {
        var outer = ByteReader(cms)
        var contentInfo = try element(&outer, tag: 0x30, field: "ContentInfo")
        guard try element(&contentInfo, tag: 0x06, field: "contentType").bytes.elementsEqual(signedDataOID) else {
            return nil
        }
        var explicit = try element(&contentInfo, tag: 0xa0, field: "content")
        var signedData = try element(&explicit, tag: 0x30, field: "SignedData")
        _ = try element(&signedData, tag: 0x02, field: "version")
        _ = try element(&signedData, tag: 0x31, field: "digestAlgorithms")
        _ = try element(&signedData, tag: 0x30, field: "encapContentInfo")
        var certificates: [ByteReader] = []
        var next = try anyElement(&signedData, field: "SignedData")
        if next.tag == 0xa0 {
            var set = next.content
            while !set.isAtEnd, certificates.count < maximumCertificates {
                certificates.append(try element(&set, tag: 0x30, field: "Certificate"))
            }
            next = try anyElement(&signedData, field: "SignedData")
        }
        if next.tag == 0xa1 { next = try anyElement(&signedData, field: "SignedData") }
        guard next.tag == 0x31 else { return nil }
        var signerInfos = next.content
        var signerInfo = try element(&signerInfos, tag: 0x30, field: "SignerInfo")
        _ = try element(&signerInfo, tag: 0x02, field: "SignerInfo.version")
        let sid = try anyElement(&signerInfo, field: "SignerInfo.sid")
        guard sid.tag == 0x30 else { return nil }  // [0] SubjectKeyIdentifier: not matched here
        var issuerAndSerial = sid.content
        let issuer = try element(&issuerAndSerial, tag: 0x30, field: "issuer").bytes
        let serial = try element(&issuerAndSerial, tag: 0x02, field: "serialNumber").bytes
        for certificate in certificates {
            var outerCertificate = certificate
            var tbs = try element(&outerCertificate, tag: 0x30, field: "TBSCertificate")
            var field = try anyElement(&tbs, field: "TBSCertificate")
            if field.tag == 0xa0 { field = try anyElement(&tbs, field: "TBSCertificate") }
            guard field.tag == 0x02, field.content.bytes.elementsEqual(serial) else { continue }
            _ = try element(&tbs, tag: 0x30, field: "signature")
            guard try element(&tbs, tag: 0x30, field: "issuer").bytes.elementsEqual(issuer) else { continue }
            _ = try element(&tbs, tag: 0x30, field: "validity")
            let subject = try element(&tbs, tag: 0x30, field: "subject")
            return CMSSignerSubject(
                commonName: try attribute(commonNameOID, in: subject),
                organization: try attribute(organizationOID, in: subject)
            )
        }
        return nil
    }

    /// The first value of attribute `oid` in a `Name` (`SEQUENCE OF SET OF SEQUENCE { type, value }`), decoded
    /// when it is a UTF8String, PrintableString or IA5String.
    private static func attribute(_ oid: [UInt8], in name: ByteReader) throws(ParseError) -> String? {
        var sequence = name
        while !sequence.isAtEnd {
            var set = try element(&sequence, tag: 0x31, field: "RelativeDistinguishedName")
            while !set.isAtEnd {
                var pair = try element(&set, tag: 0x30, field: "AttributeTypeAndValue")
                let type = try element(&pair, tag: 0x06, field: "AttributeType")
                let value = try anyElement(&pair, field: "AttributeValue")
                guard type.bytes.elementsEqual(oid) else { continue }
                switch value.tag {
                case 0x0c, 0x13, 0x16: return String(decoding: value.content.bytes, as: UTF8.self)
                default: return nil
                }
            }
        }
        return nil
    }

    /// The next element, which must carry `tag`; returns a reader over its content.
    private static func element(
        _ reader: inout ByteReader,
        tag: UInt8,
        field: String
    ) throws(ParseError) -> ByteReader {
        let found = try anyElement(&reader, field: field)
        guard found.tag == tag else {
            throw ParseError(.invalidValue, field: field, at: found.content.baseOffset, reason: "unexpected tag")
        }
        return found.content
    }

    /// The next element: its one-byte tag and a reader over its content (definite lengths only).
    private static func anyElement(
        _ reader: inout ByteReader,
        field: String
    ) throws(ParseError) -> (tag: UInt8, content: ByteReader) {
        let tag = try reader.readUInt8(field)
        guard tag & 0x1f != 0x1f else {
            throw ParseError(.unsupported, field: field, at: reader.baseOffset + reader.offset, reason: "long tag")
        }
        let first = try reader.readUInt8(field)
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7f)
            guard count >= 1, count <= 4 else {
                throw ParseError(.unsupported, field: field, at: reader.baseOffset + reader.offset, reason: "length")
            }
            for _ in 0..<count {
                // At most four bytes, so the value stays below 2^32 and the shift cannot overflow Int.
                length = length << 8 | Int(try reader.readUInt8(field))
            }
        }
        let start = reader.offset
        let content = try reader.subReader(at: start, count: length, field: field)
        try reader.skip(length, field: field)
        return (tag, content)
    }
}
