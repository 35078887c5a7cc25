/// The header at the start of every Mach-O slice, read in the slice's own byte order.
///
/// ```c
/// struct mach_header {            // 28 bytes; mach_header_64 adds `uint32_t reserved` (32 bytes)
///     uint32_t      magic;        // MH_MAGIC, MH_CIGAM, MH_MAGIC_64, MH_CIGAM_64
///     cpu_type_t    cputype;
///     cpu_subtype_t cpusubtype;
///     uint32_t      filetype;     // MH_EXECUTE, MH_DYLIB, ...
///     uint32_t      ncmds;        // number of load commands
///     uint32_t      sizeofcmds;   // their total size in bytes
///     uint32_t      flags;
/// };
/// ```
package struct MachOHeader: Hashable, Sendable {
    /// Whether this is a 64-bit header (`MH_MAGIC_64`).
    package let is64Bit: Bool
    /// Whether the slice's integers are big-endian (only PowerPC-era files).
    package let isBigEndian: Bool
    /// The CPU type and subtype.
    package let architecture: Architecture
    /// `filetype` as stored.
    package let rawFileType: UInt32
    /// `ncmds`.
    package let numberOfCommands: UInt32
    /// `sizeofcmds`.
    package let sizeOfCommands: UInt32
    /// `flags` (`MH_PIE`, ...).
    package let flags: UInt32

    /// The file type, if it is one `<mach-o/loader.h>` defines.
    package var fileType: MachOFileType? { MachOFileType(rawValue: rawFileType) }

    /// The header's size in bytes: 28 for 32-bit, 32 for 64-bit; load commands follow directly.
    package var size: Int { is64Bit ? 32 : 28 }

    /// Reads a header at the reader's position.
    ///
    /// - Throws: ``ParseError`` with `.badMagic` when the bytes are not a Mach-O header, `.truncated` when short.
    package static func parse(_ reader: inout ByteReader) throws(ParseError) -> MachOHeader {
        let magicValue = try reader.readUInt32BE("mach_header.magic")
        let is64Bit: Bool
        let isBigEndian: Bool
        switch MachOMagic(rawValue: magicValue) {
        case .machO32: (is64Bit, isBigEndian) = (false, true)
        case .machO32Swapped: (is64Bit, isBigEndian) = (false, false)
        case .machO64: (is64Bit, isBigEndian) = (true, true)
        case .machO64Swapped: (is64Bit, isBigEndian) = (true, false)
        default:
            throw ParseError(
                .badMagic,
                field: "mach_header.magic",
                at: reader.baseOffset + reader.offset - 4,
                reason: "0x\(String(magicValue, radix: 16)) is not a Mach-O magic number"
            )
        }
        let cpuType = try reader.readUInt32("mach_header.cputype", bigEndian: isBigEndian)
        let cpuSubtype = try reader.readUInt32("mach_header.cpusubtype", bigEndian: isBigEndian)
        let fileType = try reader.readUInt32("mach_header.filetype", bigEndian: isBigEndian)
        let count = try reader.readUInt32("mach_header.ncmds", bigEndian: isBigEndian)
        let size = try reader.readUInt32("mach_header.sizeofcmds", bigEndian: isBigEndian)
        let flags = try reader.readUInt32("mach_header.flags", bigEndian: isBigEndian)
        if is64Bit {
            _ = try reader.readUInt32("mach_header_64.reserved", bigEndian: isBigEndian)
        }
        return MachOHeader(
            is64Bit: is64Bit,
            isBigEndian: isBigEndian,
            architecture: Architecture(cpuType: cpuType, cpuSubtype: cpuSubtype),
            rawFileType: fileType,
            numberOfCommands: count,
            sizeOfCommands: size,
            flags: flags
        )
    }
}

/// One load command's place in the slice: its `cmd` and where its bytes lie.
///
/// ```c
/// struct load_command { uint32_t cmd; uint32_t cmdsize; };
/// ```
package struct LoadCommand: Hashable, Sendable {
    /// `cmd` as stored (see ``LoadCommandType`` for the ones we interpret).
    package let rawType: UInt32
    /// Offset of the command from the start of the slice.
    package let offset: Int
    /// `cmdsize`: the command's size in bytes, header included.
    package let size: Int

    /// The command's type, if we interpret it.
    package var type: LoadCommandType? { LoadCommandType(rawValue: rawType & ~0x8000_0000) }
}

/// `LC_ENCRYPTION_INFO(_64)`: the FairPlay-encrypted range and whether it is still encrypted.
///
/// ```c
/// struct encryption_info_command {      // LC_ENCRYPTION_INFO, 20 bytes
///     uint32_t cmd, cmdsize;
///     uint32_t cryptoff;   // file offset of the encrypted range, from the start of the slice
///     uint32_t cryptsize;  // its size
///     uint32_t cryptid;    // 0 = not encrypted (decrypted or never encrypted); 1 = FairPlay
/// };
/// struct encryption_info_command_64 {   // LC_ENCRYPTION_INFO_64, 24 bytes
///     uint32_t cmd, cmdsize, cryptoff, cryptsize, cryptid;
///     uint32_t pad;        // keeps the command a multiple of 8 bytes
/// };
/// ```
///
/// The App Store encrypts the range after signing, and the code signature's page hashes are of the encrypted
/// bytes: the kernel's FairPlay pager checks each page it reads from the file against the CodeDirectory and
/// only then decrypts it (XNU `osfmk/vm/vm_apple_protect.c`, `apple_protect_pager_data_request`).
package struct EncryptionInfo: Hashable, Sendable {
    /// The smallest `cmdsize` of `LC_ENCRYPTION_INFO` (`sizeof(struct encryption_info_command)`).
    package static let commandSize = 20
    /// The smallest `cmdsize` of `LC_ENCRYPTION_INFO_64` (`sizeof(struct encryption_info_command_64)`).
    package static let command64Size = 24

    /// `cryptoff`.
    package let offset: UInt32
    /// `cryptsize`.
    package let size: UInt32
    /// `cryptid`: non-zero when the App Store's FairPlay encryption is still applied.
    package let cryptID: UInt32

    /// Creates the command's values as stored.
    package init(offset: UInt32, size: UInt32, cryptID: UInt32) {
        self.offset = offset
        self.size = size
        self.cryptID = cryptID
    }

    /// Whether the code is still encrypted (a store download that was not decrypted).
    package var isEncrypted: Bool { cryptID != 0 }

    /// The encrypted bytes as offsets from the start of the slice (`cryptoff..<cryptoff + cryptsize`).
    ///
    /// Both values are `UInt32`, so the sum is done in `UInt64` and cannot overflow.
    package var byteRange: Range<UInt64> { UInt64(offset)..<(UInt64(offset) + UInt64(size)) }

    /// The encrypted range inside a slice of `sliceLength` bytes, or `nil` when it is empty or does not lie
    /// wholly inside the slice (a malformed command: the kernel maps no such range).
    package func range(inSliceOf sliceLength: Int) -> Range<Int>? {
        guard size > 0, let length = UInt64(exactly: sliceLength), byteRange.upperBound <= length,
            let lower = Int(exactly: byteRange.lowerBound), let upper = Int(exactly: byteRange.upperBound)
        else { return nil }
        return lower..<upper
    }

    /// The indices of the pages of `pageSize` bytes (from the start of the slice) that hold encrypted bytes,
    /// among the first `pageCount`; empty when the range is empty.
    package func pages(pageSize: Int, pageCount: Int) -> Range<Int> {
        guard size > 0, pageSize > 0, pageCount > 0, let size64 = UInt64(exactly: pageSize) else { return 0..<0 }
        // Page numbers of the first and last encrypted byte; both fit in Int (at most 2^32 / 1).
        let first = Int(clamping: byteRange.lowerBound / size64)
        let last = Int(clamping: (byteRange.upperBound - 1) / size64)
        let lower = min(first, pageCount)
        let upper = min(last + 1, pageCount)
        return lower..<max(lower, upper)
    }
}

/// What the load commands of one slice say that ipacheck needs.
package struct LoadCommands: Hashable, Sendable {
    /// The largest `ncmds` accepted; each command takes at least 8 bytes of `sizeofcmds` anyway.
    package static let maximumCount = 65_536

    /// Every command, in file order.
    package let commands: [LoadCommand]
    /// The signature's range inside the slice (`LC_CODE_SIGNATURE` `dataoff`..<`dataoff + datasize`).
    package let codeSignatureRange: Range<Int>?
    /// `LC_ENCRYPTION_INFO(_64)`, if present.
    package let encryption: EncryptionInfo?

    /// Reads `header.numberOfCommands` commands from `reader`, which holds exactly the `sizeofcmds` bytes after
    /// the header; `sliceOffset` is where those bytes start in the slice (the header's size).
    ///
    /// Every `cmdsize` must be at least 8 and stay inside `sizeofcmds`.
    package static func parse(
        _ reader: ByteReader,
        header: MachOHeader,
        sliceOffset: Int
    ) throws(ParseError) -> LoadCommands {
        let count = try Int.checked(header.numberOfCommands, field: "mach_header.ncmds")
        guard count <= maximumCount, count <= reader.count / 8 else {
            throw ParseError(
                .limitExceeded,
                field: "mach_header.ncmds",
                at: reader.baseOffset,
                reason: "\(count) load commands cannot fit in \(reader.count) bytes of sizeofcmds"
            )
        }
        let order = header.isBigEndian
        var commands: [LoadCommand] = []
        commands.reserveCapacity(count)
        var signature: Range<Int>?
        var encryption: EncryptionInfo?
        var position = 0
        for _ in 0..<count {
            var command = try reader.subReader(at: position, count: 8, field: "load_command")
            let type = try command.readUInt32("load_command.cmd", bigEndian: order)
            let size = try Int.checked(
                try command.readUInt32("load_command.cmdsize", bigEndian: order),
                field: "cmdsize"
            )
            guard size >= 8 else {
                throw ParseError(
                    .invalidValue,
                    field: "load_command.cmdsize",
                    at: reader.baseOffset + position,
                    reason: "cmdsize \(size) is smaller than a load command header"
                )
            }
            var body = try reader.subReader(at: position, count: size, field: "load_command.cmdsize")
            try body.skip(8, field: "load_command")
            let entry = LoadCommand(rawType: type, offset: sliceOffset + position, size: size)
            switch entry.type {
            case .codeSignature:
                let dataOffset = try Int.checked(
                    try body.readUInt32("linkedit_data_command.dataoff", bigEndian: order),
                    field: "dataoff"
                )
                let dataSize = try Int.checked(
                    try body.readUInt32("linkedit_data_command.datasize", bigEndian: order),
                    field: "datasize"
                )
                // Both are at most UInt32.max, so the sum cannot overflow Int on 64-bit hosts; check anyway.
                let (end, overflow) = dataOffset.addingReportingOverflow(dataSize)
                guard !overflow else {
                    throw ParseError(
                        .outOfBounds,
                        field: "LC_CODE_SIGNATURE.datasize",
                        at: reader.baseOffset + position
                    )
                }
                signature = dataOffset..<end
            case .encryptionInfo, .encryptionInfo64:
                let minimum =
                    entry.type == .encryptionInfo64 ? EncryptionInfo.command64Size : EncryptionInfo.commandSize
                guard size >= minimum else {
                    throw ParseError(
                        .truncated,
                        field: "encryption_info_command.cmdsize",
                        at: reader.baseOffset + position,
                        reason: "cmdsize \(size) is smaller than the \(minimum) bytes of the command"
                    )
                }
                guard encryption == nil else {
                    throw ParseError(
                        .invalidValue,
                        field: "LC_ENCRYPTION_INFO",
                        at: reader.baseOffset + position,
                        reason: "a slice has at most one encryption command; this is the second"
                    )
                }
                encryption = EncryptionInfo(
                    offset: try body.readUInt32("encryption_info_command.cryptoff", bigEndian: order),
                    size: try body.readUInt32("encryption_info_command.cryptsize", bigEndian: order),
                    cryptID: try body.readUInt32("encryption_info_command.cryptid", bigEndian: order)
                )
            default:
                break
            }
            commands.append(entry)
            position += size
        }
        return LoadCommands(commands: commands, codeSignatureRange: signature, encryption: encryption)
    }
}
