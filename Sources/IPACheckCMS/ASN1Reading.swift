import Foundation
import SwiftASN1

/// The checked steps every CMS structure is read with: tag, shape and element count first, then the value, each
/// failure a ``CMSError`` naming the structure.
package enum ASN1Reading {
    /// The children of a constructed node, after checking its tag and how many children it has.
    ///
    /// Stops counting at `count.upperBound + 1`, so a hostile list costs no more than the cap.
    static func children(
        of node: ASN1Node,
        identifier: ASN1Identifier,
        named name: String,
        count: ClosedRange<Int>
    ) throws(CMSError) -> [ASN1Node] {
        guard node.identifier == identifier else {
            throw CMSError(.malformed, name, "expected \(identifier), found \(node.identifier)")
        }
        guard case .constructed(let collection) = node.content else {
            throw CMSError(.malformed, name, "is primitive, expected constructed")
        }
        var result: [ASN1Node] = []
        for child in collection {
            guard result.count < count.upperBound else {
                let code: CMSError.Code =
                    count.upperBound >= CMSSignedData.maximumElements ? .tooManyElements : .malformed
                throw CMSError(code, name, "has more than \(count.upperBound) elements")
            }
            result.append(child)
        }
        guard count.contains(result.count) else {
            throw CMSError(.malformed, name, "has \(result.count) elements, expected \(count)")
        }
        return result
    }

    /// An `OBJECT IDENTIFIER`.
    static func objectIdentifier(_ node: ASN1Node, named name: String) throws(CMSError) -> ASN1ObjectIdentifier {
        try decoding(name) { try ASN1ObjectIdentifier(berEncoded: node) }
    }

    /// The OID of an `AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }`.
    static func algorithm(of node: ASN1Node, named name: String) throws(CMSError) -> ASN1ObjectIdentifier {
        let parts = try children(of: node, identifier: .sequence, named: name, count: 1...2)
        return try objectIdentifier(parts[0], named: name)
    }

    /// The bytes of an `OCTET STRING` (or one implicitly tagged `identifier`), constructed chunks joined.
    static func octets(
        _ node: ASN1Node,
        identifier: ASN1Identifier = .octetString,
        named name: String
    ) throws(CMSError) -> ArraySlice<UInt8> {
        try decoding(name) { try ASN1OctetString(berEncoded: node, withIdentifier: identifier).bytes }
    }

    /// A `UTCTime` or `GeneralizedTime` as a `Date` (UTC); `nil` for any other node or an impossible date.
    static func date(_ node: ASN1Node) -> Date? {
        if node.identifier == .utcTime, let time = try? UTCTime(berEncoded: node) {
            return date(time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
        }
        if node.identifier == .generalizedTime, let time = try? GeneralizedTime(berEncoded: node) {
            return date(time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
        }
        return nil
    }

    private static func date(
        _ year: Int,
        _ month: Int,
        _ day: Int,
        _ hour: Int,
        _ minute: Int,
        _ second: Int
    )
        -> Date?
    {
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: parts)
    }

    /// Runs a swift-asn1 decoder, turning its error into a ``CMSError/Code/malformed`` one for `name`.
    static func decoding<Value>(_ name: String, _ body: () throws -> Value) throws(CMSError) -> Value {
        do {
            return try body()
        } catch let error as CMSError {
            throw error
        } catch {
            throw CMSError(.malformed, name, describe(error))
        }
    }

    /// A swift-asn1 error in words (what is wrong with the bytes), never its type or source location.
    package static func describe(_ error: any Error) -> String {
        guard let asn1 = error as? ASN1Error else { return String(describing: error) }
        let text = String(describing: asn1)
        switch asn1.code {
        case .unexpectedFieldType: return "holds \(fieldName(in: text)) where another type belongs"
        case .invalidASN1Object:
            return text.contains("Trailing unparsed data") ? "has bytes after its end" : "is not valid DER"
        case .invalidASN1IntegerEncoding: return "holds an integer not encoded as DER requires"
        case .truncatedASN1Field: return "is cut short"
        case .unsupportedFieldLength: return "declares a length too large to read"
        case .invalidPEMDocument: return "is not a valid PEM document"
        case .invalidStringRepresentation: return "holds a string whose bytes are not valid for its type"
        case .tooFewOIDComponents: return "holds an object identifier with fewer than two parts"
        default: return "is not valid DER"
        }
    }

    /// The field an `unexpectedFieldType` error names (`ASN1Identifier(tagNumber: 16, tagClass: universal)`), as
    /// X.690 calls it (`a SEQUENCE`).
    private static func fieldName(in text: String) -> String {
        guard let range = text.range(of: #"tagNumber: (\d+), tagClass: (\w+)"#, options: .regularExpression) else {
            return "a field"
        }
        let parts = text[range].split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        guard parts.count == 4, let number = Int(parts[1]) else { return "a field" }
        guard parts[3] == "universal" else { return "a [\(parts[3]) \(number)] field" }
        let names = [
            1: "a BOOLEAN", 2: "an INTEGER", 3: "a BIT STRING", 4: "an OCTET STRING", 5: "a NULL",
            6: "an OBJECT IDENTIFIER", 12: "a UTF8String", 16: "a SEQUENCE", 17: "a SET", 19: "a PrintableString",
            20: "a T61String", 22: "an IA5String", 23: "a UTCTime", 24: "a GeneralizedTime", 30: "a BMPString",
        ]
        return names[number] ?? "a universal type \(number) field"
    }
}
