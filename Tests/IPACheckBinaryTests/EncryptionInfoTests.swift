import IPACheckBinary
import IPACheckTestSupport
import Testing

/// The FairPlay encryption load commands, as `<mach-o/loader.h>` defines them.
///
/// `LC_ENCRYPTION_INFO` (0x21, 20 bytes) and `LC_ENCRYPTION_INFO_64` (0x2c, 24 bytes): `cmd, cmdsize, cryptoff,
/// cryptsize, cryptid` (and `pad`). Slices are generated with ``MachOBuilder``; the expected values are the ones
/// written into them.
struct EncryptionInfoTests {
    /// A thin little-endian 64-bit slice whose load commands are exactly `commands` (each `cmd, cmdsize, words…`).
    private static func slice(commands: [[UInt32]], padding: Int = 0x10000) -> [UInt8] {
        func le(_ value: UInt32) -> [UInt8] { [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let body = commands.flatMap { $0.flatMap(le) }
        var out = le(0xfeed_facf) + le(0x0100_000c) + le(0) + le(2)
        out += le(UInt32(commands.count)) + le(UInt32(body.count)) + le(0) + le(0)
        out += body
        return out + [UInt8](repeating: 0x33, count: padding)
    }

    @Test func readsTheSixtyFourBitCommandAsWritten() throws {
        let bytes = MachOBuilder.slice(bodySize: 40_000, cryptID: 1, cryptOffset: 0x4000, cryptSize: 0x4000)
        let slice = try #require(try MachOContainer.parse(bytes).slices.first)
        let encryption = try #require(slice.loadCommands.encryption)
        #expect(encryption == EncryptionInfo(offset: 0x4000, size: 0x4000, cryptID: 1))
        #expect(slice.loadCommands.commands.first?.type == .encryptionInfo64)
        #expect(slice.loadCommands.commands.first?.size == 24)
        #expect(slice.isEncrypted)
        #expect(slice.encryptedRange == 16_384..<32_768)
        // 4096-byte pages: bytes 16384..<32768 are pages 4, 5, 6 and 7.
        #expect(encryption.pages(pageSize: 4096, pageCount: 10) == 4..<8)
        // 16 KB pages: page 1 only.
        #expect(encryption.pages(pageSize: 16_384, pageCount: 3) == 1..<2)
    }

    @Test(arguments: [false, true])
    func readsTheThirtyTwoBitCommandInEitherByteOrder(bigEndian: Bool) throws {
        let bytes = MachOBuilder.slice(
            cpuType: 12,
            cpuSubtype: 9,
            is64Bit: false,
            bigEndian: bigEndian,
            bodySize: 20_000,
            cryptID: 1,
            cryptOffset: 0x1000,
            cryptSize: 0x2000
        )
        let slice = try #require(try MachOContainer.parse(bytes).slices.first)
        #expect(slice.loadCommands.commands.first?.type == .encryptionInfo)
        #expect(slice.loadCommands.encryption == EncryptionInfo(offset: 0x1000, size: 0x2000, cryptID: 1))
        #expect(slice.encryptedRange == 4096..<12_288)
    }

    @Test func aDecryptedOrNeverEncryptedSliceHasNoEncryptedRange() throws {
        let bytes = MachOBuilder.slice(bodySize: 40_000, cryptID: 0, cryptOffset: 0x4000, cryptSize: 0x4000)
        let slice = try #require(try MachOContainer.parse(bytes).slices.first)
        #expect(slice.loadCommands.encryption?.cryptID == 0)
        #expect(!slice.isEncrypted)
        #expect(slice.encryptedRange == nil)
    }

    @Test(
        "a range past the slice, or empty, names no encrypted bytes",
        arguments: [
            (UInt32(0x4000), UInt32(0x10_0000)),  // ends past the 0x10000-odd-byte slice
            (0xffff_ff00, 0x1000),  // offset near 2^32: the end is computed in 64 bits, no overflow
            (0xffff_ffff, 0xffff_ffff),
            (0x4000, 0),
        ]
    )
    func outOfRangeIsNil(offset: UInt32, size: UInt32) throws {
        let bytes = Self.slice(commands: [[0x2c, 24, offset, size, 1, 0]])
        let slice = try #require(try MachOContainer.parse(bytes).slices.first)
        #expect(slice.isEncrypted)
        #expect(slice.encryptedRange == nil)
        let encryption = try #require(slice.loadCommands.encryption)
        #expect(encryption.range(inSliceOf: bytes.count) == nil)
        // Page arithmetic stays inside the pages that exist.
        let pages = encryption.pages(pageSize: 4096, pageCount: 17)
        #expect(pages.lowerBound >= 0 && pages.upperBound <= 17)
    }

    @Test func pagesOfARangeInsideOnePage() {
        let encryption = EncryptionInfo(offset: 0x4100, size: 0x100, cryptID: 1)
        #expect(encryption.pages(pageSize: 4096, pageCount: 10) == 4..<5)
        #expect(encryption.pages(pageSize: 4096, pageCount: 4) == 4..<4)  // past the code limit: none
        #expect(encryption.pages(pageSize: 0, pageCount: 10) == 0..<0)
    }

    @Test func rejectsASixtyFourBitCommandShorterThanItsStruct() throws {
        // cmdsize 20 fits LC_ENCRYPTION_INFO but not LC_ENCRYPTION_INFO_64 (24 bytes with `pad`).
        let bytes = Self.slice(commands: [[0x2c, 20, 0x4000, 0x1000, 1]])
        #expect(throws: ParseError(.truncated, field: "encryption_info_command.cmdsize")) {
            try MachOContainer.parse(bytes)
        }
    }

    @Test func rejectsAThirtyTwoBitCommandShorterThanItsStruct() throws {
        let bytes = Self.slice(commands: [[0x21, 16, 0x4000, 0x1000]])
        #expect(throws: ParseError(.truncated, field: "encryption_info_command.cmdsize")) {
            try MachOContainer.parse(bytes)
        }
    }

    @Test func rejectsASecondEncryptionCommand() throws {
        // A slice has one encrypted range; a second command would leave which one applies to chance.
        let bytes = Self.slice(commands: [[0x2c, 24, 0x4000, 0x1000, 0, 0], [0x2c, 24, 0x4000, 0x1000, 1, 0]])
        #expect(throws: ParseError(.invalidValue, field: "LC_ENCRYPTION_INFO")) {
            try MachOContainer.parse(bytes)
        }
    }
}
