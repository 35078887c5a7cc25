import Crypto

/// Builds code-signature blobs byte by byte for tests.
///
/// CodeDirectories with real hashes, SuperBlobs, DER entitlements in both encodings; independent of the parser
/// on purpose (no shared code).
package enum SuperBlobBuilder {
    /// A big-endian 32-bit integer.
    package static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    /// A big-endian 64-bit integer.
    package static func be64(_ value: UInt64) -> [UInt8] {
        be32(UInt32(value >> 32)) + be32(UInt32(value & 0xffff_ffff))
    }

    /// A generic blob: magic, length (header included), payload.
    package static func blob(magic: UInt32, payload: [UInt8]) -> [UInt8] {
        be32(magic) + be32(UInt32(payload.count + 8)) + payload
    }

    /// A digest by CodeDirectory hash type (1 SHA-1, 2 SHA-256, 3 SHA-256/20).
    package static func hash(_ type: UInt8, _ bytes: some Collection<UInt8>) -> [UInt8] {
        let data = Array(bytes)
        switch type {
        case 1: return Array(Insecure.SHA1.hash(data: data))
        case 3: return Array(Array(SHA256.hash(data: data)).prefix(20))
        default: return Array(SHA256.hash(data: data))
        }
    }

    /// A CodeDirectory of `version` (0x20100...0x20500) hashing `code` in 4 KiB pages.
    ///
    /// - Parameter specialHashes: slot number (1...7) → hash; slots up to the highest key are emitted, the others
    ///   zero.
    package static func codeDirectory(
        code: ArraySlice<UInt8>,
        identifier: String = "com.example.app",
        teamID: String? = "ABCDE12345",
        hashType: UInt8 = 2,
        version: UInt32 = 0x20400,
        flags: UInt32 = 0,
        pageSizeLog2: UInt8 = 12,
        specialHashes: [Int: [UInt8]] = [:]
    ) -> [UInt8] {
        let hashSize = hashType == 2 ? 32 : 20
        let pageSize = 1 << Int(pageSizeLog2)
        var pages: [[UInt8]] = []
        var start = code.startIndex
        while start < code.endIndex {
            let end = min(code.endIndex, start + pageSize)
            pages.append(hash(hashType, code[start..<end]))
            start = end
        }
        let specialCount = specialHashes.keys.max() ?? 0
        var fixed = 44
        if version >= 0x20100 { fixed += 4 }
        if version >= 0x20200 { fixed += 4 }
        if version >= 0x20300 { fixed += 12 }
        if version >= 0x20400 { fixed += 24 }
        if version >= 0x20500 { fixed += 8 }
        let identBytes = Array(identifier.utf8) + [0]
        let teamBytes: [UInt8] = teamID.map { Array($0.utf8) + [0] } ?? []
        let identOffset = fixed
        let teamOffset = teamID == nil ? 0 : identOffset + identBytes.count
        let hashOffset = identOffset + identBytes.count + teamBytes.count + specialCount * hashSize
        let length = hashOffset + pages.count * hashSize
        var out = be32(0xfade_0c02) + be32(UInt32(length)) + be32(version) + be32(flags)
        out += be32(UInt32(hashOffset)) + be32(UInt32(identOffset))
        out += be32(UInt32(specialCount)) + be32(UInt32(pages.count)) + be32(UInt32(code.count))
        out += [UInt8(hashSize), hashType, 0, pageSizeLog2] + be32(0)
        if version >= 0x20100 { out += be32(0) }
        if version >= 0x20200 { out += be32(UInt32(teamOffset)) }
        if version >= 0x20300 { out += be32(0) + be64(0) }
        if version >= 0x20400 { out += be64(0) + be64(UInt64(code.count)) + be64(1) }
        if version >= 0x20500 { out += be32(0x000e_0000) + be32(0) }
        out += identBytes + teamBytes
        if specialCount > 0 {
            for slot in stride(from: specialCount, through: 1, by: -1) {
                out += specialHashes[slot] ?? [UInt8](repeating: 0, count: hashSize)
            }
        }
        for page in pages { out += page }
        return out
    }

    /// A SuperBlob (`0xfade0cc0`) of `(slot, blob)` entries, laid out in the given order.
    package static func superBlob(_ entries: [(slot: UInt32, blob: [UInt8])]) -> [UInt8] {
        var offset = 12 + entries.count * 8
        var index: [UInt8] = []
        var body: [UInt8] = []
        for entry in entries {
            index += be32(entry.slot) + be32(UInt32(offset))
            body += entry.blob
            offset += entry.blob.count
        }
        return be32(0xfade_0cc0) + be32(UInt32(offset)) + be32(UInt32(entries.count)) + index + body
    }

    // MARK: DER

    /// A DER TLV with a short or long definite length.
    package static func der(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        if count < 0x80 { return [tag, UInt8(count)] + content }
        if count < 0x100 { return [tag, 0x81, UInt8(count)] + content }
        return [tag, 0x82, UInt8(count >> 8), UInt8(count & 0xff)] + content
    }

    /// A DER UTF8String.
    package static func derString(_ text: String) -> [UInt8] { der(0x0c, Array(text.utf8)) }

    /// A DER BOOLEAN (true is 0xff, as DER requires).
    package static func derBool(_ value: Bool) -> [UInt8] { der(0x01, [value ? 0xff : 0x00]) }

    /// A DER INTEGER for small non-negative or negative values.
    package static func derInteger(_ value: Int64) -> [UInt8] {
        var bytes = be64(UInt64(bitPattern: value))
        while bytes.count > 1, (bytes[0] == 0 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xff && bytes[1] & 0x80 != 0) {
            bytes.removeFirst()
        }
        return der(0x02, bytes)
    }

    /// A DER SEQUENCE (an array value).
    package static func derArray(_ elements: [[UInt8]]) -> [UInt8] { der(0x30, elements.flatMap { $0 }) }

    /// Dictionary entries `SEQUENCE { UTF8String key, value }`, in key order.
    package static func derEntries(_ entries: [(String, [UInt8])]) -> [UInt8] {
        entries.sorted { $0.0 < $1.0 }.flatMap { der(0x30, derString($0.0) + $0.1) }
    }

    /// A dictionary value in Apple's current encoding: `[CONTEXT 16]` (tag 0xb0).
    package static func derDictionary(_ entries: [(String, [UInt8])]) -> [UInt8] { der(0xb0, derEntries(entries)) }

    /// Encoding 1: `[APPLICATION 16] { INTEGER 1, dictionary }` (tag 0x70).
    package static func derEntitlementsApplication(_ entries: [(String, [UInt8])]) -> [UInt8] {
        der(0x70, derInteger(1) + derDictionary(entries))
    }

    /// Encoding 2: a bare DER `SET` (tag 0x31) of the entries.
    package static func derEntitlementsSet(_ entries: [(String, [UInt8])]) -> [UInt8] {
        der(0x31, derEntries(entries))
    }
}
