import IPACheckPlist
import Testing

/// Dictionary keys holding a NUL character in binary plists.
///
/// libplist 2.2 (Debian 12) aborts the process on them (`assert(length == strlen(*val))` in `plist_get_key_val`),
/// so a hostile Info.plist or entitlements blob killed ipacheck. Found by the Plist fuzz harness (Fuzz/Plist) from
/// a corpus Info.plist with one byte changed; these are the smallest files that reach the same assertion.
struct BinaryPlistKeyTests {
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
}
