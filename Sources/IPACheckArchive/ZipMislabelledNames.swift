import Foundation
import IPACheckBinary

/// Members whose general-purpose bit 11 says "this name is UTF-8" over name bytes that are not UTF-8.
///
/// libzip refuses the whole archive then ("Zip archive inconsistent"), while Info-ZIP's `unzip -t` and Python's
/// zipfile read the name's bytes as they are. What iOS's installer does with such a name no Apple document says;
/// ipacheck reads the archive through a view of the file with that bit cleared for exactly those members (in the
/// central directory and in their local headers), so libzip takes the bytes as a legacy name, as for any other
/// member without the bit, and each such member is reported (ARC006), never the archive as damaged.
///
/// ```
/// central directory header (46 bytes + name + extra + comment), little-endian:
///   "PK\1\2", versions (2 + 2), flags (2, at 8), method (2), time (2), date (2), CRC (4), sizes (4 + 4),
///   name length (2, at 28), extra length (2, at 30), comment length (2, at 32), disk (2), attributes (2 + 4),
///   local header offset (4, at 42; 0xFFFFFFFF: in the zip64 extra field, id 1)
/// local file header: "PK\3\4", version (2), flags (2, at 6), …
/// ```
enum ZipMislabelledNames {
    /// One member to read as a legacy name: its index in the central directory, and the file offsets of the byte
    /// holding bit 11 (the high byte of each flags field) in its central and local headers.
    struct Member: Equatable {
        let index: Int
        let flagBytes: [UInt64]
    }

    /// The largest central directory scanned (the scan runs only when libzip has refused the file).
    static let maximumDirectoryBytes: UInt64 = 256 << 20

    /// The members of the zip at `path` whose names carry bit 11 over bytes that are not UTF-8; empty when there are
    /// none, or when the central directory cannot be found or walked (libzip's own error stands then).
    static func scan(path: String) -> [Member] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard let directory = ZipDirectoryEnd.centralDirectory(handle: handle),
            directory.size <= maximumDirectoryBytes,
            let size = Int(exactly: directory.size),
            (try? handle.seek(toOffset: directory.offset)) != nil,
            let data = try? handle.read(upToCount: size), data.count == size
        else { return [] }
        var reader = ByteReader([UInt8](data))
        var members: [Member] = []
        var index = 0
        while index < directory.count, let header = try? CentralHeader(&reader) {
            if header.flags & 0x0800 != 0, String(validating: header.name, as: UTF8.self) == nil {
                members.append(
                    Member(
                        index: index,
                        flagBytes: [directory.offset + UInt64(header.start) + 9] + header.localFlagByte
                    )
                )
            }
            index += 1
        }
        return members
    }

    /// The fields of one central directory header the scan needs.
    private struct CentralHeader {
        let start: Int
        let flags: UInt16
        let name: ArraySlice<UInt8>
        /// The local header's flag byte, when its offset is known (zip64 offsets are read from the extra field).
        let localFlagByte: [UInt64]

        init(_ reader: inout ByteReader) throws(ParseError) {
            start = reader.offset
            guard try reader.readUInt32("central header signature", bigEndian: false) == 0x0201_4B50 else {
                throw ParseError(.badMagic, field: "central header signature", at: start)
            }
            try reader.skip(4, field: "versions")
            flags = try reader.readUInt16("flags", bigEndian: false)
            try reader.skip(10, field: "method, time, date, CRC")
            let compressedSize = try reader.readUInt32("compressed size", bigEndian: false)
            let size = try reader.readUInt32("uncompressed size", bigEndian: false)
            let nameLength = Int(try reader.readUInt16("name length", bigEndian: false))
            let extraLength = Int(try reader.readUInt16("extra length", bigEndian: false))
            let commentLength = Int(try reader.readUInt16("comment length", bigEndian: false))
            try reader.skip(8, field: "disk, attributes")
            let localOffset = try reader.readUInt32("local header offset", bigEndian: false)
            name = try reader.readBytes(nameLength, field: "name")
            var extra = ByteReader(try reader.readBytes(extraLength, field: "extra"))
            try reader.skip(commentLength, field: "comment")
            var offset: UInt64? = UInt64(localOffset)
            if localOffset == 0xFFFF_FFFF {
                // The zip64 field holds, in order, only the values whose header field is 0xFFFFFFFF.
                let skipped = [size, compressedSize].filter { $0 == 0xFFFF_FFFF }.count
                offset = Self.zip64Value(at: skipped, in: &extra)
            }
            localFlagByte = offset.flatMap { $0.addingReportingOverflow(7).overflow ? nil : [$0 + 7] } ?? []
        }

        /// The `position`-th 8-byte value of the zip64 extra field (id 1), if the field holds it.
        private static func zip64Value(at position: Int, in extra: inout ByteReader) -> UInt64? {
            while !extra.isAtEnd {
                guard let id = try? extra.readUInt16("extra id", bigEndian: false),
                    let length = try? extra.readUInt16("extra length", bigEndian: false),
                    let field = try? extra.readBytes(Int(length), field: "extra field")
                else { return nil }
                guard id == 1 else { continue }
                var values = ByteReader(field)
                guard (try? values.skip(position * 8, field: "zip64 sizes")) != nil else { return nil }
                return try? values.readUInt64("zip64 local header offset", bigEndian: false)
            }
            return nil
        }
    }
}
