/// A bounds-checked reader over untrusted bytes: the only way our parsers touch file contents.
///
/// Every read checks the remaining length first and throws ``ParseError`` instead of trapping; offsets and
/// lengths taken from the file go through ``slice(at:count:field:)``, which checks them against the buffer with
/// overflow-safe arithmetic. Nothing is read through pointers, so alignment never matters.
package struct ByteReader: Sendable {
    /// The bytes being read; `bytes.startIndex` may be non-zero when the reader wraps a slice.
    package let bytes: ArraySlice<UInt8>
    /// The read position, relative to the start of ``bytes`` (0 = first byte).
    package private(set) var offset: Int
    /// Added to ``offset`` in error messages, so errors name positions in the whole file, not the slice.
    package let baseOffset: Int

    /// Creates a reader positioned at the first byte.
    package init(_ bytes: ArraySlice<UInt8>, baseOffset: Int = 0) {
        self.bytes = bytes
        self.offset = 0
        self.baseOffset = baseOffset
    }

    /// Creates a reader over a whole array.
    package init(_ bytes: [UInt8], baseOffset: Int = 0) {
        self.init(bytes[...], baseOffset: baseOffset)
    }

    /// The number of bytes in the buffer.
    package var count: Int { bytes.count }

    /// The number of bytes after the read position.
    package var remaining: Int { bytes.count - offset }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { offset >= bytes.count }

    /// Moves the read position to `newOffset` (relative to the buffer's start).
    package mutating func seek(to newOffset: Int, field: String) throws(ParseError) {
        guard newOffset >= 0, newOffset <= bytes.count else {
            throw ParseError(
                .outOfBounds,
                field: field,
                at: baseOffset + offset,
                reason: "offset \(newOffset) is outside a \(bytes.count)-byte buffer"
            )
        }
        offset = newOffset
    }

    /// Skips `count` bytes.
    package mutating func skip(_ count: Int, field: String) throws(ParseError) {
        _ = try readBytes(count, field: field)
    }

    /// Reads `count` bytes and advances.
    package mutating func readBytes(_ count: Int, field: String) throws(ParseError) -> ArraySlice<UInt8> {
        let result = try slice(at: offset, count: count, field: field)
        offset += count
        return result
    }

    /// Returns `count` bytes starting at `start` (relative to the buffer's start) without moving.
    ///
    /// Both numbers usually come from the file, so they are checked for sign and overflow before use.
    package func slice(at start: Int, count: Int, field: String) throws(ParseError) -> ArraySlice<UInt8> {
        guard start >= 0, count >= 0 else {
            throw ParseError(.outOfBounds, field: field, at: baseOffset + offset, reason: "negative offset or length")
        }
        let (end, overflow) = start.addingReportingOverflow(count)
        guard !overflow, end <= bytes.count else {
            let code: ParseError.Code = start <= bytes.count && start == offset ? .truncated : .outOfBounds
            throw ParseError(
                code,
                field: field,
                at: baseOffset + start,
                reason: "needs \(count) bytes at \(start), buffer has \(bytes.count)"
            )
        }
        let base = bytes.startIndex
        return bytes[(base + start)..<(base + end)]
    }

    /// Returns a reader over `count` bytes at `start`, whose errors report file offsets.
    package func subReader(at start: Int, count: Int, field: String) throws(ParseError) -> ByteReader {
        ByteReader(try slice(at: start, count: count, field: field), baseOffset: baseOffset + start)
    }

    /// Reads one byte.
    package mutating func readUInt8(_ field: String) throws(ParseError) -> UInt8 {
        let byte = try readBytes(1, field: field)
        return byte[byte.startIndex]
    }

    /// Reads a big-endian 16-bit integer.
    package mutating func readUInt16BE(_ field: String) throws(ParseError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readInteger(2, bigEndian: true, field: field))
    }

    /// Reads a big-endian 32-bit integer (code-signature fields are big-endian).
    package mutating func readUInt32BE(_ field: String) throws(ParseError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readInteger(4, bigEndian: true, field: field))
    }

    /// Reads a big-endian 64-bit integer.
    package mutating func readUInt64BE(_ field: String) throws(ParseError) -> UInt64 {
        try readInteger(8, bigEndian: true, field: field)
    }

    /// Reads a 16-bit integer in the given byte order (zip fields are little-endian).
    package mutating func readUInt16(_ field: String, bigEndian: Bool) throws(ParseError) -> UInt16 {
        UInt16(truncatingIfNeeded: try readInteger(2, bigEndian: bigEndian, field: field))
    }

    /// Reads a 32-bit integer in the given byte order (Mach-O headers use the file's own order).
    package mutating func readUInt32(_ field: String, bigEndian: Bool) throws(ParseError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readInteger(4, bigEndian: bigEndian, field: field))
    }

    /// Reads a 64-bit integer in the given byte order.
    package mutating func readUInt64(_ field: String, bigEndian: Bool) throws(ParseError) -> UInt64 {
        try readInteger(8, bigEndian: bigEndian, field: field)
    }

    /// Reads a NUL-terminated UTF-8 string starting at `start`, never past the buffer or `maxLength` bytes.
    package func cString(at start: Int, maxLength: Int = 4096, field: String) throws(ParseError) -> String {
        guard start >= 0, start < bytes.count else {
            throw ParseError(.outOfBounds, field: field, at: baseOffset + start, reason: "string offset outside buffer")
        }
        let base = bytes.startIndex
        let limit = min(bytes.count, start + maxLength)
        var end = start
        while end < limit, bytes[base + end] != 0 { end += 1 }
        guard end < bytes.count, bytes[base + end] == 0 else {
            throw ParseError(.truncated, field: field, at: baseOffset + start, reason: "string is not NUL-terminated")
        }
        return String(decoding: bytes[(base + start)..<(base + end)], as: UTF8.self)
    }

    private mutating func readInteger(_ width: Int, bigEndian: Bool, field: String) throws(ParseError) -> UInt64 {
        let raw = try readBytes(width, field: field)
        // At most 8 bytes, each shifted in whole, so the value always fits in UInt64.
        if bigEndian {
            return raw.reduce(0) { ($0 << 8) | UInt64($1) }
        }
        return raw.reversed().reduce(0) { ($0 << 8) | UInt64($1) }
    }
}

extension Int {
    /// Converts a size or offset read from a file, refusing values that do not fit.
    package static func checked<T: BinaryInteger>(
        _ value: T,
        field: String,
        at offset: Int = 0
    ) throws(ParseError) -> Int {
        guard let result = Int(exactly: value) else {
            throw ParseError(.limitExceeded, field: field, at: offset, reason: "value \(value) does not fit")
        }
        return result
    }
}
