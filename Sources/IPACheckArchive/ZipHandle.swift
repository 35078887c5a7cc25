internal import CZip
import Foundation

/// The one place this module touches libzip's pointers (strict memory safety: every `unsafe` of the module is here,
/// but for ISA-L's calls and the `pread`s of ZipRawMember.swift, and the CRC-32 in ZipCentralDirectory.swift).
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
