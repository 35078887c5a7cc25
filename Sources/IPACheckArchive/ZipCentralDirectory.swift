import Foundation
import IPACheckBinary

/// The central directory of a zip, walked with the bounds-checked reader: what the checks that libzip does not make
/// as iOS's extractors would (names flagged UTF-8 over other bytes, the local headers' consistency) read.
///
/// ```
/// central directory header (46 bytes + name + extra + comment), little-endian:
///   "PK\1\2", versions (2 + 2), flags (2, at 8), method (2, at 10), time (2), date (2), CRC (4, at 16),
///   compressed size (4, at 20), size (4, at 24), name length (2, at 28), extra length (2, at 30),
///   comment length (2, at 32), disk (2), attributes (2 + 4), local header offset (4, at 42)
/// zip64 extra field (id 1): the 8-byte values whose 4-byte fields above are 0xFFFFFFFF, in the order
///   size, compressed size, local header offset
/// ```
struct ZipCentralDirectory {
    /// One member's central header: the fields the checks compare.
    struct Header {
        /// Where the header starts in the file.
        let fileOffset: UInt64
        let flags: UInt16
        let method: UInt16
        let crc: UInt32
        let compressedSize: UInt64
        let size: UInt64
        let name: ArraySlice<UInt8>
        /// The local header's offset; `nil` when a zip64 field it needs is missing.
        let localOffset: UInt64?
    }

    /// The largest central directory walked (these checks run beside libzip's, never instead of its limits).
    static let maximumBytes: UInt64 = 256 << 20

    /// Where the directory lies in the file.
    let offset: UInt64
    /// Its headers, in order; fewer than declared when one could not be read (the walk stops there).
    let headers: [Header]
    /// How many members the end record declares.
    let declaredCount: UInt64

    /// Reads the central directory of the zip open in `handle`; `nil` when there is no end record, or the
    /// directory is larger than ``maximumBytes`` or lies past the end of the file.
    init?(handle: FileHandle) {
        guard let directory = ZipDirectoryEnd.centralDirectory(handle: handle),
            directory.size <= Self.maximumBytes,
            let size = Int(exactly: directory.size),
            (try? handle.seek(toOffset: directory.offset)) != nil,
            let data = try? handle.read(upToCount: size), data.count == size
        else { return nil }
        var reader = ByteReader([UInt8](data))
        var headers: [Header] = []
        while UInt64(headers.count) < directory.count, !reader.isAtEnd {
            let start = reader.offset
            guard let header = try? Self.header(&reader, at: directory.offset + UInt64(start)) else { break }
            headers.append(header)
        }
        offset = directory.offset
        self.headers = headers
        declaredCount = directory.count
    }

    private static func header(_ reader: inout ByteReader, at fileOffset: UInt64) throws(ParseError) -> Header {
        let start = reader.offset
        guard try reader.readUInt32("central header signature", bigEndian: false) == 0x0201_4B50 else {
            throw ParseError(.badMagic, field: "central header signature", at: start)
        }
        try reader.skip(4, field: "versions")
        let flags = try reader.readUInt16("flags", bigEndian: false)
        let method = try reader.readUInt16("method", bigEndian: false)
        try reader.skip(4, field: "time, date")
        let crc = try reader.readUInt32("CRC", bigEndian: false)
        let compressedSize = try reader.readUInt32("compressed size", bigEndian: false)
        let size = try reader.readUInt32("uncompressed size", bigEndian: false)
        let nameLength = Int(try reader.readUInt16("name length", bigEndian: false))
        let extraLength = Int(try reader.readUInt16("extra length", bigEndian: false))
        let commentLength = Int(try reader.readUInt16("comment length", bigEndian: false))
        try reader.skip(8, field: "disk, attributes")
        let localOffset = try reader.readUInt32("local header offset", bigEndian: false)
        let name = try reader.readBytes(nameLength, field: "name")
        let extra = try reader.readBytes(extraLength, field: "extra")
        try reader.skip(commentLength, field: "comment")
        // The zip64 field holds, in order, only the values whose header field is 0xFFFFFFFF.
        var zip64 = ZipExtraFields(extra).zip64Values
        func widened(_ value: UInt32) -> UInt64? {
            guard value == 0xFFFF_FFFF else { return UInt64(value) }
            return zip64.isEmpty ? nil : zip64.removeFirst()
        }
        let wideSize = widened(size)
        let wideCompressed = widened(compressedSize)
        return Header(
            fileOffset: fileOffset,
            flags: flags,
            method: method,
            crc: crc,
            compressedSize: wideCompressed ?? UInt64(compressedSize),
            size: wideSize ?? UInt64(size),
            name: name,
            localOffset: widened(localOffset)
        )
    }
}

/// The extra fields of a header (id, length, data, repeated), read with the bounds-checked reader.
struct ZipExtraFields {
    let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// The 8-byte values of the zip64 field (id 1), in order; empty when there is none.
    var zip64Values: [UInt64] {
        var reader = ByteReader(bytes)
        while !reader.isAtEnd {
            guard let id = try? reader.readUInt16("extra id", bigEndian: false),
                let length = try? reader.readUInt16("extra length", bigEndian: false),
                let field = try? reader.readBytes(Int(length), field: "extra field")
            else { return [] }
            guard id == 1 else { continue }
            var values = ByteReader(field)
            var found: [UInt64] = []
            while let value = try? values.readUInt64("zip64 value", bigEndian: false) { found.append(value) }
            return found
        }
        return []
    }
}
