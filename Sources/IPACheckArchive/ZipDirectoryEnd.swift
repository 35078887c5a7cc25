import Foundation
import IPACheckBinary

/// The number of members a zip declares, read from its end-of-central-directory record before libzip is asked to
/// open it.
///
/// libzip reads the whole central directory into memory on open (about 340 bytes a member), so the member cap has
/// to be checked before that, from the record libzip itself trusts for the count:
///
/// ```
/// end of central directory (22 bytes + comment ≤ 65,535, the last record of the file), little-endian:
///   "PK\5\6", disk (2), directory disk (2), entries on this disk (2), total entries (2), directory size (4),
///   directory offset (4), comment length (2)
/// zip64 locator (20 bytes, just before it when a count or offset does not fit):
///   "PK\6\7", directory-end disk (4), zip64 end record offset (8), disks (4)
/// zip64 end of central directory (56 bytes or more at that offset):
///   "PK\6\6", record size (8), versions (2 + 2), disks (4 + 4), entries on this disk (8), total entries (8), …
/// ```
enum ZipDirectoryEnd {
    /// The longest tail that can hold the record: the record and the longest comment.
    static let maximumTail = 22 + 65_535

    /// The total member count the archive at `path` declares, or nil when no record is found (libzip then reports
    /// what is wrong with the file).
    static func declaredEntryCount(path: String) -> UInt64? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 22 else { return nil }
        let tailLength = min(size, UInt64(maximumTail))
        guard (try? handle.seek(toOffset: size - tailLength)) != nil,
            let tail = try? handle.read(upToCount: Int(tailLength))
        else { return nil }
        let bytes = [UInt8](tail)
        guard let recordOffset = lastRecord(in: bytes) else { return nil }
        var reader = ByteReader(bytes)
        guard (try? reader.seek(to: recordOffset + 10, field: "total entries")) != nil,
            let total = try? reader.readUInt32("total entries", bigEndian: false) & 0xFFFF
        else { return nil }
        // 0xFFFF means "see the zip64 record"; libzip then takes the count from there.
        guard total == 0xFFFF else { return UInt64(total) }
        return zip64EntryCount(handle: handle, tail: bytes, tailStart: size - tailLength, recordOffset: recordOffset)
            ?? UInt64(total)
    }

    /// The offset in `tail` of the last end-of-central-directory signature whose comment length fits the tail.
    private static func lastRecord(in tail: [UInt8]) -> Int? {
        guard tail.count >= 22 else { return nil }
        var offset = tail.count - 22
        while offset >= 0 {
            if tail[offset] == 0x50, tail[offset + 1] == 0x4B, tail[offset + 2] == 0x05, tail[offset + 3] == 0x06 {
                let commentLength = Int(tail[offset + 20]) | Int(tail[offset + 21]) << 8
                if offset + 22 + commentLength <= tail.count { return offset }
            }
            offset -= 1
        }
        return nil
    }

    private static func zip64EntryCount(
        handle: FileHandle,
        tail: [UInt8],
        tailStart: UInt64,
        recordOffset: Int
    ) -> UInt64? {
        var locator = ByteReader(tail)
        guard recordOffset >= 20, (try? locator.seek(to: recordOffset - 20, field: "zip64 locator")) != nil,
            (try? locator.readUInt32("zip64 locator signature", bigEndian: false)) == 0x0706_4B50,
            (try? locator.skip(4, field: "directory-end disk")) != nil,
            let endOffset = try? locator.readUInt64("zip64 end offset", bigEndian: false),
            endOffset < tailStart + UInt64(recordOffset),
            (try? handle.seek(toOffset: endOffset)) != nil,
            let record = try? handle.read(upToCount: 56)
        else { return nil }
        var reader = ByteReader([UInt8](record))
        guard (try? reader.readUInt32("total entries", bigEndian: false)) == 0x0606_4B50,
            (try? reader.seek(to: 32, field: "zip64 total entries")) != nil
        else { return nil }
        return try? reader.readUInt64("zip64 total entries", bigEndian: false)
    }
}
