import Foundation
import IPACheckBinary

/// Finds one member of a tar stream (POSIX ustar, pax and GNU long names) and reads it, skipping the rest without
/// keeping it: how a sysdiagnose's `swcutil_show.txt` is taken from an archive of hundreds of megabytes.
///
/// Nothing is written to disk, so member names (`../`, absolute) are only compared, never followed. Every header's
/// checksum, size and name is checked before use; memory is one 512-byte block and the member asked for, bounded
/// by `limit`.
///
/// ```
/// header block (512 bytes): name (100, at 0), mode, uid, gid (8 each), size (12, octal, at 124; GNU base-256
///   when its first byte has bit 7 set), mtime (12), checksum (8, octal, at 148), type (1, at 156), link name (100),
///   "ustar" (at 257), …, prefix (155, at 345)
/// types: '0' or NUL file, '5' folder, 'L' GNU long name (the data is the next member's name),
///   'x' pax header ("LEN key=value\n" records; path=), 'g' global pax header; data padded to 512 bytes
/// ```
package struct TarMemberSearch {
    /// The member found: its name and bytes, and how many members were passed over before it.
    package struct Found {
        package let name: String
        package let bytes: [UInt8]
        package let membersBefore: Int
    }

    /// Reads decompressed bytes: up to the buffer's size, 0 at the end.
    package typealias Source = (inout [UInt8]) throws(ArchiveError) -> Int

    private let source: Source
    /// Bytes read and not yet taken: `pending[pendingStart...]` (an index, so taking a header copies 512 bytes).
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    package init(source: @escaping Source) {
        self.source = source
    }

    /// The first regular file whose name satisfies `wanted`, read whole; `nil` when the archive ends without one.
    ///
    /// - Throws: ``ArchiveError``: a damaged header, a member cut short, or the member larger than `limit` bytes.
    package mutating func first(
        where wanted: (String) -> Bool,
        limit: Int
    ) throws(ArchiveError) -> Found? {
        var longName: String?
        var members = 0
        while true {
            let header = try take(512)
            guard header.count == 512 else {
                if header.isEmpty && members == 0 { throw ArchiveError(.notAZip, reason: "is an empty archive") }
                if header.isEmpty { return nil }
                throw ArchiveError(.truncated, reason: "ends inside a tar header (the archive is cut short)")
            }
            if header.allSatisfy({ $0 == 0 }) { return nil }
            try Self.checkChecksum(header, member: members)
            let size = try Self.size(of: header)
            let padded = size.addingReportingOverflow((512 - size % 512) % 512)
            guard !padded.overflow else { throw ArchiveError(.inconsistent, reason: "a tar member's size is wrong") }
            let type = header[156]
            let name = longName ?? Self.name(of: header)
            switch type {
            case UInt8(ascii: "L"), UInt8(ascii: "x"):
                // The next member's name, in the data (GNU) or in a pax `path=` record.
                guard size <= 64 * 1024 else {
                    throw ArchiveError(.inconsistent, reason: "a tar member's long name is over 64 KiB")
                }
                let data = try take(Int(padded.partialValue))
                guard data.count == Int(padded.partialValue) else { throw Self.cutShort }
                let value = Array(data.prefix(Int(size)))
                longName =
                    type == UInt8(ascii: "L")
                    ? String(decoding: value.prefix { $0 != 0 }, as: UTF8.self) : Self.paxPath(value) ?? longName
                continue
            case UInt8(ascii: "0"), 0, UInt8(ascii: "7"):
                longName = nil
                if wanted(name) {
                    guard size <= UInt64(limit) else {
                        throw ArchiveError(
                            .tooLarge,
                            member: name,
                            reason: "is \(size) bytes, more than the \(limit) read"
                        )
                    }
                    let data = try take(Int(padded.partialValue))
                    guard data.count == Int(padded.partialValue) else { throw Self.cutShort }
                    return Found(name: name, bytes: Array(data.prefix(Int(size))), membersBefore: members)
                }
            default:
                longName = nil
            }
            try skip(padded.partialValue)
            members += 1
        }
    }

    private static let cutShort = ArchiveError(.truncated, reason: "ends inside a member (the archive is cut short)")

    /// The header's name: the ustar prefix and the name, each up to its first NUL.
    private static func name(of header: [UInt8]) -> String {
        let name = header[0..<100].prefix { $0 != 0 }
        let isUstar = header[257..<262].elementsEqual("ustar".utf8)
        let prefix = isUstar ? header[345..<500].prefix { $0 != 0 } : []
        let full = prefix.isEmpty ? Array(name) : Array(prefix) + [UInt8(ascii: "/")] + Array(name)
        return String(decoding: full, as: UTF8.self)
    }

    /// The size field: octal digits (space- or NUL-terminated), or GNU's base-256 big-endian number.
    private static func size(of header: [UInt8]) throws(ArchiveError) -> UInt64 {
        let field = header[124..<136]
        if let first = field.first, first & 0x80 != 0 {
            var value: UInt64 = 0
            for (index, byte) in field.enumerated() {
                let digit = index == 0 ? UInt64(byte & 0x7F) : UInt64(byte)
                let shifted = value.multipliedReportingOverflow(by: 256)
                guard !shifted.overflow, value >> 56 == 0 else {
                    throw ArchiveError(.inconsistent, reason: "a tar member's size is too large")
                }
                value = shifted.partialValue | digit
            }
            return value
        }
        guard let value = octal(field) else {
            throw ArchiveError(.inconsistent, reason: "a tar header's size is not a number (the archive is damaged)")
        }
        return value
    }

    private static func octal(_ field: ArraySlice<UInt8>) -> UInt64? {
        let digits = field.drop { $0 == UInt8(ascii: " ") }.prefix { $0 != 0 && $0 != UInt8(ascii: " ") }
        var value: UInt64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "7"), value >> 60 == 0 else { return nil }
            value = value << 3 | UInt64(digit - UInt8(ascii: "0"))
        }
        return value
    }

    /// The checksum field equals the sum of the header's bytes with that field read as spaces (POSIX; some
    /// writers summed signed bytes, which is accepted too).
    private static func checkChecksum(_ header: [UInt8], member: Int) throws(ArchiveError) {
        guard let stored = octal(header[148..<156]) else {
            throw ArchiveError(.inconsistent, reason: "tar header \(member + 1) has no checksum (it is not a tar file)")
        }
        var unsigned: Int = 0
        var signed: Int = 0
        for (index, byte) in header.enumerated() {
            let value = (148..<156).contains(index) ? UInt8(ascii: " ") : byte
            unsigned += Int(value)
            signed += Int(Int8(bitPattern: value))
        }
        guard stored == UInt64(unsigned) || Int(exactly: stored) == signed else {
            throw ArchiveError(
                .inconsistent,
                reason: "tar header \(member + 1) does not match its checksum (the archive is damaged)"
            )
        }
    }

    /// The `path` of pax records (`"LEN key=value\n"`, repeated), when one is there.
    private static func paxPath(_ data: [UInt8]) -> String? {
        var path: String?
        var rest = data[...]
        while !rest.isEmpty {
            guard let space = rest.firstIndex(of: UInt8(ascii: " ")),
                let length = Int(String(decoding: rest[rest.startIndex..<space], as: UTF8.self)),
                length > 0, length <= rest.count
            else { break }
            let record = rest.prefix(length).dropFirst(space - rest.startIndex + 1)
            let text = String(decoding: record, as: UTF8.self)
            if text.hasPrefix("path="), text.hasSuffix("\n") {
                path = String(text.dropFirst(5).dropLast())
            }
            rest = rest.dropFirst(length)
        }
        return path
    }

    // MARK: - Reading the stream

    /// Up to `count` bytes (fewer only at the end of the stream).
    private mutating func take(_ count: Int) throws(ArchiveError) -> [UInt8] {
        if pending.count - pendingStart < count {
            pending.removeFirst(pendingStart)
            pendingStart = 0
            while pending.count < count {
                let got = try source(&buffer)
                if got == 0 { break }
                pending += buffer[0..<got]
            }
        }
        let end = min(pending.count, pendingStart + count)
        let taken = Array(pending[pendingStart..<end])
        pendingStart = end
        return taken
    }

    /// Discards `count` bytes.
    private mutating func skip(_ count: UInt64) throws(ArchiveError) {
        let available = UInt64(pending.count - pendingStart)
        if count <= available {
            pendingStart += Int(count)
            return
        }
        var left = count - available
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        while left > 0 {
            let got = try source(&buffer)
            guard got > 0 else { throw Self.cutShort }
            if UInt64(got) > left {
                pending = Array(buffer[Int(left)..<got])
                left = 0
            } else {
                left -= UInt64(got)
            }
        }
    }
}
