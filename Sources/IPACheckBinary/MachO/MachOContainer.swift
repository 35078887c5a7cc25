/// One architecture's complete Mach-O inside a file: its place, header, load commands and code signature.
package struct MachOSlice: Hashable, Sendable {
    /// The slice's bytes in the file (the whole file for a thin binary).
    package let range: Range<Int>
    /// The Mach-O header.
    package let header: MachOHeader
    /// The load commands and what ipacheck reads from them.
    package let loadCommands: LoadCommands
    /// The code signature, or `nil` for an unsigned slice (no `LC_CODE_SIGNATURE`).
    package let signature: CodeSignature?

    /// The CPU type and subtype (from the slice's own header).
    package var architecture: Architecture { header.architecture }

    /// The FairPlay-encrypted bytes (offsets from the slice's start), when `LC_ENCRYPTION_INFO(_64)` says the
    /// slice is still encrypted (`cryptid` ≠ 0) and its range lies inside the slice; `nil` otherwise.
    package var encryptedRange: Range<Int>? {
        guard let encryption = loadCommands.encryption, encryption.isEncrypted else { return nil }
        return encryption.range(inSliceOf: range.count)
    }

    /// Whether `LC_ENCRYPTION_INFO(_64)` says the slice is still FairPlay-encrypted (`cryptid` ≠ 0).
    package var isEncrypted: Bool { loadCommands.encryption?.isEncrypted ?? false }

    /// The signature's bytes in the file, if the slice is signed.
    package var signatureFileRange: Range<Int>? {
        loadCommands.codeSignatureRange.map { (range.lowerBound + $0.lowerBound)..<(range.lowerBound + $0.upperBound) }
    }
}

/// A thin Mach-O or a universal (fat) binary, parsed down to each slice's code signature.
///
/// Fat header and arch table (big-endian):
///
/// ```c
/// struct fat_header { uint32_t magic; uint32_t nfat_arch; };   // FAT_MAGIC or FAT_MAGIC_64
/// struct fat_arch {                                           // 20 bytes
///     cpu_type_t cputype; cpu_subtype_t cpusubtype;
///     uint32_t offset; uint32_t size; uint32_t align;
/// };
/// struct fat_arch_64 {                                        // 32 bytes
///     cpu_type_t cputype; cpu_subtype_t cpusubtype;
///     uint64_t offset; uint64_t size; uint32_t align; uint32_t reserved;
/// };
/// ```
package struct MachOContainer: Hashable, Sendable {
    /// How the file is laid out.
    package enum Format: String, Hashable, Sendable {
        /// A single Mach-O.
        case thin
        /// A universal binary with 32-bit arch entries (`FAT_MAGIC`).
        case fat
        /// A universal binary with 64-bit arch entries (`FAT_MAGIC_64`).
        case fat64
    }

    /// The result of ``scan(_:)``: either the parsed container or the byte ranges still needed.
    package enum ScanResult: Hashable, Sendable {
        /// Everything needed was present.
        case complete(MachOContainer)
        /// These ranges (ascending, non-overlapping) must be added before scanning again.
        case needsBytes([Range<Int>])
    }

    /// The most slices accepted in a fat binary (Apple's tools handle a handful).
    package static let maximumSliceCount = 64

    /// Thin or fat.
    package let format: Format
    /// Every slice, in file order of the arch table.
    package let slices: [MachOSlice]

    /// The architecture names of all slices (`["armv7", "arm64"]`).
    package var architectureNames: [String] { slices.map(\.architecture.name) }

    /// Parses a whole file: fat header, every slice's header and load commands, every code signature.
    ///
    /// - Throws: ``ParseError`` for anything malformed (truncated, bad magic, offsets outside the file).
    package static func parse(_ bytes: [UInt8]) throws(ParseError) -> MachOContainer {
        switch try scan(PartialFile(bytes: bytes)) {
        case .complete(let container):
            return container
        case .needsBytes(let ranges):
            // Cannot happen for a whole file: every range is checked against the size before it is requested.
            throw ParseError(.truncated, field: "Mach-O", reason: "needs \(ranges.words)")
        }
    }

    /// Parses as much as the known bytes of `file` allow, and names the ranges still needed.
    ///
    /// Use it to read an executable from a stream without keeping all of it: start with
    /// `PartialFile(size:)`, add the prefix you have, call `scan`, add the requested ranges, repeat until
    /// `.complete`. At most four rounds: the fat header, the arch table, each slice's header, each slice's load
    /// commands, each slice's signature. Each round's ranges lie after the ranges that named them.
    ///
    /// - Throws: ``ParseError`` when what is known is malformed or a range lies outside the file.
    package static func scan(_ file: PartialFile) throws(ParseError) -> ScanResult {
        let format: Format
        let sliceRanges: [Range<Int>]
        switch try layout(file) {
        case .needsBytes(let range): return .needsBytes([range])
        case .known(let knownFormat, let ranges): (format, sliceRanges) = (knownFormat, ranges)
        }

        var needed: [Range<Int>] = []
        var slices: [MachOSlice] = []
        for sliceRange in sliceRanges {
            switch try scanSlice(file, range: sliceRange) {
            case .complete(let slice): slices.append(slice)
            case .needsBytes(let range): needed.append(range)
            }
        }
        guard needed.isEmpty else { return .needsBytes(needed.sorted { $0.lowerBound < $1.lowerBound }) }
        return .complete(MachOContainer(format: format, slices: slices))
    }

    private enum Layout {
        case known(Format, [Range<Int>])
        case needsBytes(Range<Int>)
    }

    /// The format and slice ranges, from the fat header and arch table (a thin file is one slice).
    private static func layout(_ file: PartialFile) throws(ParseError) -> Layout {
        guard file.size >= 4 else {
            throw ParseError(
                .truncated,
                field: "file header",
                at: 0,
                reason: "a \(file.size)-byte file has no magic number"
            )
        }
        guard let head = file.bytes(in: 0..<min(8, file.size)) else { return .needsBytes(0..<min(8, file.size)) }
        var headReader = ByteReader(head)
        let magic = try headReader.readUInt32BE("magic")
        switch MachOMagic(rawValue: magic) {
        case .fat, .fat64:
            let format: Format = magic == MachOMagic.fat.rawValue ? .fat : .fat64
            let count = try Int.checked(try headReader.readUInt32BE("fat_header.nfat_arch"), field: "nfat_arch")
            guard count > 0, count <= maximumSliceCount else {
                throw ParseError(
                    .limitExceeded,
                    field: "fat_header.nfat_arch",
                    at: 4,
                    reason: "\(count) slices (1 to \(maximumSliceCount) accepted)"
                )
            }
            let entrySize = format == .fat ? 20 : 32
            let table = 8..<(8 + count * entrySize)
            guard table.upperBound <= file.size else {
                throw ParseError(
                    .truncated,
                    field: "fat_arch",
                    at: 8,
                    reason: "\(count) arch entries need \(table.upperBound) bytes, file has \(file.size)"
                )
            }
            guard let tableBytes = file.bytes(in: table) else { return .needsBytes(table) }
            return .known(format, try parseArchTable(tableBytes, count: count, format: format, fileSize: file.size))
        case .machO32, .machO32Swapped, .machO64, .machO64Swapped:
            return .known(.thin, [0..<file.size])
        case nil:
            throw ParseError(
                .badMagic,
                field: "file header",
                at: 0,
                reason: "0x\(String(magic, radix: 16)) is neither a Mach-O nor a universal binary"
            )
        }
    }

    /// Where a slice's code signature starts, as far as the bytes known so far tell.
    package enum SignatureStart: Hashable, Sendable {
        /// The slice's header or load commands have not arrived yet.
        case unknown
        /// The slice has no `LC_CODE_SIGNATURE`.
        case unsigned
        /// The signature starts at this offset of the file: the end of the code its CodeDirectory hashes.
        case at(Int)
    }

    /// For each slice whose place is known, where its signature starts.
    ///
    /// That is what a stream that hashes code pages needs to know before the bytes there pass by. Malformed bytes
    /// give no answer (``scan(_:)`` reports them).
    package static func signatureStarts(_ file: PartialFile) -> [(slice: Range<Int>, start: SignatureStart)] {
        guard case .known(_, let ranges)? = try? layout(file) else { return [] }
        return ranges.map { range in
            let start = range.lowerBound
            let headerRange = start..<(start + min(32, range.count))
            guard let headerBytes = file.bytes(in: headerRange) else { return (range, .unknown) }
            var headerReader = ByteReader(headerBytes, baseOffset: start)
            guard let header = try? MachOHeader.parse(&headerReader),
                let commandsSize = try? Int.checked(header.sizeOfCommands, field: "mach_header.sizeofcmds"),
                commandsSize <= range.upperBound - (start + header.size)
            else { return (range, .unknown) }
            let commandsRange = (start + header.size)..<(start + header.size + commandsSize)
            guard let commandBytes = file.bytes(in: commandsRange),
                let commands = try? LoadCommands.parse(
                    ByteReader(commandBytes, baseOffset: commandsRange.lowerBound),
                    header: header,
                    sliceOffset: header.size
                )
            else { return (range, .unknown) }
            guard let signature = commands.codeSignatureRange else { return (range, .unsigned) }
            guard signature.upperBound <= range.count else { return (range, .unknown) }
            return (range, .at(start + signature.lowerBound))
        }
    }

    private enum SliceScan {
        case complete(MachOSlice)
        case needsBytes(Range<Int>)
    }

    private static func scanSlice(_ file: PartialFile, range: Range<Int>) throws(ParseError) -> SliceScan {
        let start = range.lowerBound
        let headerRange = start..<(start + min(32, range.count))
        guard let headerBytes = file.bytes(in: headerRange) else { return .needsBytes(headerRange) }
        var headerReader = ByteReader(headerBytes, baseOffset: start)
        let header = try MachOHeader.parse(&headerReader)
        let commandsSize = try Int.checked(header.sizeOfCommands, field: "mach_header.sizeofcmds")
        let commandsStart = start + header.size
        guard commandsSize <= range.upperBound - commandsStart else {
            throw ParseError(
                .outOfBounds,
                field: "mach_header.sizeofcmds",
                at: start + 20,
                reason: "\(commandsSize) bytes of load commands pass the \(range.count)-byte slice"
            )
        }
        let commandsRange = commandsStart..<(commandsStart + commandsSize)
        guard let commandBytes = file.bytes(in: commandsRange) else { return .needsBytes(commandsRange) }
        let commands = try LoadCommands.parse(
            ByteReader(commandBytes, baseOffset: commandsStart),
            header: header,
            sliceOffset: header.size
        )
        var signature: CodeSignature?
        if let signatureRange = commands.codeSignatureRange {
            guard signatureRange.upperBound <= range.count else {
                throw ParseError(
                    .outOfBounds,
                    field: "LC_CODE_SIGNATURE.dataoff",
                    at: start,
                    reason: "the signature (\(signatureRange.words)) passes the \(range.count)-byte slice"
                )
            }
            let fileRange = (start + signatureRange.lowerBound)..<(start + signatureRange.upperBound)
            guard let signatureBytes = file.bytes(in: fileRange) else { return .needsBytes(fileRange) }
            signature = try CodeSignature.parse(signatureBytes, baseOffset: fileRange.lowerBound)
        }
        return .complete(MachOSlice(range: range, header: header, loadCommands: commands, signature: signature))
    }

    private static func parseArchTable(
        _ bytes: ArraySlice<UInt8>,
        count: Int,
        format: Format,
        fileSize: Int
    ) throws(ParseError) -> [Range<Int>] {
        var reader = ByteReader(bytes, baseOffset: 8)
        let tableEnd = 8 + bytes.count
        var ranges: [Range<Int>] = []
        for index in 0..<count {
            _ = try reader.readUInt32BE("fat_arch.cputype")
            _ = try reader.readUInt32BE("fat_arch.cpusubtype")
            let offset: Int
            let size: Int
            if format == .fat {
                offset = try Int.checked(try reader.readUInt32BE("fat_arch.offset"), field: "fat_arch.offset")
                size = try Int.checked(try reader.readUInt32BE("fat_arch.size"), field: "fat_arch.size")
                _ = try reader.readUInt32BE("fat_arch.align")
            } else {
                offset = try Int.checked(try reader.readUInt64BE("fat_arch_64.offset"), field: "fat_arch_64.offset")
                size = try Int.checked(try reader.readUInt64BE("fat_arch_64.size"), field: "fat_arch_64.size")
                _ = try reader.readUInt32BE("fat_arch_64.align")
                _ = try reader.readUInt32BE("fat_arch_64.reserved")
            }
            let (end, overflow) = offset.addingReportingOverflow(size)
            guard !overflow, offset >= tableEnd, end <= fileSize, size > 0 else {
                throw ParseError(
                    .outOfBounds,
                    field: "fat_arch[\(index)].offset",
                    at: 8 + index * (format == .fat ? 20 : 32),
                    reason: "slice at \(offset) of \(size) bytes lies outside \(tableEnd)..<\(fileSize)"
                )
            }
            let range = offset..<end
            guard !ranges.contains(where: { $0.overlaps(range) }) else {
                throw ParseError(
                    .outOfBounds,
                    field: "fat_arch[\(index)].offset",
                    at: 8 + index * (format == .fat ? 20 : 32),
                    reason: "the slice (\(range.words)) overlaps another slice"
                )
            }
            ranges.append(range)
        }
        return ranges
    }
}
