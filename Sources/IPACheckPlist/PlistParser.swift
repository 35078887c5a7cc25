internal import CPlist
import Foundation

/// Parses binary and XML property lists through libplist into ``PlistValue``.
///
/// libplist owns the grammar; this type owns the tree it returns (freed before returning) and caps nesting so a
/// hostile file cannot exhaust the stack.
public enum PlistParser {
    /// The deepest nesting accepted; real plists rarely pass 10.
    public static let maximumDepth = 64

    /// The largest input accepted (libplist takes a 32-bit length).
    public static let maximumSize = 64 * 1024 * 1024

    /// Parses `bytes` as a binary or XML property list.
    ///
    /// - Throws: ``PlistError`` when the bytes are not a property list.
    public static func parse(_ bytes: some Collection<UInt8>) throws(PlistError) -> PlistValue {
        let buffer = Array(bytes)
        guard !buffer.isEmpty else { throw PlistError("empty file, not a property list") }
        guard buffer.count <= maximumSize, let length = UInt32(exactly: buffer.count) else {
            throw PlistError("\(buffer.count) bytes is larger than the \(maximumSize)-byte limit for a property list")
        }
        if buffer.starts(with: Array("bplist".utf8)) {
            switch BinaryPlistKeys.check(buffer) {
            case .readable:
                break
            case .keyWithNUL:
                throw PlistError("a dictionary key holds a NUL character, which libplist cannot read")
            case .overlappingDictionaries:
                throw PlistError("its dictionaries overlap (they claim more keys than the file has bytes)")
            }
        } else {
            // libplist 2.2 has no error reporting for XML; refuse what is plainly not XML so the message is useful.
            let head = buffer.drop(while: {
                $0 == 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d || $0 == 0xef
                    || $0 == 0xbb || $0 == 0xbf
            })
            guard head.first == UInt8(ascii: "<") else {
                throw PlistError("neither a binary plist (bplist) nor an XML document")
            }
        }
        let root: plist_t? = buffer.withUnsafeBufferPointer { pointer -> plist_t? in
            guard let base = pointer.baseAddress else { return nil }
            return base.withMemoryRebound(to: CChar.self, capacity: pointer.count) { chars in
                ipc_plist_parse(chars, length)
            }
        }
        guard let root else {
            throw PlistError("malformed property list (libplist could not parse it)")
        }
        defer { plist_free(root) }
        return try convert(root, depth: 0)
    }

    private static func convert(_ node: plist_t, depth: Int) throws(PlistError) -> PlistValue {
        guard depth <= maximumDepth else {
            throw PlistError("property list nested deeper than \(maximumDepth) levels")
        }
        switch plist_get_node_type(node) {
        case PLIST_BOOLEAN:
            var value: UInt8 = 0
            plist_get_bool_val(node, &value)
            return .bool(value != 0)
        case PLIST_REAL:
            var value: Double = 0
            plist_get_real_val(node, &value)
            return .real(value)
        case PLIST_STRING, PLIST_KEY:
            return .string(stringValue(node))
        case PLIST_DATE:
            var seconds: Int32 = 0
            var microseconds: Int32 = 0
            plist_get_date_val(node, &seconds, &microseconds)
            let interval = TimeInterval(seconds) + TimeInterval(microseconds) / 1_000_000
            return .date(Date(timeIntervalSinceReferenceDate: interval))
        case PLIST_DATA:
            var length: UInt64 = 0
            guard let pointer = plist_get_data_ptr(node, &length), let count = Int(exactly: length) else {
                return .data([])
            }
            let raw = UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: count)
            return .data(Array(raw))
        case PLIST_ARRAY:
            var elements: [PlistValue] = []
            let size = plist_array_get_size(node)
            elements.reserveCapacity(Int(min(size, 4096)))
            var index: UInt32 = 0
            while index < size {
                if let item = plist_array_get_item(node, index) {
                    elements.append(try convert(item, depth: depth + 1))
                }
                index += 1
            }
            return .array(elements)
        case PLIST_DICT:
            return .dictionary(try dictionary(node, depth: depth))
        case PLIST_UID:
            var value: UInt64 = 0
            plist_get_uid_val(node, &value)
            return .integer(Int64(truncatingIfNeeded: value))
        default:
            if ipc_plist_is_integer(node) != 0 {
                return .integer(ipc_plist_get_int(node))
            }
            throw PlistError("unsupported property-list node type")
        }
    }

    private static func dictionary(_ node: plist_t, depth: Int) throws(PlistError) -> [String: PlistValue] {
        var result: [String: PlistValue] = [:]
        var iterator: plist_dict_iter? = nil
        plist_dict_new_iter(node, &iterator)
        guard let iterator else { return result }
        defer { free(iterator) }
        while true {
            var key: UnsafeMutablePointer<CChar>? = nil
            var value: plist_t? = nil
            plist_dict_next_item(node, iterator, &key, &value)
            guard let key else { break }
            let name = String(cString: key)
            free(key)
            if let value {
                result[name] = try convert(value, depth: depth + 1)
            }
        }
        return result
    }

    private static func stringValue(_ node: plist_t) -> String {
        var length: UInt64 = 0
        guard let pointer = plist_get_string_ptr(node, &length), let count = Int(exactly: length) else { return "" }
        let raw = UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: count)
        return String(decoding: raw, as: UTF8.self)
    }
}
