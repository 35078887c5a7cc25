import IPACheckBinary
import IPACheckTestSupport
import Testing

/// Branches the corpus lacks, built with MachOBuilder/SuperBlobBuilder: 32-bit, big-endian, FAT_MAGIC_64,
/// CodeDirectory versions, encryption info, architecture names (`<mach/machine.h>` constants).
struct MachOGeneratedTests {
    @Test func fat64HeaderWithThreeSlices() throws {
        var signing = MachOBuilder.Signing()
        signing.xmlEntitlements = Array("<plist/>".utf8)
        let arm64 = MachOBuilder.slice(signing: signing)
        let arm64e = MachOBuilder.slice(cpuSubtype: 0x8000_0002, signing: signing)
        let x86 = MachOBuilder.slice(cpuType: 0x0100_0007, cpuSubtype: 3, signing: signing)
        let bytes = MachOBuilder.fat(
            [(0x0100_000c, 0, arm64), (0x0100_000c, 0x8000_0002, arm64e), (0x0100_0007, 3, x86)],
            is64Bit: true
        )
        let container = try MachOContainer.parse(bytes)
        #expect(container.format == .fat64)
        #expect(container.architectureNames == ["arm64", "arm64e", "x86_64"])
        #expect(
            container.slices.allSatisfy {
                $0.signature?.xmlEntitlements?.payload.elementsEqual("<plist/>".utf8) == true
            }
        )
        #expect(container.slices.map(\.range.lowerBound) == [4096, 4096 * 4, 4096 * 7])
    }

    @Test(arguments: [false, true])
    func thirtyTwoBitSliceInEitherByteOrder(bigEndian: Bool) throws {
        var signing = MachOBuilder.Signing()
        signing.hashTypes = [1]
        let bytes = MachOBuilder.slice(
            cpuType: 12,
            cpuSubtype: 11,
            is64Bit: false,
            bigEndian: bigEndian,
            cryptID: 1,
            signing: signing
        )
        let container = try MachOContainer.parse(bytes)
        let slice = try #require(container.slices.first)
        #expect(slice.header.is64Bit == false)
        #expect(slice.header.isBigEndian == bigEndian)
        #expect(slice.architecture.name == "armv7s")
        #expect(slice.loadCommands.encryption?.isEncrypted == true)
        #expect(slice.signature?.primaryCodeDirectory?.hashType == .sha1)
    }

    @Test func fat32HeaderWithArmv7AndArm64() throws {
        let armv7 = MachOBuilder.slice(cpuType: 12, cpuSubtype: 9, is64Bit: false)
        let arm64 = MachOBuilder.slice()
        let container = try MachOContainer.parse(MachOBuilder.fat([(12, 9, armv7), (0x0100_000c, 0, arm64)]))
        #expect(container.format == .fat)
        #expect(container.architectureNames == ["armv7", "arm64"])
        #expect(container.slices.allSatisfy { $0.signature == nil })
    }

    @Test(arguments: [
        (UInt32(7), UInt32(3), "i386"),
        (0x0100_0007, 8, "x86_64h"),
        (12, 12, "armv7k"),
        (0x0200_000c, 1, "arm64_32"),
        (0x0100_000c, 2, "arm64e"),
        (0x0100_000c, 0, "arm64"),
        (99, 1, "cputype 0x63/0x1"),
    ])
    func architectureNames(cpuType: UInt32, cpuSubtype: UInt32, name: String) {
        #expect(Architecture(cpuType: cpuType, cpuSubtype: cpuSubtype).name == name)
    }

    @Test(arguments: [UInt32(0x20100), 0x20200, 0x20300, 0x20400, 0x20500])
    func codeDirectoryVersionsReadTheirFields(version: UInt32) throws {
        let code = [UInt8](repeating: 7, count: 9000)[...]
        let blob = SuperBlobBuilder.codeDirectory(code: code, version: version)
        let directory = try CodeDirectory.parse(blob[...], slot: 0)
        #expect(directory.version == version)
        #expect(directory.codeSlotCount == 3)  // ceil(9000 / 4096)
        #expect(directory.codeLimit == 9000)
        #expect(directory.identifier == "com.example.app")
        #expect(directory.teamID == (version >= 0x20200 ? "ABCDE12345" : nil))
        #expect(directory.execSegmentLimit == (version >= 0x20400 ? 9000 : nil))
        #expect(directory.execSegmentFlags == (version >= 0x20400 ? 1 : nil))
        #expect(directory.runtimeVersion == (version >= 0x20500 ? 0x000e_0000 : nil))
        #expect(directory.hashType == .sha256)
    }

    @Test func blobsKeepRawBytesAndPayload() throws {
        let der = SuperBlobBuilder.derEntitlementsApplication([("get-task-allow", SuperBlobBuilder.derBool(true))])
        var signing = MachOBuilder.Signing()
        signing.derEntitlements = der
        signing.cms = nil
        let container = try MachOContainer.parse(MachOBuilder.slice(signing: signing))
        let blob = try #require(container.slices.first?.signature?.derEntitlements)
        #expect(Array(blob.payload) == der)
        #expect(blob.bytes.count == der.count + 8)
        #expect(container.slices.first?.signature?.cmsSignature == nil)
    }
}
