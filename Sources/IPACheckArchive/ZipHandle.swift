internal import CZip
import Foundation

/// The one place this module touches libzip's pointers (strict memory safety: every `unsafe` of the module is here,
/// but for ISA-L's in ZipRawMember.swift).
///
/// An open archive, owned by this object and discarded with it (`zip_discard`: a read-only archive must not be written
/// back). Every C string libzip hands out is copied into Swift before the call returns, so no pointer leaves this
/// file. Not `Sendable`: a libzip handle must stay on one thread.
@safe final class ZipHandle {
    private let raw: OpaquePointer

    private init(_ raw: OpaquePointer) {
        unsafe self.raw = raw
    }

    deinit {
        unsafe zip_discard(raw)
    }

    /// Opens the file at `path` with libzip's `flags`; the handle, or nil and libzip's error code.
    static func open(_ path: String, flags: Int32) -> (handle: ZipHandle?, errorCode: Int32) {
        var errorCode: Int32 = 0
        // The path is a temporary C string and the error code a local, both alive for the call.
        guard let raw = unsafe zip_open(path, flags, &errorCode) else { return (nil, errorCode) }
        return (unsafe ZipHandle(raw), errorCode)
    }

    /// Opens the file at `path` as ``open(_:flags:)`` does, but through a view of the file in which bit 3 of each
    /// byte at `clearing` reads as 0 (the UTF-8 name flag of the members ``ZipMislabelledNames`` found).
    static func open(
        _ path: String,
        flags: Int32,
        clearing: [UInt64]
    ) -> (handle: ZipHandle?, errorCode: Int32) {
        guard let view = PatchedFile(path: path, clearing: clearing) else { return (nil, ZIP_ER_OPEN) }
        var error = unsafe zip_error_t()
        // `error` is a local, initialised and finalised here. The source owns one retain of `view` until libzip
        // sends ZIP_SOURCE_FREE (on success the archive owns the source; on failure zip_source_free frees it).
        unsafe zip_error_init(&error)
        defer { unsafe zip_error_fini(&error) }
        let context = unsafe Unmanaged.passRetained(view).toOpaque()
        guard let source = unsafe zip_source_function_create(PatchedFile.callback, context, &error) else {
            unsafe Unmanaged<PatchedFile>.fromOpaque(context).release()
            return (nil, ZIP_ER_MEMORY)
        }
        guard let raw = unsafe zip_open_from_source(source, flags, &error) else {
            unsafe zip_source_free(source)
            return (nil, unsafe zip_error_code_zip(&error))
        }
        return (unsafe ZipHandle(raw), 0)
    }

    /// libzip's words for an open error `code`.
    static func message(forErrorCode code: Int32) -> String {
        var error = unsafe zip_error_t()
        // `error` is a local initialised and finalised here; the message is copied before `zip_error_fini`.
        unsafe zip_error_init_with_code(&error, code)
        defer { unsafe zip_error_fini(&error) }
        return unsafe String(cString: zip_error_strerror(&error))
    }

    /// The last error on this archive, in words (``problem(forCode:)``).
    var lastError: String {
        Self.problem(forCode: unsafe zip_error_code_zip(zip_get_error(raw)))
    }

    /// What a libzip error while reading a member means, in words a person can act on: libzip's own text names
    /// the wrong problem ("No such file" for a member whose local header is missing, "Seek error: File too large"
    /// for a 1 KB file whose offsets point past its end).
    static func problem(forCode code: Int32) -> String {
        switch code {
        case ZIP_ER_SEEK, ZIP_ER_EOF, ZIP_ER_TELL, ZIP_ER_INVAL:
            "its data runs past the end of the file (the archive is cut short or its offsets are wrong)"
        case ZIP_ER_READ: "its data could not be read from the file"
        case ZIP_ER_CRC: "its data does not match its CRC (the member is damaged)"
        case ZIP_ER_ZLIB, ZIP_ER_COMPRESSED_DATA: "its compressed data is damaged"
        case ZIP_ER_INCONS, ZIP_ER_NOENT: "its local header is not where the central directory says"
        case ZIP_ER_ENCRNOTSUPP, ZIP_ER_NOPASSWD, ZIP_ER_WRONGPASSWD: "it is encrypted"
        case ZIP_ER_COMPNOTSUPP: "its compression method cannot be decompressed"
        case ZIP_ER_MEMORY: "there was not enough memory to read it"
        default: "it could not be read (libzip error \(code))"
        }
    }

    /// The number of members the central directory lists; negative when libzip cannot tell.
    var entryCount: Int64 {
        unsafe zip_get_num_entries(raw, 0)
    }

    /// What the central directory says about one member.
    struct Stat {
        /// The name's raw bytes (no terminating NUL); nil when libzip has no name for it.
        var name: [UInt8]?
        var size: UInt64
        var compressedSize: UInt64
        var compressionMethod: UInt16
        var isEncrypted: Bool
        /// The CRC-32 the central directory gives (0 when libzip has none).
        var crc: UInt32
        /// The Unix file mode the external attributes hold, when the member was made on a Unix system.
        var unixMode: UInt32?
    }

    /// The central directory's record for member `index` (raw name bytes), or nil when it cannot be read.
    func stat(_ index: Int64) -> Stat? {
        var stat = unsafe zip_stat_t()
        // `stat` is a local filled by libzip; its name points into the archive's directory, alive while `raw` is, and
        // is copied (up to its NUL) before this returns.
        unsafe zip_stat_init(&stat)
        guard unsafe zip_stat_index(raw, zip_uint64_t(index), zip_flags_t(ZIP_FL_ENC_RAW), &stat) == 0 else {
            return nil
        }
        let name = unsafe stat.name.map { name in
            unsafe UnsafeBufferPointer(start: name, count: strlen(name)).map { UInt8(bitPattern: $0) }
        }
        var system: UInt8 = 0
        var attributes: UInt32 = 0
        // Both are locals libzip fills for the call.
        let hasAttributes =
            unsafe zip_file_get_external_attributes(raw, zip_uint64_t(index), 0, &system, &attributes) == 0
        return unsafe Stat(
            name: name,
            size: stat.size,
            compressedSize: stat.comp_size,
            compressionMethod: UInt16(truncatingIfNeeded: stat.comp_method),
            isEncrypted: stat.encryption_method != UInt16(ZIP_EM_NONE),
            crc: stat.valid & UInt64(ZIP_STAT_CRC) != 0 ? stat.crc : 0,
            unixMode: hasAttributes && UInt32(system) == ZIP_OPSYS_UNIX ? attributes >> 16 : nil
        )
    }

    /// Member `index`'s name as libzip converts it from a legacy (CP437) encoding.
    func guessedName(_ index: Int64) -> String? {
        // A NUL-terminated string owned by the archive, copied at once.
        guard let name = unsafe zip_get_name(raw, zip_uint64_t(index), zip_flags_t(ZIP_FL_ENC_GUESS)) else {
            return nil
        }
        return unsafe String(cString: name)
    }

    /// Opens member `index` for reading; nil when libzip cannot (``lastError`` says why).
    func openMember(_ index: Int) -> ZipMemberFile? {
        guard let file = unsafe zip_fopen_index(raw, zip_uint64_t(index), 0) else { return nil }
        return unsafe ZipMemberFile(file, archive: self)
    }
}

/// One member opened by libzip, closed with this object; it keeps its archive open for as long as it lives.
@safe final class ZipMemberFile {
    private let raw: OpaquePointer
    /// libzip reads a member through its archive, so the archive must outlive the member.
    private let archive: ZipHandle

    fileprivate init(_ raw: OpaquePointer, archive: ZipHandle) {
        unsafe self.raw = raw
        self.archive = archive
    }

    deinit {
        unsafe zip_fclose(raw)
    }

    /// Decompresses up to `buffer.count` bytes into the start of `buffer`; how many, 0 at the end, nil on an error
    /// (``lastError`` says which).
    func read(into buffer: inout [UInt8]) -> Int? {
        // libzip writes at most `bytes.count` bytes into the array's own storage, borrowed for the call only.
        let got = unsafe buffer.withUnsafeMutableBytes { bytes -> Int64 in
            guard let base = bytes.baseAddress else { return 0 }
            return unsafe zip_fread(raw, base, zip_uint64_t(bytes.count))
        }
        return got < 0 ? nil : Int(got)
    }

    /// The last error reading this member, in words (``ZipHandle/problem(forCode:)``).
    var lastError: String {
        ZipHandle.problem(forCode: unsafe zip_error_code_zip(zip_file_get_error(raw)))
    }
}

/// A read-only view of a file for libzip's function source, with chosen bits cleared as they are read.
@safe private final class PatchedFile {
    private let file: ZipFileDescriptor
    private var size: UInt64 { file.size }
    /// The file offsets whose byte reads with bit 3 (0x08) cleared, sorted.
    private let clearing: [UInt64]
    private var position: UInt64 = 0
    private var error = unsafe zip_error_t()

    init?(path: String, clearing: [UInt64]) {
        guard let file = ZipFileDescriptor(path: path) else { return nil }
        self.file = file
        self.clearing = clearing.sorted()
        unsafe zip_error_init(&error)
    }

    deinit {
        unsafe zip_error_fini(&error)
    }

    /// The commands a seekable read-only source answers (libzip's `ZIP_SOURCE_SUPPORTS_SEEKABLE`).
    private static let supported: Int64 = [
        ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE,
        ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, ZIP_SOURCE_SUPPORTS,
    ].reduce(0) { $0 | (1 << Int64($1.rawValue)) }

    /// The size of the `zip_stat_t` libzip asks a source to fill.
    private static let statSize = unsafe MemoryLayout<zip_stat_t>.size

    /// libzip's entry point: `userdata` is the retained view, `data` and `length` the command's buffer.
    static let callback: zip_source_callback = { userdata, data, length, command in
        guard let userdata = unsafe userdata else { return -1 }
        let view = unsafe Unmanaged<PatchedFile>.fromOpaque(userdata)
        if command == ZIP_SOURCE_FREE {
            unsafe view.release()
            return 0
        }
        return unsafe view.takeUnretainedValue().answer(command, data: data, length: length)
    }

    private func answer(_ command: zip_source_cmd_t, data: UnsafeMutableRawPointer?, length: UInt64) -> Int64 {
        switch command {
        case ZIP_SOURCE_OPEN:
            position = 0
            return 0
        case ZIP_SOURCE_CLOSE:
            return 0
        case ZIP_SOURCE_READ:
            guard let data = unsafe data else { return fail(ZIP_ER_INVAL) }
            return unsafe read(into: data, length: length)
        case ZIP_SOURCE_SEEK:
            guard let data = unsafe data else { return fail(ZIP_ER_INVAL) }
            // libzip checks the seek arguments against the size and reports a bad one in `error`.
            let target = unsafe zip_source_seek_compute_offset(position, size, data, length, &error)
            guard target >= 0 else { return -1 }
            position = UInt64(target)
            return 0
        case ZIP_SOURCE_TELL:
            return Int64(exactly: position) ?? fail(ZIP_ER_SEEK)
        case ZIP_SOURCE_STAT:
            guard let data = unsafe data, length >= UInt64(Self.statSize) else {
                return fail(ZIP_ER_INVAL)
            }
            // libzip hands a zip_stat_t of at least `length` bytes to fill.
            let stat = unsafe data.assumingMemoryBound(to: zip_stat_t.self)
            unsafe zip_stat_init(stat)
            unsafe stat.pointee.size = size
            unsafe stat.pointee.valid |= UInt64(ZIP_STAT_SIZE)
            return Int64(Self.statSize)
        case ZIP_SOURCE_ERROR:
            guard let data = unsafe data else { return fail(ZIP_ER_INVAL) }
            return unsafe zip_error_to_data(&error, data, length)
        case ZIP_SOURCE_SUPPORTS:
            return Self.supported
        default:
            return fail(ZIP_ER_OPNOTSUPP)
        }
    }

    /// Reads up to `length` bytes at the position into `data`, clearing the chosen bits in what was read.
    private func read(into data: UnsafeMutableRawPointer, length: UInt64) -> Int64 {
        let wanted = Int(clamping: min(length, size - min(position, size)))
        guard wanted > 0 else { return 0 }
        guard let got = unsafe file.read(at: position, into: data, count: wanted) else { return fail(ZIP_ER_READ) }
        let end = position + UInt64(got)
        // `got` bytes were written at `data`; each patched offset in [position, end) is inside them.
        let bytes = unsafe data.assumingMemoryBound(to: UInt8.self)
        for patched in clearing where patched >= position && patched < end {
            unsafe bytes[Int(patched - position)] &= 0xF7
        }
        position = end
        return Int64(got)
    }

    private func fail(_ code: Int32) -> Int64 {
        unsafe zip_error_set(&error, code, 0)
        return -1
    }
}
