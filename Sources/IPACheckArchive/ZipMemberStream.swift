import Foundation

/// A forward-only stream over one member: read what you need, skip the rest without keeping it.
///
/// Used to pull a Mach-O header and its code signature out of a large executable without holding the whole file.
/// The member is read at its offset and inflated by ISA-L (``ZipRawMember``), decompressed by libzip when that
/// cannot place it, or read from its file when the archive is a folder.
package final class ZipMemberStream {
    /// Where the bytes come from.
    enum Source {
        /// A libzip member (closed with the stream).
        case zip(ZipMemberFile)
        /// A stored or deflated member read at its offset in the file.
        case raw(ZipRawMember)
        /// A file of a folder.
        case file(FileHandle)
        /// Bytes already known (a symbolic link's target, a folder's empty content).
        case bytes([UInt8])
    }

    /// The member being read.
    package let entry: ZipEntry
    /// Decompressed bytes consumed so far.
    package private(set) var position: Int = 0

    private let source: Source
    private let archive: ZipArchive

    init(archive: ZipArchive, entry: ZipEntry, source: Source) {
        self.archive = archive
        self.entry = entry
        self.source = source
    }

    deinit {
        switch source {
        case .zip, .raw: break  // closed when `source` goes
        case .file(let handle): try? handle.close()
        case .bytes: break
        }
    }

    /// Reads up to `maximumCount` bytes; an empty result means the end of the member.
    package func read(maximumCount: Int) throws(ArchiveError) -> [UInt8] {
        guard maximumCount > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: maximumCount)
        let count = try read(into: &buffer)
        buffer.removeSubrange(count...)
        return buffer
    }

    /// Reads up to `buffer.count` bytes into `buffer` (reused between calls, so streaming a large member allocates
    /// nothing per chunk); returns how many were read, 0 at the end of the member.
    package func read(into buffer: inout [UInt8]) throws(ArchiveError) -> Int {
        guard !buffer.isEmpty else { return 0 }
        guard position < archive.limits.maximumStreamedBytes else {
            throw ArchiveError(
                .tooLarge,
                member: entry.name,
                reason: "member is larger than the \(archive.limits.maximumStreamedBytes)-byte streaming limit"
            )
        }
        let count: Int
        switch source {
        case .zip(let file):
            guard let got = file.read(into: &buffer) else {
                throw ArchiveError(.damagedMember, member: entry.name, reason: file.lastError)
            }
            count = got
        case .raw(let member):
            guard let got = member.read(into: &buffer) else {
                throw ArchiveError(.damagedMember, member: entry.name, reason: member.lastError)
            }
            count = got
        case .file(let handle):
            let data: Data?
            do {
                data = try handle.read(upToCount: buffer.count)
            } catch {
                throw ArchiveError(.damagedMember, member: entry.name, reason: "cannot be read: \(Self.words(error))")
            }
            let bytes = data ?? Data()
            buffer.replaceSubrange(0..<bytes.count, with: bytes)  // at most `buffer.count` bytes were asked for
            count = bytes.count
        case .bytes(let bytes):
            let rest = bytes.dropFirst(position).prefix(buffer.count)
            buffer.replaceSubrange(0..<rest.count, with: rest)
            count = rest.count
        }
        position += count
        return count
    }

    /// Reads exactly `count` bytes, or fewer only at the end of the member.
    package func read(exactly count: Int) throws(ArchiveError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(min(count, 1 << 20))
        while result.count < count {
            let chunk = try read(maximumCount: min(64 * 1024, count - result.count))
            if chunk.isEmpty { break }
            result.append(contentsOf: chunk)
        }
        return result
    }

    /// Discards bytes until ``position`` is `offset` (or the member ends); returns whether it got there.
    package func skip(to offset: Int) throws(ArchiveError) -> Bool {
        while position < offset {
            let chunk = try read(maximumCount: min(64 * 1024, offset - position))
            if chunk.isEmpty { return false }
        }
        return position == offset
    }

    /// A file error in words (`input/output error`), never Foundation's `Error Domain=…` dump.
    private static func words(_ error: any Error) -> String {
        let ns = error as NSError
        let posix = ns.domain == NSPOSIXErrorDomain ? ns : ns.userInfo[NSUnderlyingErrorKey] as? NSError
        guard let posix, posix.domain == NSPOSIXErrorDomain else { return "the system could not read it" }
        // strerror's answer is a NUL-terminated string, copied at once.
        let reason = unsafe String(cString: strerror(Int32(truncatingIfNeeded: posix.code)))
        return reason.prefix(1).lowercased() + reason.dropFirst()
    }
}
