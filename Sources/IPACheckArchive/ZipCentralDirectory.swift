internal import CIsal
import IPACheckBinary

/// The central directory of a zip, walked header by header through a window of the file with the bounds-checked
/// reader: never held whole (at a million members it is about 100 MB), and read again one header at a time when a
/// member is opened.
///
/// ```
/// central directory header (46 bytes + name + extra + comment), little-endian:
///   "PK\1\2", version made by (2; its high byte is the system, 3 for Unix), version needed (2),
///   flags (2, at 8), method (2, at 10), time (2), date (2), CRC (4, at 16), compressed size (4, at 20),
///   size (4, at 24), name length (2, at 28), extra length (2, at 30), comment length (2, at 32), disk (2),
///   internal attributes (2), external attributes (4, at 38; a Unix mode in the high 16 bits), local header
///   offset (4, at 42)
/// zip64 extra field (id 1): the 8-byte values whose 4-byte fields above are 0xFFFFFFFF, in the order
///   size, compressed size, local header offset
/// ```
enum ZipCentralDirectory {
    /// One member's central header.
    struct Header {
        /// Where the header starts in the file.
        let fileOffset: UInt64
        /// How many bytes the header takes, name, extra and comment included.
        let length: Int
        let versionMadeBy: UInt16
        let flags: UInt16
        let method: UInt16
        let crc: UInt32
        let compressedSize: UInt64
        let size: UInt64
        let externalAttributes: UInt32
        let name: ArraySlice<UInt8>
        let extra: ArraySlice<UInt8>
        /// The local header's offset; `nil` when a zip64 field it needs is missing.
        let localOffset: UInt64?
        /// What is malformed in the header although it could be read (its extra fields, a missing zip64 value),
        /// in words; libzip refuses such a directory, and so does the walk.
        let problem: String?

        /// Whether the member is a symbolic link: a Unix system (3) wrote it, and the mode's type is `S_IFLNK`.
        var isSymbolicLink: Bool {
            versionMadeBy >> 8 == 3 && (externalAttributes >> 16) & 0o170000 == 0o120000
        }

        /// Whether the member is encrypted (flag bit 0, which AES encryption sets too).
        var isEncrypted: Bool { flags & 0x0001 != 0 }
    }

    /// Where a directory lies and how many headers it declares (``ZipDirectoryEnd``).
    struct Location: Sendable, Hashable {
        let offset: UInt64
        let size: UInt64
        let count: UInt64
    }

    /// The headers of a directory in order, read through a window until its size is used up, as libzip reads them
    /// (the count is compared afterwards); the walk stops early at a header that cannot be read.
    struct Headers: IteratorProtocol {
        private var window: ZipFileWindow
        private var position: UInt64
        /// How many of the directory's bytes are not yet walked.
        private(set) var bytesLeft: UInt64

        init(file: ZipFileDescriptor, location: Location) {
            let end = location.offset.addingReportingOverflow(location.size)
            window = ZipFileWindow(file: file, end: end.overflow ? file.size : end.partialValue)
            position = location.offset
            bytesLeft = location.size
        }

        mutating func next() -> Header? {
            guard bytesLeft > 0, let header = ZipCentralDirectory.header(in: &window, at: position),
                UInt64(header.length) <= bytesLeft
            else { return nil }
            bytesLeft -= UInt64(header.length)
            position += UInt64(header.length)
            return header
        }
    }

    /// The header at `offset`, read on its own (a member being opened); nil when it cannot be read there.
    static func header(in file: ZipFileDescriptor, at offset: UInt64) -> Header? {
        var window = ZipFileWindow(file: file, end: file.size, chunk: 46 + 1024)
        return header(in: &window, at: offset)
    }

    /// Reads the header at `offset` through `window`; nil when it is cut short or is not a central header.
    static func header(in window: inout ZipFileWindow, at offset: UInt64) -> Header? {
        guard let fixed = window.bytes(at: offset, count: 46) else { return nil }
        var reader = ByteReader(fixed)
        guard (try? reader.readUInt32("central header signature", bigEndian: false)) == 0x0201_4B50,
            (try? reader.seek(to: 28, field: "lengths")) != nil,
            let nameLength = try? reader.readUInt16("name length", bigEndian: false),
            let extraLength = try? reader.readUInt16("extra length", bigEndian: false),
            let commentLength = try? reader.readUInt16("comment length", bigEndian: false)
        else { return nil }
        let length = 46 + Int(nameLength) + Int(extraLength) + Int(commentLength)
        guard let bytes = window.bytes(at: offset, count: length) else { return nil }
        return try? parse(bytes, at: offset)
    }

    private static func parse(_ bytes: ArraySlice<UInt8>, at fileOffset: UInt64) throws(ParseError) -> Header {
        var reader = ByteReader(bytes)
        try reader.skip(4, field: "central header signature")
        let versionMadeBy = try reader.readUInt16("version made by", bigEndian: false)
        try reader.skip(2, field: "version needed")
        let flags = try reader.readUInt16("flags", bigEndian: false)
        let method = try reader.readUInt16("method", bigEndian: false)
        try reader.skip(4, field: "time, date")
        let crc = try reader.readUInt32("CRC", bigEndian: false)
        let compressedSize = try reader.readUInt32("compressed size", bigEndian: false)
        let size = try reader.readUInt32("uncompressed size", bigEndian: false)
        let nameLength = Int(try reader.readUInt16("name length", bigEndian: false))
        let extraLength = Int(try reader.readUInt16("extra length", bigEndian: false))
        let commentLength = Int(try reader.readUInt16("comment length", bigEndian: false))
        try reader.skip(4, field: "disk, internal attributes")
        let externalAttributes = try reader.readUInt32("external attributes", bigEndian: false)
        let localOffset = try reader.readUInt32("local header offset", bigEndian: false)
        let name = try reader.readBytes(nameLength, field: "name")
        let extra = try reader.readBytes(extraLength, field: "extra")
        try reader.skip(commentLength, field: "comment")
        // The zip64 field holds, in order, only the values whose header field is 0xFFFFFFFF.
        var zip64 = ZipExtraFields(extra).zip64Values
        var missing: String?
        func widened(_ value: UInt32, _ what: String) -> UInt64? {
            guard value == 0xFFFF_FFFF else { return UInt64(value) }
            guard !zip64.isEmpty else {
                missing = missing ?? what
                return nil
            }
            return zip64.removeFirst()
        }
        let wideSize = widened(size, "size")
        let wideCompressed = widened(compressedSize, "compressed size")
        let wideOffset = widened(localOffset, "local header's offset")
        return Header(
            fileOffset: fileOffset,
            length: bytes.count,
            versionMadeBy: versionMadeBy,
            flags: flags,
            method: method,
            crc: crc,
            compressedSize: wideCompressed ?? UInt64(compressedSize),
            size: wideSize ?? UInt64(size),
            externalAttributes: externalAttributes,
            name: name,
            extra: extra,
            localOffset: wideOffset,
            problem: ZipExtraFields(extra).malformation
                ?? missing.map { "its \($0) is missing from its zip64 field" }
        )
    }
}

/// A sliding window over a zip file: the bytes asked for, read in large chunks so that walking a directory of a
/// million headers takes a few hundred reads, and never more than one chunk (or one request) held.
struct ZipFileWindow {
    private let file: ZipFileDescriptor
    /// No byte at or past this offset is read.
    private let end: UInt64
    private let chunk: Int
    private var start: UInt64 = 0
    private var buffer: [UInt8] = []

    init(file: ZipFileDescriptor, end: UInt64, chunk: Int = 1 << 20) {
        self.file = file
        self.end = min(end, file.size)
        self.chunk = chunk
    }

    /// Exactly `count` bytes at `offset`, or nil when they run past the end (or cannot be read).
    mutating func bytes(at offset: UInt64, count: Int) -> ArraySlice<UInt8>? {
        let last = offset.addingReportingOverflow(UInt64(count))
        guard !last.overflow, last.partialValue <= end else { return nil }
        if offset < start || last.partialValue > start + UInt64(buffer.count) {
            let wanted = Int(clamping: min(UInt64(max(count, chunk)), end - offset))
            guard let read = file.bytes(at: offset, count: wanted), read.count >= count else { return nil }
            start = offset
            buffer = read
        }
        let from = Int(offset - start)
        return buffer[from..<from + count]
    }
}

/// The extra fields of a header (id, length, data, repeated), read with the bounds-checked reader.
struct ZipExtraFields {
    let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// The data of the first field with `id`, if any (nil too when the fields are malformed before it).
    func field(_ id: UInt16) -> ArraySlice<UInt8>? {
        var reader = ByteReader(bytes)
        while !reader.isAtEnd {
            guard let fieldID = try? reader.readUInt16("extra id", bigEndian: false),
                let length = try? reader.readUInt16("extra length", bigEndian: false),
                let field = try? reader.readBytes(Int(length), field: "extra field")
            else { return nil }
            if fieldID == id { return field }
        }
        return nil
    }

    /// What is wrong with the fields, in words, or nil: each field's length must fit in what is left, and at most
    /// three zero bytes may follow the last field (Android's zipalign pads with them), as libzip reads them.
    var malformation: String? {
        var reader = ByteReader(bytes)
        while reader.remaining >= 4 {
            guard (try? reader.skip(2, field: "extra id")) != nil,
                let length = try? reader.readUInt16("extra length", bigEndian: false),
                (try? reader.skip(Int(length), field: "extra field")) != nil
            else { return "its extra fields run past their length" }
        }
        guard let rest = try? reader.readBytes(reader.remaining, field: "padding"), rest.allSatisfy({ $0 == 0 })
        else { return "its extra fields end in stray bytes" }
        return nil
    }

    /// The 8-byte values of the zip64 field (id 1), in order; empty when there is none.
    var zip64Values: [UInt64] {
        guard let field = field(0x0001) else { return [] }
        var values = ByteReader(field)
        var found: [UInt64] = []
        while let value = try? values.readUInt64("zip64 value", bigEndian: false) { found.append(value) }
        return found
    }

    /// The Info-ZIP Unicode path field (id 0x7075: version 1, the CRC-32 of the header's name, the name in UTF-8),
    /// when it is valid UTF-8 and was written for exactly `name` (APPNOTE 4.6.9: a stale one is ignored).
    func unicodePath(for name: ArraySlice<UInt8>) -> [UInt8]? {
        guard let field = field(0x7075) else { return nil }
        var reader = ByteReader(field)
        guard (try? reader.readUInt8("unicode path version")) == 1,
            let crc = try? reader.readUInt32("unicode path name CRC", bigEndian: false),
            let path = try? reader.readBytes(field.count - 5, field: "unicode path"),
            String(validating: path, as: UTF8.self) != nil
        else { return nil }
        let nameCRC = unsafe name.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return UInt32(0) }
            return unsafe ISAL.crc32(0, base, count: UInt64(buffer.count))
        }
        return nameCRC == crc ? Array(path) : nil
    }
}
