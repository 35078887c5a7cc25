internal import CZip
import Foundation

/// The one place this module touches libzip's pointers (strict memory safety: every `unsafe` of the module is here).
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

    /// libzip's words for an open error `code`.
    static func message(forErrorCode code: Int32) -> String {
        var error = unsafe zip_error_t()
        // `error` is a local initialised and finalised here; the message is copied before `zip_error_fini`.
        unsafe zip_error_init_with_code(&error, code)
        defer { unsafe zip_error_fini(&error) }
        return unsafe String(cString: zip_error_strerror(&error))
    }

    /// libzip's words for the last error on this archive.
    var lastError: String {
        unsafe String(cString: zip_strerror(raw))
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
        return unsafe Stat(
            name: name,
            size: stat.size,
            compressedSize: stat.comp_size,
            compressionMethod: UInt16(truncatingIfNeeded: stat.comp_method),
            isEncrypted: stat.encryption_method != UInt16(ZIP_EM_NONE)
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

    /// libzip's words for the last error reading this member.
    var lastError: String {
        unsafe String(cString: zip_file_strerror(raw))
    }
}
