internal import CIsal
import Foundation
import IPACheckBinary

/// A zip file opened once for reading at offsets (`pread`), shared by the members read from it, closed with it.
@safe final class ZipFileDescriptor {
    let descriptor: Int32
    /// The file's size when it was opened: no member's bytes are read past it.
    let size: UInt64

    init?(path: String) {
        // The path is a temporary C string alive for the call.
        let descriptor = unsafe open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        size = UInt64(end)
    }

    deinit {
        close(descriptor)
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file); nil when the file cannot be read there.
    func bytes(at offset: UInt64, count: Int) -> [UInt8]? {
        guard count > 0 else { return [] }
        var result = [UInt8](repeating: 0, count: count)
        // The array's storage is lent to pread for the call only.
        let got = unsafe result.withUnsafeMutableBytes { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            return unsafe read(at: offset, into: base, count: buffer.count)
        }
        guard let got else { return nil }
        result.removeSubrange(got...)
        return result
    }

    /// Reads up to `count` bytes at `offset` into `target`; how many (0 past the end), or nil on a read error.
    func read(at offset: UInt64, into target: UnsafeMutableRawPointer, count: Int) -> Int? {
        guard count > 0 else { return 0 }
        guard let position = off_t(exactly: offset) else { return nil }
        while true {
            let got = unsafe pread(descriptor, target, count, position)
            if got >= 0 { return got }
            guard errno == EINTR else { return nil }
        }
    }
}

/// One stored or deflated member read straight from the file: its bytes where its local header says they start,
/// inflated by ISA-L (a fraction of zlib's time: `scripts/bench-seal`), without libzip's per-read copies.
///
/// The member's size and CRC-32 are checked against the central directory at its end. The CRC stays even where a
/// seal's SHA-256 covers the same bytes: a wrong CRC over intact bytes is an archive an installer that checks
/// CRCs refuses (ARC011), and ISA-L takes it for about 3 % of the zlib floor (measured with `scripts/bench-seal`'s
/// ipa). Every pointer ISA-L holds is owned here: its state and the input window are allocated once and freed with
/// the member; the output is the caller's buffer, lent for one call.
@safe final class ZipRawMember {
    private let file: ZipFileDescriptor
    private let isDeflated: Bool
    private let expectedSize: UInt64
    private let expectedCRC: UInt32
    /// The next compressed byte's offset in the file, and how many are left to read.
    private var nextOffset: UInt64
    private var compressedLeft: UInt64
    private var produced: UInt64 = 0
    private var crc: UInt32 = 0
    private var finished = false
    /// ISA-L's inflate state (about 90 KiB of tables and window), for deflated members only.
    private let state: UnsafeMutablePointer<inflate_state>?
    /// The compressed bytes read from the file and not yet inflated.
    private let input: UnsafeMutableRawBufferPointer
    /// Why the last read failed.
    private(set) var lastError = ""

    /// The compressed bytes read from the file at a time.
    private static let inputWindow = 64 * 1024

    /// Why a member cannot be opened, in words.
    struct Problem: Error {
        let reason: String
    }

    /// Opens the stored or deflated member `header` describes: its local header says where its data starts.
    static func open(file: ZipFileDescriptor, header: ZipCentralDirectory.Header) -> Result<ZipRawMember, Problem> {
        guard let local = header.localOffset, let fixed = file.bytes(at: local, count: 30), fixed.count == 30 else {
            return .failure(Problem(reason: "its local header is not where the central directory says"))
        }
        var reader = ByteReader(fixed)
        guard (try? reader.readUInt32("local header signature", bigEndian: false)) == 0x0403_4B50,
            (try? reader.seek(to: 26, field: "name length")) != nil,
            let nameLength = try? reader.readUInt16("name length", bigEndian: false),
            let extraLength = try? reader.readUInt16("extra length", bigEndian: false)
        else {
            return .failure(Problem(reason: "its local header is not where the central directory says"))
        }
        let data = local.addingReportingOverflow(30 + UInt64(nameLength) + UInt64(extraLength))
        let end = data.partialValue.addingReportingOverflow(header.compressedSize)
        guard !data.overflow, !end.overflow, end.partialValue <= file.size else {
            return .failure(
                Problem(
                    reason: "its data runs past the end of the file (the archive is cut short or its offsets are wrong)"
                )
            )
        }
        return .success(ZipRawMember(file: file, dataOffset: data.partialValue, header: header))
    }

    private init(file: ZipFileDescriptor, dataOffset: UInt64, header: ZipCentralDirectory.Header) {
        self.file = file
        isDeflated = header.method == 8
        expectedSize = header.size
        expectedCRC = header.crc
        nextOffset = dataOffset
        compressedLeft = header.compressedSize
        if isDeflated {
            let state = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
            // Raw deflate (no wrapper, no checksum: the CRC is ours to take), the default 32 KiB window.
            unsafe isal_inflate_init(state)
            unsafe state.pointee.crc_flag = UInt32(ISAL_DEFLATE)
            unsafe state.pointee.avail_in = 0
            unsafe self.state = state
            unsafe input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.inputWindow, alignment: 64)
        } else {
            unsafe self.state = nil
            unsafe input = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 1)
        }
    }

    deinit {
        unsafe state?.deallocate()
        unsafe input.deallocate()
    }

    /// Decompresses up to `buffer.count` bytes into the start of `buffer`; how many, 0 at the end, nil on an error
    /// (``lastError`` says which).
    func read(into buffer: inout [UInt8]) -> Int? {
        guard lastError.isEmpty else { return nil }
        guard !finished, !buffer.isEmpty else { return 0 }
        // The array's storage is lent for the call only; neither ISA-L nor pread keeps the pointer past it.
        let got = unsafe buffer.withUnsafeMutableBytes { output -> Int? in
            guard let base = output.baseAddress else { return 0 }
            return unsafe isDeflated ? inflate(into: base, count: output.count) : copy(into: base, count: output.count)
        }
        guard let got else { return nil }
        if got > 0 {
            crc = unsafe buffer.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return crc }
                return unsafe ISAL.crc32(crc, base.assumingMemoryBound(to: UInt8.self), count: UInt64(got))
            }
        }
        produced += UInt64(got)
        guard produced <= expectedSize else {
            return fail("it inflates to more than the \(expectedSize) bytes its central directory says")
        }
        if finished { return verified(got) }
        return got
    }

    /// A stored member: its bytes as they are in the file.
    private func copy(into output: UnsafeMutableRawPointer, count: Int) -> Int? {
        let wanted = Int(clamping: min(UInt64(count), compressedLeft))
        guard wanted > 0 else {
            finished = true
            return 0
        }
        guard let got = unsafe file.read(at: nextOffset, into: output, count: wanted), got > 0 else {
            return fail("its data could not be read from the file")
        }
        nextOffset += UInt64(got)
        compressedLeft -= UInt64(got)
        if compressedLeft == 0 { finished = true }
        return got
    }

    /// A deflated member: inflates until some output is ready, the stream ends, or it fails.
    private func inflate(into output: UnsafeMutableRawPointer, count: Int) -> Int? {
        guard let state = unsafe state, let window = unsafe input.baseAddress else {
            return fail("it could not be read")
        }
        let capacity = UInt32(clamping: count)
        unsafe state.pointee.next_out = output.assumingMemoryBound(to: UInt8.self)
        unsafe state.pointee.avail_out = capacity
        while true {
            if unsafe state.pointee.avail_in == 0, compressedLeft > 0 {
                let wanted = Int(clamping: min(UInt64(Self.inputWindow), compressedLeft))
                guard let got = unsafe file.read(at: nextOffset, into: window, count: wanted), got > 0 else {
                    return fail("its data could not be read from the file")
                }
                nextOffset += UInt64(got)
                compressedLeft -= UInt64(got)
                unsafe state.pointee.next_in = window.assumingMemoryBound(to: UInt8.self)
                unsafe state.pointee.avail_in = UInt32(got)
            }
            let status = unsafe ISAL.inflate(state)
            guard status >= 0, status != ISAL_NEED_DICT else { return fail("its compressed data is damaged") }
            let left = unsafe state.pointee.avail_out
            let written = Int(capacity - left)
            if unsafe state.pointee.block_state == ISAL_BLOCK_FINISH {
                finished = true
                return written
            }
            if written > 0 { return written }
            guard unsafe state.pointee.avail_in > 0 || compressedLeft > 0 else {
                return fail("its compressed data ends before the member does (the member is damaged)")
            }
        }
    }

    /// The last chunk, once the size and the CRC agree with the central directory.
    private func verified(_ count: Int) -> Int? {
        guard produced == expectedSize else {
            return fail("it holds \(produced) bytes, but its central directory says \(expectedSize)")
        }
        guard crc == expectedCRC else {
            return fail("its data does not match its CRC (the member is damaged)")
        }
        return count
    }

    private func fail(_ reason: String) -> Int? {
        lastError = reason
        finished = true
        return nil
    }
}
