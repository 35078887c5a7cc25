import IPACheckCMS
import SwiftASN1
import Testing
import X509

/// swift-asn1's failures and certificate names in words: no `ASN1Identifier(tagNumber: …)`, no
/// `invalidASN1Object:`, no `ASN1Any([…])` in what a person reads.
struct ASN1WordsTests {
    /// Each failure as X.690 would say it, from bytes that really fail that way.
    @Test func failuresAreSaidInWords() {
        let truncated = #expect(throws: ASN1Error.self) { try DER.parse([0x30, 0x03, 0x02, 0x01]) }
        #expect(truncated.map(ASN1Reading.describe) == "is cut short")
        let trailing = #expect(throws: ASN1Error.self) { try DER.parse([0x05, 0x00, 0x00]) }
        #expect(trailing.map(ASN1Reading.describe) == "has bytes after its end")
        let wrongType = #expect(throws: ASN1Error.self) {
            try ASN1OctetString(derEncoded: try DER.parse([0x30, 0x00]))
        }
        #expect(wrongType.map(ASN1Reading.describe) == "holds a SEQUENCE where another type belongs")
    }

    /// Names in string types swift-certificates keeps raw are decoded (T61 as Latin-1, as OpenSSL shows it; BMP as
    /// UTF-16), and a type that is no string is `#` and its DER in hex (RFC 4514 §2.4).
    @Test func namesOfEveryStringTypeAreDecoded() throws {
        func value(_ der: [UInt8]) throws -> RelativeDistinguishedName.Attribute.Value {
            .init(asn1Any: try ASN1Any(derEncoded: der))
        }
        let name = DistinguishedName([
            RelativeDistinguishedName(
                .init(type: .RDNAttributeType.countryName, value: try value([0x13, 0x02, 0x46, 0x52]))
            ),
            RelativeDistinguishedName(
                .init(type: .RDNAttributeType.organizationName, value: try value([0x1E, 0x04, 0x00, 0xC9, 0x00, 0x74]))
            ),
            RelativeDistinguishedName(
                .init(type: .RDNAttributeType.commonName, value: try value([0x14, 0x05, 0x52, 0xE9, 0x6E, 0xE9, 0x2C]))
            ),
            RelativeDistinguishedName(
                .init(type: .RDNAttributeType.localityName, value: try value([0x02, 0x01, 0x07]))
            ),
        ])
        let text = CertificateSummary.text(of: name)
        #expect(text == #"L=#020107,CN=Réné\,,O=Ét,C=FR"#)
        #expect(CertificateSummary.attribute(.RDNAttributeType.commonName, in: name) == "Réné,")
        #expect(!text.contains("ASN1Any"))
    }
}
