import Foundation
import IPACheckBinary

/// Where a zip's central directory is, read from its end records: how many members it declares (checked against
/// the member cap before anything is kept for them) and where it lies, and why a zip cut short cannot be opened.
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

    /// Whether the file at `path` ends with an end-of-central-directory record.
    static func hasEndRecord(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return endRecord(handle: handle) != nil
    }

    /// Every place the file's end says its central directory may be, earliest first.
    ///
    /// One for each end record signature in the last 64 KiB whose comment fits the file (an archive comment may
    /// hold another archive's record, so libzip tries each, as the opener does). Each gives where the directory
    /// lies and how many members it lists — from the zip64 end record when a zip64 locator precedes the record, as
    /// libzip reads it — and where the end record starts.
    ///
    /// - Throws: ``ArchiveError`` `notAZip` when the file holds no end record, or is one piece of a split archive.
    static func centralDirectories(
        handle: FileHandle
    ) throws(ArchiveError) -> [(location: ZipCentralDirectory.Location, endRecordOffset: UInt64)] {
        guard let size = try? handle.seekToEnd(), size >= 22 else {
            throw ArchiveError(.notAZip, reason: "not a zip archive")
        }
        let tailLength = min(size, UInt64(maximumTail))
        guard (try? handle.seek(toOffset: size - tailLength)) != nil,
            let tailData = try? handle.read(upToCount: Int(tailLength))
        else { throw ArchiveError(.notAZip, reason: "not a zip archive") }
        let tail = [UInt8](tailData)
        let tailStart = size - tailLength
        var found: [(location: ZipCentralDirectory.Location, endRecordOffset: UInt64)] = []
        var refusal: ArchiveError?
        for recordOffset in records(in: tail) {
            switch directory(handle: handle, tail: tail, tailStart: tailStart, recordOffset: recordOffset) {
            case .location(let location): found.append((location, tailStart + UInt64(recordOffset)))
            case .refused(let error): refusal = refusal ?? error
            case nil: continue
            }
        }
        guard !found.isEmpty else { throw refusal ?? ArchiveError(.notAZip, reason: "not a zip archive") }
        return found
    }

    /// What one end record says.
    private enum Reading {
        /// Where its directory is.
        case location(ZipCentralDirectory.Location)
        /// Why it names no directory of this file (a piece of a split archive, counts that disagree).
        case refused(ArchiveError)
    }

    /// What the end record at `recordOffset` of `tail` declares; nil when it cannot be read.
    private static func directory(
        handle: FileHandle,
        tail: [UInt8],
        tailStart: UInt64,
        recordOffset: Int
    ) -> Reading? {
        var reader = ByteReader(tail)
        guard (try? reader.seek(to: recordOffset + 4, field: "disk numbers")) != nil,
            let disk = try? reader.readUInt16("disk", bigEndian: false),
            let directoryDisk = try? reader.readUInt16("directory disk", bigEndian: false),
            let countOnDisk = try? reader.readUInt16("entries on this disk", bigEndian: false),
            let count = try? reader.readUInt16("total entries", bigEndian: false),
            let directorySize = try? reader.readUInt32("directory size", bigEndian: false),
            let directoryOffset = try? reader.readUInt32("directory offset", bigEndian: false)
        else { return nil }
        if let record = zip64EndRecord(handle: handle, tail: tail, tailStart: tailStart, at: recordOffset) {
            var zip64 = ByteReader(record)
            guard (try? zip64.seek(to: 16, field: "zip64 disk numbers")) != nil,
                let disk64 = try? zip64.readUInt32("zip64 disk", bigEndian: false),
                let directoryDisk64 = try? zip64.readUInt32("zip64 directory disk", bigEndian: false),
                let countOnDisk64 = try? zip64.readUInt64("zip64 entries on this disk", bigEndian: false),
                let total = try? zip64.readUInt64("zip64 total entries", bigEndian: false),
                let directorySize64 = try? zip64.readUInt64("zip64 directory size", bigEndian: false),
                let directoryOffset64 = try? zip64.readUInt64("zip64 directory offset", bigEndian: false)
            else { return nil }
            guard disk64 == 0, directoryDisk64 == 0 else { return .refused(splitArchive) }
            guard countOnDisk64 == total else { return .refused(countsDisagree(countOnDisk64, total)) }
            return .location(
                ZipCentralDirectory.Location(offset: directoryOffset64, size: directorySize64, count: total)
            )
        }
        guard disk == 0, directoryDisk == 0 else { return .refused(splitArchive) }
        guard countOnDisk == count else { return .refused(countsDisagree(UInt64(countOnDisk), UInt64(count))) }
        return .location(
            ZipCentralDirectory.Location(
                offset: UInt64(directoryOffset),
                size: UInt64(directorySize),
                count: UInt64(count)
            )
        )
    }

    /// A one-file archive's end record counts its members twice, on this disk and in all: two counts that differ
    /// are damage.
    private static func countsDisagree(_ onDisk: UInt64, _ total: UInt64) -> ArchiveError {
        ArchiveError(
            .inconsistent,
            reason: "damaged zip archive: its end record counts \(onDisk) member\(onDisk == 1 ? "" : "s") on this "
                + "disk but \(total) in all"
        )
    }

    private static let splitArchive = ArchiveError(
        .notAZip,
        reason: "a multi-disk (split) zip archive: an ipa is one file, and iOS installs nothing else"
    )

    /// The file's last bytes (the end record and the longest comment it may have), where they start, and where the
    /// end record starts in them; nil when the file holds no end record.
    private static func endRecord(handle: FileHandle) -> (tail: [UInt8], tailStart: UInt64, recordOffset: Int)? {
        guard let size = try? handle.seekToEnd(), size >= 22 else { return nil }
        let tailLength = min(size, UInt64(maximumTail))
        guard (try? handle.seek(toOffset: size - tailLength)) != nil,
            let tail = try? handle.read(upToCount: Int(tailLength))
        else { return nil }
        let bytes = [UInt8](tail)
        guard let recordOffset = lastRecord(in: bytes) else { return nil }
        return (bytes, size - tailLength, recordOffset)
    }

    /// Why a file that starts as a zip cannot be opened, when the reason is that its end is missing.
    ///
    /// The end-of-central-directory record is gone while a local file header starts the file, or the record
    /// declares a central directory that runs past what the file holds. `nil` when the file is not cut short.
    ///
    /// The answer says how long the file is and where it ends (`inside member Payload/A.app/A, after 10 of its
    /// 500 compressed bytes`), so a person knows the copy, not the tool, is at fault.
    static func truncation(path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 4,
            (try? handle.seek(toOffset: 0)) != nil,
            let head = try? handle.read(upToCount: 4), [UInt8](head) == [0x50, 0x4B, 0x03, 0x04]
        else { return nil }
        let tailLength = min(size, UInt64(maximumTail))
        guard (try? handle.seek(toOffset: size - tailLength)) != nil,
            let tailData = try? handle.read(upToCount: Int(tailLength))
        else { return nil }
        let tail = [UInt8](tailData)
        guard let recordOffset = lastRecord(in: tail) else {
            return truncated(size: size, where: endOfLocalData(handle: handle, size: size))
        }
        // The record survived: the directory it declares must lie before it.
        var reader = ByteReader(tail)
        guard (try? reader.seek(to: recordOffset + 12, field: "directory size")) != nil,
            let directorySize = try? reader.readUInt32("directory size", bigEndian: false),
            let directoryOffset = try? reader.readUInt32("directory offset", bigEndian: false),
            directorySize != 0xFFFF_FFFF, directoryOffset != 0xFFFF_FFFF
        else { return nil }
        let recordPosition = size - tailLength + UInt64(recordOffset)
        let directoryEnd = UInt64(directoryOffset) + UInt64(directorySize)
        guard directoryEnd > recordPosition else { return nil }
        if UInt64(directoryOffset) >= size {
            return truncated(
                size: size,
                where: "its central directory should start at byte \(directoryOffset), past its end"
            )
        }
        return truncated(
            size: size,
            where: "\(directoryEnd - recordPosition) bytes are missing: its central directory should run from byte "
                + "\(directoryOffset) to byte \(directoryEnd), but its end record starts at byte \(recordPosition)"
        )
    }

    private static func truncated(size: UInt64, where ending: String) -> String {
        "the archive is truncated (\(size) bytes; \(ending)) — download or copy it again"
    }

    /// Where a file with no end record stops, found by walking its local file headers from the start:
    /// `30 bytes "PK\3\4" … compressed size (4, at 18), name length (2, at 26), extra length (2, at 28)`.
    private static func endOfLocalData(handle: FileHandle, size: UInt64) -> String {
        let unknown = "it ends before its central directory"
        var position: UInt64 = 0
        var members = 0
        while members < 1_000_000 {
            guard position < size else {
                return members == 0
                    ? unknown : "it ends after the data of its \(members) members, before its central directory"
            }
            guard (try? handle.seek(toOffset: position)) != nil,
                let headerData = try? handle.read(upToCount: 30)
            else { return unknown }
            let header = [UInt8](headerData)
            guard header.count >= 4 else { return "it ends inside the header of member \(members + 1)" }
            if header.prefix(4).elementsEqual([0x50, 0x4B, 0x01, 0x02]) {
                return "it ends inside its central directory, after the data of its \(members) members"
            }
            guard header.prefix(4).elementsEqual([0x50, 0x4B, 0x03, 0x04]) else { return unknown }
            guard header.count == 30 else { return "it ends inside the header of member \(members + 1)" }
            var reader = ByteReader(header)
            guard (try? reader.seek(to: 6, field: "flags")) != nil,
                let flags = try? reader.readUInt32("flags", bigEndian: false) & 0xFFFF,
                (try? reader.seek(to: 18, field: "compressed size")) != nil,
                let compressed = try? reader.readUInt32("compressed size", bigEndian: false),
                (try? reader.seek(to: 26, field: "name length")) != nil,
                let lengths = try? reader.readUInt32("name and extra lengths", bigEndian: false)
            else { return unknown }
            let nameLength = UInt64(lengths & 0xFFFF)
            let extraLength = UInt64(lengths >> 16)
            let nameData = (try? handle.read(upToCount: Int(nameLength))) ?? Data()
            let name = String(decoding: nameData, as: UTF8.self)
            let dataStart = position + 30 + nameLength + extraLength
            guard dataStart <= size else { return "it ends inside the header of member \(name)" }
            // A size of 0 with a data descriptor (flag bit 3) is written after the data: it cannot be skipped.
            let streamed = flags & 0x08 != 0
            guard !(streamed && compressed == 0), compressed != 0xFFFF_FFFF else {
                return "it ends at or after member \(name), before its central directory"
            }
            let dataEnd = dataStart + UInt64(compressed)
            guard dataEnd <= size else {
                return "it ends inside member \(name), after \(size - dataStart) of its \(compressed) compressed bytes"
            }
            position = dataEnd
            if streamed {
                // The data descriptor: an optional signature, then CRC and two sizes (4 bytes each).
                guard (try? handle.seek(toOffset: position)) != nil,
                    let signature = try? handle.read(upToCount: 4)
                else { return unknown }
                position += [UInt8](signature) == [0x50, 0x4B, 0x07, 0x08] ? 16 : 12
            }
            members += 1
        }
        return unknown
    }

    /// The offsets in `tail` of every end-of-central-directory signature whose comment length fits the tail,
    /// earliest first.
    private static func records(in tail: [UInt8]) -> [Int] {
        guard tail.count >= 22 else { return [] }
        return (0...(tail.count - 22)).filter { offset in
            tail[offset] == 0x50 && tail[offset + 1] == 0x4B && tail[offset + 2] == 0x05 && tail[offset + 3] == 0x06
                && offset + 22 + (Int(tail[offset + 20]) | Int(tail[offset + 21]) << 8) <= tail.count
        }
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

    /// The zip64 end record's first 56 bytes, found through the locator just before the end record.
    private static func zip64EndRecord(
        handle: FileHandle,
        tail: [UInt8],
        tailStart: UInt64,
        at recordOffset: Int
    ) -> [UInt8]? {
        var locator = ByteReader(tail)
        guard recordOffset >= 20, (try? locator.seek(to: recordOffset - 20, field: "zip64 locator")) != nil,
            (try? locator.readUInt32("zip64 locator signature", bigEndian: false)) == 0x0706_4B50,
            (try? locator.skip(4, field: "directory-end disk")) != nil,
            let endOffset = try? locator.readUInt64("zip64 end offset", bigEndian: false),
            endOffset < tailStart + UInt64(recordOffset),
            (try? handle.seek(toOffset: endOffset)) != nil,
            let record = try? handle.read(upToCount: 56),
            record.count == 56
        else { return nil }
        let bytes = [UInt8](record)
        var reader = ByteReader(bytes)
        guard (try? reader.readUInt32("zip64 end signature", bigEndian: false)) == 0x0606_4B50 else { return nil }
        return bytes
    }
}
