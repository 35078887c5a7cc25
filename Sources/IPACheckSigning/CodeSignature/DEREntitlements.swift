import IPACheckCMS
package import IPACheckPlist
import SwiftASN1

/// Decodes the DER entitlements blob (`0xfade7172` payload) into a ``PlistValue`` dictionary.
///
/// Two encodings exist in signed apps, and both are read:
///
/// ```
/// -- 1. What current Apple tools write:
/// Entitlements ::= [APPLICATION 16] SEQUENCE { version INTEGER (1), value Value }
/// -- 2. Found in Xcode-signed apps (corpus: appinfo_embedded.ipa_Demo_exec):
/// Entitlements ::= SET OF Entry
///
/// Value ::= CHOICE { BOOLEAN, INTEGER, UTF8String, SEQUENCE OF Value,  -- array
///                    [CONTEXT 16] SET OF Entry,                      -- dictionary (tag 0xb0)
///                    SET OF Entry }                                  -- dictionary, encoding 2
/// Entry ::= SEQUENCE { key UTF8String, value Value }
/// ```
package enum DEREntitlements {
    /// The deepest nesting accepted (real entitlements rarely pass 4 levels).
    package static let maximumDepth = 32

    private static let applicationTag = ASN1Identifier(tagWithNumber: 16, tagClass: .application)
    private static let dictionaryTag = ASN1Identifier(tagWithNumber: 16, tagClass: .contextSpecific)

    /// Decodes DER entitlements in either encoding.
    ///
    /// - Throws: ``CodeSignatureError`` when the bytes are not DER, use a value type entitlements cannot
    ///   hold, repeat a key, or nest deeper than ``maximumDepth``.
    package static func decode(_ bytes: some Collection<UInt8>) throws(CodeSignatureError) -> PlistValue {
        let root: ASN1Node
        do {
            root = try DER.parse(Array(bytes))
        } catch {
            throw CodeSignatureError("DER entitlements", ASN1Reading.describe(error))
        }
        if root.identifier == applicationTag {
            guard case .constructed(let children) = root.content else {
                throw CodeSignatureError("DER entitlements", "[APPLICATION 16] is not constructed")
            }
            let items = Array(children)
            guard items.count == 2, items[0].identifier == .integer, case .primitive(let version) = items[0].content,
                Array(version) == [1]
            else {
                throw CodeSignatureError("DER entitlements", "[APPLICATION 16] must hold INTEGER 1 and one value")
            }
            return try value(items[1], depth: 1)
        }
        if root.identifier == .set {
            return try value(root, depth: 1)
        }
        throw CodeSignatureError("DER entitlements", "unexpected outer tag \(root.identifier)")
    }

    private static func value(_ node: ASN1Node, depth: Int) throws(CodeSignatureError) -> PlistValue {
        guard depth <= maximumDepth else {
            throw CodeSignatureError("DER entitlements", "nested deeper than \(maximumDepth) levels")
        }
        switch (node.identifier, node.content) {
        case (.boolean, .primitive(let content)):
            guard content.count == 1, let byte = content.first else {
                throw CodeSignatureError("DER entitlements", "BOOLEAN of \(content.count) bytes")
            }
            return .bool(byte != 0)
        case (.integer, .primitive(let content)):
            return try integer(content)
        case (.utf8String, .primitive(let content)):
            guard let text = String(validating: content, as: UTF8.self) else {
                throw CodeSignatureError("DER entitlements", "UTF8String is not valid UTF-8")
            }
            return .string(text)
        case (.sequence, .constructed(let children)):
            var elements: [PlistValue] = []
            for child in children { elements.append(try value(child, depth: depth + 1)) }
            return .array(elements)
        case (.set, .constructed(let children)), (dictionaryTag, .constructed(let children)):
            return .dictionary(try dictionary(children, depth: depth))
        default:
            throw CodeSignatureError("DER entitlements", "unsupported value with tag \(node.identifier)")
        }
    }

    private static func dictionary(
        _ children: ASN1NodeCollection,
        depth: Int
    ) throws(CodeSignatureError)
        -> [String: PlistValue]
    {
        var result: [String: PlistValue] = [:]
        for entry in children {
            guard entry.identifier == .sequence, case .constructed(let pair) = entry.content else {
                throw CodeSignatureError("DER entitlements", "dictionary entry is not a SEQUENCE")
            }
            let parts = Array(pair)
            guard parts.count == 2, parts[0].identifier == .utf8String,
                case .primitive(let keyBytes) = parts[0].content,
                let key = String(validating: keyBytes, as: UTF8.self)
            else {
                throw CodeSignatureError("DER entitlements", "dictionary entry is not SEQUENCE { UTF8String, value }")
            }
            guard result[key] == nil else {
                throw CodeSignatureError("DER entitlements", "key \"\(key)\" appears twice")
            }
            result[key] = try value(parts[1], depth: depth + 1)
        }
        return result
    }

    private static func integer(_ content: ArraySlice<UInt8>) throws(CodeSignatureError) -> PlistValue {
        guard let first = content.first else {
            throw CodeSignatureError("DER entitlements", "INTEGER has no content")
        }
        // Nine bytes with a leading zero: an unsigned value above Int64.max (plists hold up to UInt64.max).
        if content.count == 9, first == 0 {
            var result: UInt64 = 0
            for byte in content.dropFirst() { result = (result << 8) | UInt64(byte) }
            return Int64(exactly: result).map(PlistValue.integer) ?? .unsignedInteger(result)
        }
        guard content.count <= 8 else {
            throw CodeSignatureError("DER entitlements", "INTEGER of \(content.count) bytes does not fit 64 bits")
        }
        // Two's complement, big-endian: start from the sign and shift each byte in (at most 8, so no overflow).
        var result: Int64 = first & 0x80 != 0 ? -1 : 0
        for byte in content { result = (result << 8) | Int64(byte) }
        return .integer(result)
    }
}
