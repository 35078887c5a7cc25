internal import CPlist
import Foundation

/// Parses binary and XML property lists through libplist into ``PlistValue``.
///
/// libplist owns the grammar; this type owns the tree it returns (freed before returning), and caps the tree's size
/// before libplist builds it and its nesting before it is walked, so a hostile file can exhaust neither memory nor
/// the stack.
package enum PlistParser {
    /// The deepest nesting accepted; real plists rarely pass 10.
    package static let maximumDepth = 64

    /// The largest input accepted (libplist takes a 32-bit length).
    package static let maximumSize = 64 * 1024 * 1024

    /// The most nodes (values, keys and containers) a tree may have.
    ///
    /// Real Info.plists, profiles and entitlements
    /// have hundreds to a few thousand; this many cost about 15 MiB between libplist's tree and ours.
    package static let maximumNodes = 50_000

    /// Parses `bytes` as a binary or XML property list.
    ///
    /// - Throws: ``PlistError`` when the bytes are not a property list.
    package static func parse(_ bytes: some Collection<UInt8>) throws(PlistError) -> PlistValue {
        let buffer = Array(bytes)
        guard !buffer.isEmpty else { throw PlistError("empty file, not a property list") }
        guard buffer.count <= maximumSize, let length = UInt32(exactly: buffer.count) else {
            throw PlistError("\(buffer.count) bytes is larger than the \(maximumSize)-byte limit for a property list")
        }
        if buffer.starts(with: Array("bplist".utf8)) {
            switch BinaryPlistScreen.check(buffer, maximumNodes: maximumNodes, maximumDepth: maximumDepth) {
            case .readable:
                break
            case .keyWithNUL:
                throw PlistError("a dictionary key holds a NUL character, which libplist cannot read")
            case .overlappingDictionaries:
                throw PlistError("its dictionaries overlap (they claim more keys than the file has bytes)")
            case .tooManyNodes(let limit):
                throw PlistError("its references expand to more than \(limit) values")
            case .tooDeep(let limit):
                throw PlistError("property list nested deeper than \(limit) levels (or its references loop)")
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
            // Every node has one opening tag, so their count bounds the tree (the prolog and comments only add).
            guard openingTags(buffer) <= maximumNodes + 8 else {
                throw PlistError("it holds more than \(maximumNodes) values")
            }
        }
        // Strict memory safety: every pointer of this module is in this file. libplist reads the (non-empty) array,
        // lent for the call with its `length`; the tree it returns is ours, freed before returning, and every node
        // pointer below is borrowed from it and never leaves the conversion.
        guard let root = unsafe ipc_plist_parse(buffer, length) else {
            throw PlistError("malformed property list (libplist could not parse it)")
        }
        defer { unsafe plist_free(root) }
        return try unsafe convert(root, depth: 0)
    }

    private static func convert(_ node: plist_t, depth: Int) throws(PlistError) -> PlistValue {
        guard depth <= maximumDepth else {
            throw PlistError("property list nested deeper than \(maximumDepth) levels")
        }
        // The getters write into locals lent for the call.
        switch unsafe plist_get_node_type(node) {
        case PLIST_BOOLEAN:
            var value: UInt8 = 0
            unsafe plist_get_bool_val(node, &value)
            return .bool(value != 0)
        case PLIST_REAL:
            var value: Double = 0
            unsafe plist_get_real_val(node, &value)
            return .real(value)
        case PLIST_STRING, PLIST_KEY:
            return .string(unsafe stringValue(node))
        case PLIST_DATE:
            return .date(try unsafe date(node))
        case PLIST_DATA:
            var length: UInt64 = 0
            // The node's own bytes (`length` of them), copied at once.
            guard let pointer = unsafe plist_get_data_ptr(node, &length), let count = Int(exactly: length) else {
                return .data([])
            }
            return .data(unsafe Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: count)))
        case PLIST_ARRAY:
            return .array(try unsafe array(node, depth: depth))
        case PLIST_DICT:
            return .dictionary(try unsafe dictionary(node, depth: depth))
        case PLIST_UID:
            var value: UInt64 = 0
            unsafe plist_get_uid_val(node, &value)
            return .integer(Int64(truncatingIfNeeded: value))
        default:
            if unsafe ipc_plist_is_integer(node) != 0 {
                return .integer(unsafe ipc_plist_get_int(node))
            }
            throw PlistError("unsupported property-list node type")
        }
    }

    /// An array's elements, walked with libplist's iterator: `plist_array_get_item` walks a linked list from the
    /// start in libplist 2.2, which made reading a 1,000,000-element array take hours.
    private static func array(_ node: plist_t, depth: Int) throws(PlistError) -> [PlistValue] {
        var elements: [PlistValue] = []
        elements.reserveCapacity(Int(min(unsafe plist_array_get_size(node), 4096)))
        // The iterator is ours (freed here); each item is borrowed from the tree.
        var iterator: plist_array_iter? = nil
        unsafe plist_array_new_iter(node, &iterator)
        guard let iterator = unsafe iterator else { return elements }
        defer { unsafe free(iterator) }
        while true {
            var item: plist_t? = nil
            unsafe plist_array_next_item(node, iterator, &item)
            guard let item = unsafe item else { break }
            elements.append(try unsafe convert(item, depth: depth + 1))
        }
        return elements
    }

    /// How many `<` in `buffer` open an element (are not followed by `/`).
    private static func openingTags(_ buffer: [UInt8]) -> Int {
        var count = 0
        var previousWasOpen = false
        for byte in buffer {
            if previousWasOpen && byte != UInt8(ascii: "/") { count += 1 }
            previousWasOpen = byte == UInt8(ascii: "<")
        }
        return count
    }

    private static func dictionary(_ node: plist_t, depth: Int) throws(PlistError) -> [String: PlistValue] {
        var result: [String: PlistValue] = [:]
        // The iterator is ours (freed here), and so is each key libplist copies out (copied again, then freed); each
        // value is borrowed from the tree.
        var iterator: plist_dict_iter? = nil
        unsafe plist_dict_new_iter(node, &iterator)
        guard let iterator = unsafe iterator else { return result }
        defer { unsafe free(iterator) }
        while true {
            var key: UnsafeMutablePointer<CChar>? = nil
            var value: plist_t? = nil
            unsafe plist_dict_next_item(node, iterator, &key, &value)
            guard let key = unsafe key else { break }
            let name = unsafe String(cString: key)
            unsafe free(key)
            if let value = unsafe value {
                result[name] = try unsafe convert(value, depth: depth + 1)
            }
        }
        return result
    }

    /// A date node's value as the file says it, to the fraction of a second, for any year from 1 to 9999.
    ///
    /// libplist keeps each date as the float64 of seconds since 2001 that a binary plist holds (or that it computed
    /// from an XML `<date>`), but its getters lose it: `plist_get_date_val` (2.2) returns 32-bit seconds, so
    /// 2069-01-19 and later wrapped to 1932, and `plist_get_unix_date_val` exists only from 2.7. The node is
    /// therefore written out alone as a binary plist (`plist_to_bin`, the same in every version), and the float is
    /// read back from that document's date object (``BinaryPlistScreen/topDate(_:)``), checked like any other
    /// untrusted bytes.
    private static func date(_ node: plist_t) throws(PlistError) -> Date {
        var length: UInt32 = 0
        // The document (`length` bytes) is ours: copied, then freed.
        guard let buffer = unsafe ipc_plist_to_bin(node, &length) else {
            throw PlistError("libplist could not re-encode a date to read it")
        }
        defer { unsafe ipc_plist_mem_free(buffer) }
        guard let count = Int(exactly: length) else { throw PlistError("libplist re-encoded a date oddly") }
        let bytes = unsafe Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(buffer), count: count))
        guard let seconds = BinaryPlistScreen.topDate(bytes) else {
            throw PlistError("libplist re-encoded a date without a date object")
        }
        return try PlistDate.date(secondsSinceReferenceDate: seconds)
    }

    private static func stringValue(_ node: plist_t) -> String {
        var length: UInt64 = 0
        // The node's own `length` bytes, decoded (copied) at once.
        guard let pointer = unsafe plist_get_string_ptr(node, &length), let count = Int(exactly: length) else {
            return ""
        }
        return unsafe String(
            decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: count),
            as: UTF8.self
        )
    }
}
