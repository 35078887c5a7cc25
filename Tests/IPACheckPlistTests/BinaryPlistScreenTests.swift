import IPACheckPlist
import Testing

/// Binary plists libplist 2.2 (Debian 12) does not survive, refused before it reads them.
///
/// Dictionary keys holding a NUL character abort the process (`assert(length == strlen(*val))` in
/// `plist_get_key_val`), so a hostile Info.plist or entitlements blob killed ipacheck. Found by the Plist fuzz
/// harness (Fuzz/Plist) from a corpus Info.plist with one byte changed; these are the smallest files that reach the
/// same assertion. References that expand to a huge tree (found trying a 317-byte Info.plist by hand: 4 GB, 9 s)
/// are refused by counting the tree from the references.
struct BinaryPlistScreenTests {
    /// `{"a\0b": true}` as bplist00: a dict (object 0) whose key (object 1) is the ASCII string `a\0b`.
    static let asciiKeyWithNUL: [UInt8] =
        Array("bplist00".utf8) + [
            0xD1, 0x01, 0x02,  // object 0 at 8: dict, 1 entry, key ref 1, value ref 2
            0x53, 0x61, 0x00, 0x62,  // object 1 at 11: ASCII string of 3, "a\0b"
            0x09,  // object 2 at 15: true
            0x08, 0x0B, 0x0F,  // offset table at 16
        ] + trailer(objects: 3, offsetTable: 16)

    /// The same with the key in UTF-16 (`0x6N` strings), which libplist converts to UTF-8 NUL included.
    static let utf16KeyWithNUL: [UInt8] =
        Array("bplist00".utf8) + [
            0xD1, 0x01, 0x02,  // object 0 at 8
            0x62, 0x00, 0x61, 0x00, 0x00,  // object 1 at 11: UTF-16 string of 2, "a\0"
            0x09,  // object 2 at 16
            0x08, 0x0B, 0x10,  // offset table at 17
        ] + trailer(objects: 3, offsetTable: 17)

    /// A 32-byte bplist00 trailer with 1-byte offsets and references, the top object 0.
    static func trailer(objects: UInt8, offsetTable: UInt8) -> [UInt8] {
        [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, objects] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, offsetTable]
    }

    @Test(arguments: [asciiKeyWithNUL, utf16KeyWithNUL])
    func refusesAKeyWithANULInsteadOfAborting(bytes: [UInt8]) {
        #expect {
            try PlistParser.parse(bytes)
        } throws: { error in
            (error as? PlistError)?.reason.contains("NUL") == true
        }
    }

    /// Ten offset-table entries naming one 14-entry dictionary: 140 claimed keys in a 79-byte file.
    @Test func refusesDictionariesThatClaimMoreKeysThanTheFileHasBytes() {
        let dictionary: [UInt8] = [0xDE] + [UInt8](repeating: 0x01, count: 28)
        let bytes =
            Array("bplist00".utf8) + dictionary + [UInt8](repeating: 0x08, count: 10)
            + Self.trailer(objects: 10, offsetTable: UInt8(8 + dictionary.count))
        #expect {
            try PlistParser.parse(bytes)
        } throws: { error in
            (error as? PlistError)?.reason.contains("overlap") == true
        }
    }

    @Test func readsTheSameKeyWithoutTheNUL() throws {
        var bytes = Self.asciiKeyWithNUL
        bytes[13] = UInt8(ascii: "-")
        #expect(try PlistParser.parse(bytes) == .dictionary(["a-b": .bool(true)]))
    }

    /// A bplist00 of `objects` with 1-byte offsets and references, each object given as its bytes, object 0 on top.
    static func bplist(_ objects: [[UInt8]]) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = UInt8(bytes.count)
        return bytes + offsets + trailer(objects: UInt8(objects.count), offsetTable: table)
    }

    /// Object `level` is an array holding object `level + 1` twice; the last is `true`: 2^levels leaves.
    static func doublingArrays(levels: Int) -> [UInt8] {
        let arrays = (0..<levels).map { level in [0xA2, UInt8(level + 1), UInt8(level + 1)] }
        return bplist(arrays + [[0x09]])
    }

    @Test func refusesReferencesThatExpandToAHugeTree() {
        // 40 levels: 2^41 - 1 nodes in libplist's tree, from 169 bytes.
        #expect {
            try PlistParser.parse(Self.doublingArrays(levels: 40))
        } throws: { error in
            (error as? PlistError)?.reason == "its references expand to more than 50000 values"
        }
    }

    @Test func readsSharedReferencesThatStayUnderTheCap() throws {
        // 2^14 leaves: 32,767 nodes, read in full (each shared object counted once per reference, as libplist
        // copies it).
        let value = try PlistParser.parse(Self.doublingArrays(levels: 14))
        var leaves = 0
        var pending = [value]
        while let next = pending.popLast() {
            if case .array(let elements) = next { pending += elements } else { leaves += 1 }
        }
        #expect(leaves == 1 << 14)
    }

    @Test func refusesReferencesThatLoop() {
        // Object 0 is an array holding itself.
        #expect {
            try PlistParser.parse(Self.bplist([[0xA1, 0x00]]))
        } throws: { error in
            (error as? PlistError)?.reason.contains("nested deeper than 64 levels") == true
        }
    }
}
