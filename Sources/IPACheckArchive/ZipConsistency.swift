import Foundation
import IPACheckBinary

/// The strict consistency check: every local header says what the central directory says of its member, and no
/// member's data runs into another's or into the directory.
///
/// A streaming extractor (iOS installs an ipa by streaming it) reads the local headers, a random-access one the
/// central directory: where they disagree, what installs is not what is checked. libzip's own check
/// (`ZIP_CHECKCONS`) also refused layouts APPNOTE 4.4.4 allows and real tools write: a member with a data
/// descriptor (flag bit 3) whose local header holds only some of CRC and sizes as zero (macOS's Archive Utility
/// writes the size), and a zip64 extra field present only locally. Those agree here.
///
/// ```
/// local file header (30 bytes + name + extra), little-endian:
///   "PK\3\4", version (2), flags (2, at 6), method (2, at 8), time (2), date (2), CRC (4, at 14),
///   compressed size (4, at 18), size (4, at 22), name length (2, at 26), extra length (2, at 28)
/// data descriptor (after the data, flag bit 3): ["PK\7\8"], CRC (4), compressed size, size (4 each, 8 in zip64)
/// ```
struct ZipConsistency {
    /// The first way the local headers disagree with the central directory, in words; `nil` while they agree.
    private(set) var disagreement: String?
    /// Where the previous member's bytes (descriptor included) end, and its name: while the members lie in
    /// directory order, comparing each with the previous one is the whole overlap check.
    private var previous: (end: UInt64, name: ArraySlice<UInt8>)?
    private var inFileOrder = true

    /// Compares the next member's local header (directory order) with its central one, and its bytes with the
    /// previous member's; after the first disagreement nothing more is compared.
    mutating func check(_ header: ZipCentralDirectory.Header, in file: ZipFileDescriptor) {
        guard disagreement == nil else { return }
        switch Self.span(of: header, in: file) {
        case .failure(let problem):
            disagreement = "\(String(decoding: header.name, as: UTF8.self)): \(problem.words)"
        case .success(let span):
            guard inFileOrder, let start = header.localOffset else { return }
            if let previous, start < previous.end {
                // Two members overlap, or this one lies before an earlier one: a sorted walk tells which.
                inFileOrder = false
                return
            }
            previous = (span.end, header.name)
        }
    }

    /// Whether the members' spans still need sorting to be compared (some member starts before an earlier one).
    var needsSortedWalk: Bool { disagreement == nil && !inFileOrder }

    /// The last check once every header is walked: the last member must end before the directory starts.
    mutating func finish(directoryOffset: UInt64) {
        guard disagreement == nil, inFileOrder, let previous, previous.end > directoryOffset else { return }
        disagreement = "\(String(decoding: previous.name, as: UTF8.self)) runs into the central directory"
    }

    /// The overlap check for members not stored in directory order: every span, sorted, compared with the next.
    static func overlap(
        of headers: some Sequence<ZipCentralDirectory.Header>,
        in file: ZipFileDescriptor,
        directoryOffset: UInt64
    ) -> String? {
        var spans: [(start: UInt64, end: UInt64, name: String)] = []
        for header in headers {
            guard let start = header.localOffset, case .success(let span) = span(of: header, in: file) else { continue }
            spans.append((start, span.end, String(decoding: header.name, as: UTF8.self)))
        }
        spans.sort { $0.start < $1.start }
        for (current, next) in zip(spans, spans.dropFirst()) where current.end > next.start {
            return "\(current.name) and \(next.name) overlap: two members share bytes"
        }
        if let last = spans.last, last.end > directoryOffset {
            return "\(last.name) runs into the central directory"
        }
        return nil
    }

    /// How a member's local header disagrees with its central one.
    struct Disagreement: Error {
        let words: String
    }

    /// Where a member's data starts, and where it (with its descriptor) ends.
    struct Span {
        let data: UInt64
        let end: UInt64
    }

    /// Where the member's data starts and ends, after comparing its local header with `header`.
    static func span(
        of header: ZipCentralDirectory.Header,
        in file: ZipFileDescriptor
    ) -> Result<Span, Disagreement> {
        guard let offset = header.localOffset else {
            return .failure(Disagreement(words: "its local header's offset is missing from its zip64 field"))
        }
        // The fixed part and, in the same read, the name and extra fields most headers fit in.
        guard let first = file.bytes(at: offset, count: 30 + 512), first.count >= 30 else {
            return .failure(Disagreement(words: "its local header at byte \(offset) is past the end of the file"))
        }
        var reader = ByteReader(first.prefix(30))
        do {
            guard try reader.readUInt32("local header signature", bigEndian: false) == 0x0403_4B50 else {
                return .failure(Disagreement(words: "there is no local header at byte \(offset)"))
            }
            try reader.skip(2, field: "version")
            let flags = try reader.readUInt16("flags", bigEndian: false)
            let method = try reader.readUInt16("method", bigEndian: false)
            try reader.skip(4, field: "time, date")
            let crc = try reader.readUInt32("CRC", bigEndian: false)
            let compressedSize = try reader.readUInt32("compressed size", bigEndian: false)
            let size = try reader.readUInt32("size", bigEndian: false)
            let nameLength = Int(try reader.readUInt16("name length", bigEndian: false))
            let extraLength = Int(try reader.readUInt16("extra length", bigEndian: false))
            let variable = nameLength + extraLength
            guard
                let rest = first.count >= 30 + variable
                    ? first[30..<30 + variable] : file.bytes(at: offset + 30, count: variable)?[...],
                rest.count == variable
            else {
                return .failure(Disagreement(words: "its local header is cut short"))
            }
            let localName = rest.prefix(nameLength)
            guard localName.elementsEqual(header.name) else {
                return .failure(
                    Disagreement(words: "its local header names it \(String(decoding: localName, as: UTF8.self))")
                )
            }
            guard method == header.method else {
                return .failure(
                    Disagreement(
                        words: "its local header says compression method \(method), its central one "
                            + "\(header.method)"
                    )
                )
            }
            // Bit 0 (encrypted) and bit 3 (data descriptor) change how the data is read: they must agree.
            guard (flags ^ header.flags) & 0x0009 == 0 else {
                return .failure(
                    Disagreement(
                        words: "its local and central headers disagree on encryption or on "
                            + "the data descriptor"
                    )
                )
            }
            var zip64 = ZipExtraFields(rest.dropFirst(nameLength)).zip64Values
            func widened(_ value: UInt32) -> UInt64 {
                value == 0xFFFF_FFFF && !zip64.isEmpty ? zip64.removeFirst() : UInt64(value)
            }
            let localSize = widened(size)
            let localCompressed = widened(compressedSize)
            let deferred = flags & 0x0008 != 0
            // With a data descriptor, a local value may be zero (APPNOTE 4.4.4) or already the right one.
            func agrees(_ local: UInt64, _ central: UInt64) -> Bool {
                local == central || (deferred && local == 0)
            }
            guard agrees(UInt64(crc), UInt64(header.crc)), agrees(localCompressed, header.compressedSize),
                agrees(localSize, header.size)
            else {
                return .failure(Disagreement(words: "its local header gives another CRC or size than the central one"))
            }
            let headerEnd = offset.addingReportingOverflow(30 + UInt64(nameLength + extraLength))
            let dataEnd = headerEnd.partialValue.addingReportingOverflow(header.compressedSize)
            guard !headerEnd.overflow, !dataEnd.overflow else {
                return .failure(Disagreement(words: "its sizes run past any file"))
            }
            let data = headerEnd.partialValue
            guard deferred else { return .success(Span(data: data, end: dataEnd.partialValue)) }
            // Some writers set bit 3 yet write the values locally and no descriptor: the next header follows.
            let complete =
                UInt64(crc) == UInt64(header.crc) && localCompressed == header.compressedSize
                && localSize == header.size
            return descriptor(after: dataEnd.partialValue, of: header, optional: complete, in: file).map {
                Span(data: data, end: $0)
            }
        } catch {
            return .failure(Disagreement(words: "its local header is cut short"))
        }
    }

    /// Compares the data descriptor after a member's data with its central header; where it ends.
    private static func descriptor(
        after start: UInt64,
        of header: ZipCentralDirectory.Header,
        optional: Bool,
        in file: ZipFileDescriptor
    ) -> Result<UInt64, Disagreement> {
        guard let bytes = file.bytes(at: start, count: 24) else {
            return .failure(Disagreement(words: "its data descriptor is past the end of the file"))
        }
        // A local or central header, or the end records, right after the data: no descriptor was written.
        let nextSignatures: Set<UInt32> = [0x0403_4B50, 0x0201_4B50, 0x0605_4B50, 0x0606_4B50]
        var peek = ByteReader(bytes)
        if optional, let next = try? peek.readUInt32("next signature", bigEndian: false), nextSignatures.contains(next)
        {
            return .success(start)
        }
        let wide = header.size > 0xFFFF_FFFF || header.compressedSize > 0xFFFF_FFFF
        var reader = ByteReader(bytes)
        var length: UInt64 = 0
        if (try? reader.readUInt32("descriptor signature", bigEndian: false)) == 0x0807_4B50 {
            length = 4
        } else {
            try? reader.seek(to: 0, field: "descriptor")
        }
        guard let crc = try? reader.readUInt32("descriptor CRC", bigEndian: false),
            let compressed = wide
                ? try? reader.readUInt64("descriptor compressed size", bigEndian: false)
                : (try? reader.readUInt32("descriptor compressed size", bigEndian: false)).map(UInt64.init),
            let size = wide
                ? try? reader.readUInt64("descriptor size", bigEndian: false)
                : (try? reader.readUInt32("descriptor size", bigEndian: false)).map(UInt64.init)
        else {
            return .failure(Disagreement(words: "its data descriptor is cut short"))
        }
        guard crc == header.crc, compressed == header.compressedSize, size == header.size else {
            return .failure(Disagreement(words: "its data descriptor gives another CRC or size than the central one"))
        }
        length += wide ? 20 : 12
        return .success(start + length)
    }
}
