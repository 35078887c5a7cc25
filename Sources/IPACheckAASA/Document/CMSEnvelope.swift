/// The content of an iOS 8-era signed AASA file: CMS (PKCS#7) SignedData with the JSON embedded.
///
/// Only the structure is read (ContentInfo → SignedData → encapContentInfo → [0] eContent, and the certificates);
/// the signature is NOT verified. Callers that want the signer certificate's expiry parse ``certificates`` with
/// swift-certificates.
public struct AASASignedEnvelope: Sendable, Hashable {
    /// The embedded JSON bytes (eContent, with constructed OCTET STRING chunks joined).
    public var payload: [UInt8]
    /// The DER encoding of each certificate in SignedData's `certificates` field, in file order.
    public var certificates: [[UInt8]]

    /// Whether `bytes` starts the way a DER/BER ContentInfo does (SEQUENCE with a long or indefinite length).
    ///
    /// A JSON document never starts with 0x30 0x8x, so this cannot misfire on text.
    public static func looksSigned(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x30 && bytes[1] >= 0x80
    }

    /// Extracts the payload of a CMS SignedData blob.
    public static func extract(from bytes: [UInt8]) throws(AASAParseError) -> AASASignedEnvelope {
        let reader = BERReader(bytes: bytes)
        let contentInfo = try reader.element(in: 0..<bytes.count, depth: 0)
        try contentInfo.require(tag: 0x30, "ContentInfo must be a SEQUENCE")
        let contentInfoChildren = try reader.children(of: contentInfo)
        guard contentInfoChildren.count >= 2 else { throw reader.failure("ContentInfo has no content", at: 0) }
        let contentType = try reader.objectIdentifier(contentInfoChildren[0])
        guard contentType == signedDataOID else {
            throw reader.failure("ContentInfo type is \(contentType), not signedData", at: contentInfoChildren[0].start)
        }
        try contentInfoChildren[1].require(tag: 0xA0, "ContentInfo content must be [0] EXPLICIT")
        guard let signedData = try reader.children(of: contentInfoChildren[1]).first else {
            throw reader.failure("ContentInfo [0] is empty", at: contentInfoChildren[1].start)
        }
        try signedData.require(tag: 0x30, "SignedData must be a SEQUENCE")
        let fields = try reader.children(of: signedData)
        guard fields.count >= 3 else { throw reader.failure("SignedData is truncated", at: signedData.start) }
        try fields[2].require(tag: 0x30, "encapContentInfo must be a SEQUENCE")
        let encapsulated = try reader.children(of: fields[2])
        guard encapsulated.count >= 2 else {
            throw reader.failure("the signature is detached: SignedData carries no content", at: fields[2].start)
        }
        try encapsulated[1].require(tag: 0xA0, "eContent must be [0] EXPLICIT")
        guard let octets = try reader.children(of: encapsulated[1]).first else {
            throw reader.failure("eContent [0] is empty", at: encapsulated[1].start)
        }
        var payload: [UInt8] = []
        try reader.appendOctets(of: octets, to: &payload, depth: 0)

        var certificates: [[UInt8]] = []
        if fields.count > 3, fields[3].tag == 0xA0 {
            for certificate in try reader.children(of: fields[3]) where certificate.tag == 0x30 {
                certificates.append(Array(bytes[certificate.start..<certificate.end]))
            }
        }
        return AASASignedEnvelope(payload: payload, certificates: certificates)
    }

    private static let signedDataOID = "1.2.840.113549.1.7.2"
}

/// A minimal bounds-checked BER/DER walker: definite and indefinite lengths, constructed OCTET STRINGs.
private struct BERReader {
    struct Element {
        var tag: UInt8
        /// Start of the whole TLV.
        var start: Int
        /// The content's range (for indefinite lengths, without the end-of-contents octets).
        var content: Range<Int>
        /// End of the whole TLV (after any end-of-contents octets).
        var end: Int

        var isConstructed: Bool { tag & 0x20 != 0 }

        func require(tag expected: UInt8, _ message: String) throws(AASAParseError) {
            guard tag == expected else {
                throw AASAParseError(
                    .malformedCMS,
                    "malformed CMS: \(message)",
                    at: .init(offset: start, line: 1, column: start + 1)
                )
            }
        }
    }

    let bytes: [UInt8]
    private let maximumDepth = 32
    private let maximumChildren = 10_000

    init(bytes: [UInt8]) { self.bytes = bytes }

    func failure(_ message: String, at offset: Int) -> AASAParseError {
        AASAParseError(
            .malformedCMS,
            "malformed CMS: \(message)",
            at: .init(offset: offset, line: 1, column: offset + 1)
        )
    }

    /// Reads one element that starts at `range.lowerBound` and must end within `range`.
    func element(in range: Range<Int>, depth: Int) throws(AASAParseError) -> Element {
        guard depth <= maximumDepth else {
            throw failure("nested deeper than \(maximumDepth) levels", at: range.lowerBound)
        }
        var cursor = range.lowerBound
        guard cursor < range.upperBound else { throw failure("truncated: expected an element", at: cursor) }
        let tag = bytes[cursor]
        guard tag & 0x1F != 0x1F else { throw failure("multi-byte tags are not used by CMS", at: cursor) }
        cursor += 1
        guard cursor < range.upperBound else { throw failure("truncated: missing length", at: cursor) }
        let first = bytes[cursor]
        cursor += 1
        if first < 0x80 {
            let end = cursor + Int(first)
            guard end <= range.upperBound else {
                throw failure("length \(first) runs past the end", at: range.lowerBound)
            }
            return Element(tag: tag, start: range.lowerBound, content: cursor..<end, end: end)
        }
        if first == 0x80 {
            guard tag & 0x20 != 0 else {
                throw failure("indefinite length on a primitive element", at: range.lowerBound)
            }
            // Indefinite: children until the end-of-contents octets 00 00.
            var child = cursor
            var count = 0
            while true {
                guard child + 1 < range.upperBound else { throw failure("missing end-of-contents", at: child) }
                if bytes[child] == 0, bytes[child + 1] == 0 {
                    return Element(tag: tag, start: range.lowerBound, content: cursor..<child, end: child + 2)
                }
                count += 1
                guard count <= maximumChildren else { throw failure("too many elements", at: child) }
                child = try element(in: child..<range.upperBound, depth: depth + 1).end
            }
        }
        let lengthBytes = Int(first & 0x7F)
        guard lengthBytes <= 4 else { throw failure("length field of \(lengthBytes) bytes", at: range.lowerBound) }
        guard cursor + lengthBytes <= range.upperBound else { throw failure("truncated length", at: cursor) }
        var length = 0
        for offset in 0..<lengthBytes { length = length << 8 | Int(bytes[cursor + offset]) }
        cursor += lengthBytes
        guard length <= range.upperBound - cursor else {
            throw failure("length \(length) runs past the end of the data", at: range.lowerBound)
        }
        return Element(tag: tag, start: range.lowerBound, content: cursor..<(cursor + length), end: cursor + length)
    }

    func children(of parent: Element, depth: Int = 1) throws(AASAParseError) -> [Element] {
        guard parent.isConstructed else { throw failure("expected a constructed element", at: parent.start) }
        var result: [Element] = []
        var cursor = parent.content.lowerBound
        while cursor < parent.content.upperBound {
            guard result.count < maximumChildren else { throw failure("too many elements", at: cursor) }
            let child = try element(in: cursor..<parent.content.upperBound, depth: depth)
            result.append(child)
            cursor = child.end
        }
        return result
    }

    func objectIdentifier(_ element: Element) throws(AASAParseError) -> String {
        guard element.tag == 0x06, !element.content.isEmpty, element.content.count <= 64 else {
            throw failure("expected an OBJECT IDENTIFIER", at: element.start)
        }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        for index in element.content {
            let byte = bytes[index]
            guard value < (1 << 56) else { throw failure("OBJECT IDENTIFIER arc too large", at: element.start) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                arcs.append(value)
                value = 0
            }
        }
        guard let first = arcs.first else { throw failure("empty OBJECT IDENTIFIER", at: element.start) }
        let head = first < 80 ? [first / 40, first % 40] : [2, first - 80]
        return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
    }

    /// Appends an OCTET STRING's bytes, joining the chunks of a constructed (BER) one.
    func appendOctets(of element: Element, to payload: inout [UInt8], depth: Int) throws(AASAParseError) {
        switch element.tag {
        case 0x04: payload.append(contentsOf: bytes[element.content])
        case 0x24:
            guard depth < maximumDepth else { throw failure("OCTET STRING nested too deeply", at: element.start) }
            for child in try children(of: element) {
                try appendOctets(of: child, to: &payload, depth: depth + 1)
            }
        default: throw failure("eContent is not an OCTET STRING", at: element.start)
        }
    }
}
