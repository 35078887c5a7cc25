internal import CIsal
import Foundation

/// A gzip file (RFC 1952) read forward, inflated by ISA-L as it is read: what a sysdiagnose's `.tar.gz` is.
///
/// Concatenated gzip members (RFC 1952 §2.2) are read one after another, as `gzip -d` reads them. Each member's
/// CRC-32 and size are checked by ISA-L at its end. Nothing is held but a 256 KiB window of the file.
@safe package final class GzipStream {
    private let file: ZipFileDescriptor
    private var nextOffset: UInt64 = 0
    private let state: UnsafeMutablePointer<inflate_state>
    private let input: UnsafeMutableRawBufferPointer
    private var finished = false
    /// How many gzip members ended, and the output count where the current one started.
    private var membersDone = 0
    private var outputAtMemberStart: UInt32 = 0
    /// Decompressed bytes handed out so far.
    package private(set) var position: UInt64 = 0

    private static let inputWindow = 256 * 1024

    /// Opens the gzip file at `path`.
    ///
    /// - Throws: ``ArchiveError`` when it cannot be opened or does not start as gzip does.
    package init(path: String) throws(ArchiveError) {
        guard let file = ZipFileDescriptor(path: path) else {
            throw ArchiveError(.unreadable, reason: "cannot be opened")
        }
        guard let magic = file.bytes(at: 0, count: 2), magic == [0x1F, 0x8B] else {
            throw ArchiveError(.notAZip, reason: "is not a gzip file")
        }
        self.file = file
        unsafe state = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
        unsafe input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.inputWindow, alignment: 64)
        unsafe isal_inflate_init(state)
        // A gzip wrapper: ISA-L reads the header and checks the trailer's CRC-32 and size.
        unsafe state.pointee.crc_flag = UInt32(ISAL_GZIP)
        unsafe state.pointee.avail_in = 0
    }

    deinit {
        unsafe state.deallocate()
        unsafe input.deallocate()
    }

    /// Whether the first bytes of the file at `path` are gzip's magic number.
    package static func isGzip(path: String) -> Bool {
        ZipFileDescriptor(path: path)?.bytes(at: 0, count: 2) == [0x1F, 0x8B]
    }

    /// Inflates up to `buffer.count` bytes into the start of `buffer`; how many, 0 at the end of the last member.
    ///
    /// - Throws: ``ArchiveError`` (`damagedMember`) when the data is damaged or ends before its member does.
    package func read(into buffer: inout [UInt8]) throws(ArchiveError) -> Int {
        guard !finished, !buffer.isEmpty else { return 0 }
        // The array's storage is lent to ISA-L for the call only.
        let result = unsafe buffer.withUnsafeMutableBytes { output -> Result<Int, ArchiveError> in
            guard let base = output.baseAddress else { return .success(0) }
            return unsafe inflate(into: base, count: output.count)
        }
        let count = try result.get()
        position += UInt64(count)
        return count
    }

    /// Whether nothing of a next member has been inflated since the last one ended.
    private var betweenMembers: Bool {
        unsafe state.pointee.block_state == ISAL_BLOCK_NEW_HDR && state.pointee.total_out == outputAtMemberStart
    }

    private func inflate(into output: UnsafeMutableRawPointer, count: Int) -> Result<Int, ArchiveError> {
        guard let window = unsafe input.baseAddress else { return .success(0) }
        let capacity = UInt32(clamping: count)
        unsafe state.pointee.next_out = output.assumingMemoryBound(to: UInt8.self)
        unsafe state.pointee.avail_out = capacity
        while true {
            if unsafe state.pointee.avail_in == 0 {
                guard let got = unsafe file.read(at: nextOffset, into: window, count: Self.inputWindow) else {
                    return .failure(ArchiveError(.damagedMember, reason: "could not be read"))
                }
                nextOffset += UInt64(got)
                unsafe state.pointee.next_in = window.assumingMemoryBound(to: UInt8.self)
                unsafe state.pointee.avail_in = UInt32(got)
                if got == 0 {
                    finished = true
                    if membersDone > 0, betweenMembers { return .success(0) }
                    return .failure(
                        ArchiveError(.truncated, reason: "ends before its compressed data does (it is cut short)")
                    )
                }
            }
            let status = unsafe ISAL.inflate(state)
            let left = unsafe state.pointee.avail_out
            let written = Int(capacity - left)
            guard status >= 0 else {
                finished = true
                // Bytes after the last member that are not another one: ignored, as `gzip -d` ignores them.
                if membersDone > 0, betweenMembers { return .success(written) }
                let reason =
                    status == ISAL_INCORRECT_CHECKSUM
                    ? "does not match its CRC (the file is damaged)" : "holds damaged compressed data"
                return .failure(ArchiveError(.damagedMember, reason: reason))
            }
            if unsafe state.pointee.block_state == ISAL_BLOCK_FINISH {
                // The end of one gzip member: another may follow (RFC 1952 §2.2).
                unsafe isal_inflate_reset(state)
                unsafe state.pointee.crc_flag = UInt32(ISAL_GZIP)
                membersDone += 1
                outputAtMemberStart = unsafe state.pointee.total_out
                if written > 0 { return .success(written) }
                continue
            }
            if written > 0 { return .success(written) }
        }
    }
}
