/// Builds Mach-O slices and universal binaries for tests, with an optional real code signature.
package enum MachOBuilder {
    /// What to put in a slice's signature.
    package struct Signing {
        /// CodeDirectory hash types, primary first (1 SHA-1, 2 SHA-256); more make alternates at 0x1000...
        package var hashTypes: [UInt8] = [2]
        /// CodeDirectory version.
        package var version: UInt32 = 0x20400
        /// CodeDirectory flags (0x2 = ad hoc).
        package var flags: UInt32 = 0x2
        /// XML entitlements plist bytes.
        package var xmlEntitlements: [UInt8]?
        /// DER entitlements bytes.
        package var derEntitlements: [UInt8]?
        /// Info.plist bytes sealed in slot −1.
        package var infoPlist: [UInt8]?
        /// CodeResources bytes sealed in slot −3.
        package var codeResources: [UInt8]?
        /// The CMS payload; `[]` = empty wrapper (ad hoc), `nil` = no signature slot.
        package var cms: [UInt8]? = []
        /// log2 of the CodeDirectory's page size (12: the 4096-byte pages every iOS signature uses).
        package var pageSizeLog2: UInt8 = 12

        package init() {}
    }

    /// Appends a 32-bit value in the slice's byte order.
    static func u32(_ value: UInt32, bigEndian: Bool) -> [UInt8] {
        let be = SuperBlobBuilder.be32(value)
        return bigEndian ? be : be.reversed()
    }

    /// A Mach-O slice: header, `LC_ENCRYPTION_INFO(_64)` if `cryptID` is set, `LC_CODE_SIGNATURE` if `signing`
    /// is set, `bodySize` bytes of pseudo-code, then the signature.
    package static func slice(
        cpuType: UInt32 = 0x0100_000c,
        cpuSubtype: UInt32 = 0,
        is64Bit: Bool = true,
        bigEndian: Bool = false,
        fileType: UInt32 = 2,
        bodySize: Int = 10_000,
        cryptID: UInt32? = nil,
        signing: Signing? = nil
    ) -> [UInt8] {
        let headerSize = is64Bit ? 32 : 28
        var commands: [[UInt8]] = []
        if let cryptID {
            let type: UInt32 = is64Bit ? 0x2c : 0x21
            var command = u32(type, bigEndian: bigEndian) + u32(is64Bit ? 24 : 20, bigEndian: bigEndian)
            command += u32(0x4000, bigEndian: bigEndian) + u32(0x1000, bigEndian: bigEndian)
            command += u32(cryptID, bigEndian: bigEndian)
            if is64Bit { command += u32(0, bigEndian: bigEndian) }
            commands.append(command)
        }
        let commandsSize = commands.reduce(0) { $0 + $1.count } + (signing == nil ? 0 : 16)
        let codeLimit = (headerSize + commandsSize + bodySize + 15) / 16 * 16
        func build(signatureSize: Int) -> [UInt8] {
            let count = UInt32(commands.count + (signing == nil ? 0 : 1))
            var out = SuperBlobBuilder.be32(is64Bit ? 0xfeed_facf : 0xfeed_face)
            if !bigEndian { out.reverse() }
            out += u32(cpuType, bigEndian: bigEndian) + u32(cpuSubtype, bigEndian: bigEndian)
            out += u32(fileType, bigEndian: bigEndian) + u32(count, bigEndian: bigEndian)
            out += u32(UInt32(commandsSize), bigEndian: bigEndian) + u32(0x0020_0085, bigEndian: bigEndian)
            if is64Bit { out += u32(0, bigEndian: bigEndian) }
            for command in commands { out += command }
            if signing != nil {
                out += u32(0x1d, bigEndian: bigEndian) + u32(16, bigEndian: bigEndian)
                out += u32(UInt32(codeLimit), bigEndian: bigEndian) + u32(UInt32(signatureSize), bigEndian: bigEndian)
            }
            var filler: UInt8 = 0x5a
            while out.count < codeLimit {
                out.append(filler)
                filler = filler &* 31 &+ 7
            }
            return out
        }
        guard let signing else { return build(signatureSize: 0) }
        // The signature's size does not depend on the hashes, so size it with a first pass over dummy code.
        let firstPass = signature(code: build(signatureSize: 0)[...], signing: signing)
        let code = build(signatureSize: firstPass.count)
        return code + signature(code: code[...], signing: signing)
    }

    /// The SuperBlob for `code` (the slice up to the signature).
    package static func signature(code: ArraySlice<UInt8>, signing: Signing) -> [UInt8] {
        var blobs: [(slot: UInt32, blob: [UInt8])] = []
        let requirements = SuperBlobBuilder.blob(magic: 0xfade_0c01, payload: SuperBlobBuilder.be32(0))
        let xml = signing.xmlEntitlements.map { SuperBlobBuilder.blob(magic: 0xfade_7171, payload: $0) }
        let der = signing.derEntitlements.map { SuperBlobBuilder.blob(magic: 0xfade_7172, payload: $0) }
        var directories: [(slot: UInt32, blob: [UInt8])] = []
        for (index, type) in signing.hashTypes.enumerated() {
            var special: [Int: [UInt8]] = [2: SuperBlobBuilder.hash(type, requirements)]
            if let info = signing.infoPlist { special[1] = SuperBlobBuilder.hash(type, info) }
            if let resources = signing.codeResources { special[3] = SuperBlobBuilder.hash(type, resources) }
            if let xml { special[5] = SuperBlobBuilder.hash(type, xml) }
            if let der { special[7] = SuperBlobBuilder.hash(type, der) }
            let directory = SuperBlobBuilder.codeDirectory(
                code: code,
                hashType: type,
                version: signing.version,
                flags: signing.flags,
                pageSizeLog2: signing.pageSizeLog2,
                specialHashes: special
            )
            directories.append((index == 0 ? 0 : UInt32(0x1000 + index - 1), directory))
        }
        if let primary = directories.first { blobs.append(primary) }
        blobs.append((2, requirements))
        if let xml { blobs.append((5, xml)) }
        if let der { blobs.append((7, der)) }
        blobs += directories.dropFirst()
        if let cms = signing.cms { blobs.append((0x10000, SuperBlobBuilder.blob(magic: 0xfade_0b01, payload: cms))) }
        return SuperBlobBuilder.superBlob(blobs)
    }

    /// A universal binary of `slices` (cputype, cpusubtype, bytes), with 32-bit (`FAT_MAGIC`) or 64-bit
    /// (`FAT_MAGIC_64`) arch entries; slices are aligned to 2^`alignLog2` bytes.
    package static func fat(
        _ slices: [(cpuType: UInt32, cpuSubtype: UInt32, bytes: [UInt8])],
        is64Bit: Bool = false,
        alignLog2: Int = 12
    ) -> [UInt8] {
        let be32 = SuperBlobBuilder.be32
        let align = 1 << alignLog2
        let entrySize = is64Bit ? 32 : 20
        var header = be32(is64Bit ? 0xcafe_babf : 0xcafe_babe) + be32(UInt32(slices.count))
        var offset = (8 + slices.count * entrySize + align - 1) / align * align
        var layout: [Int] = []
        for slice in slices {
            layout.append(offset)
            header += be32(slice.cpuType) + be32(slice.cpuSubtype)
            if is64Bit {
                header += SuperBlobBuilder.be64(UInt64(offset)) + SuperBlobBuilder.be64(UInt64(slice.bytes.count))
                header += be32(UInt32(alignLog2)) + be32(0)
            } else {
                header += be32(UInt32(offset)) + be32(UInt32(slice.bytes.count)) + be32(UInt32(alignLog2))
            }
            offset = (offset + slice.bytes.count + align - 1) / align * align
        }
        var out = header
        for (index, slice) in slices.enumerated() {
            out += [UInt8](repeating: 0, count: layout[index] - out.count)
            out += slice.bytes
        }
        return out
    }
}
