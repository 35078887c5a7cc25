/// A CodeDirectory: the hashes that seal a slice's code pages and its special files, plus its identity.
///
/// All fields are big-endian. Fields after `spare2` exist only from the version noted beside them:
///
/// ```c
/// typedef struct __CodeDirectory {
///     uint32_t magic;          // CSMAGIC_CODEDIRECTORY
///     uint32_t length;         // total length of the CodeDirectory blob
///     uint32_t version;        // compatibility version
///     uint32_t flags;          // setup and mode flags (CS_ADHOC = 0x2, CS_RUNTIME = 0x10000, ...)
///     uint32_t hashOffset;     // offset of hash slot element at index zero
///     uint32_t identOffset;    // offset of identifier string
///     uint32_t nSpecialSlots;  // number of special hash slots
///     uint32_t nCodeSlots;     // number of ordinary (code) hash slots
///     uint32_t codeLimit;      // limit to main image signature range
///     uint8_t  hashSize;       // size of each hash in bytes
///     uint8_t  hashType;       // type of hash (CS_HASHTYPE_* constants)
///     uint8_t  platform;       // platform identifier; zero if not platform binary
///     uint8_t  pageSize;       // log2(page size in bytes); 0 => infinite
///     uint32_t spare2;         // unused (must be zero)
///     uint32_t scatterOffset;  // >= 0x20100: offset of optional scatter vector
///     uint32_t teamOffset;     // >= 0x20200: offset of optional team identifier
///     uint32_t spare3;         // >= 0x20300: unused (must be zero)
///     uint64_t codeLimit64;    // >= 0x20300: limit to main image signature range, 64 bits
///     uint64_t execSegBase;    // >= 0x20400: offset of executable segment
///     uint64_t execSegLimit;   // >= 0x20400: limit of executable segment
///     uint64_t execSegFlags;   // >= 0x20400: executable segment flags
///     uint32_t runtime;        // >= 0x20500: hardened runtime version
///     uint32_t preEncryptOffset; // >= 0x20500: offset of pre-encrypt hash slots
/// } CS_CodeDirectory;
/// ```
package struct CodeDirectory: Hashable, Sendable {
    /// The most special slots accepted; Apple defines 7 today, and a hostile count must not size anything.
    package static let maximumSpecialSlots = 64
    /// The largest hash size accepted (SHA-512 would be 64).
    package static let maximumHashSize = 64
    /// `CS_ADHOC`: signed without an identity.
    package static let adHocFlag: UInt32 = 0x2

    /// The SuperBlob slot it came from: 0 for the primary, 0x1000 to 0x1004 for alternates.
    package let slot: UInt32
    /// The whole blob, header included: what the cdhash and the CMS signature cover.
    package let bytes: [UInt8]
    /// `version`.
    package let version: UInt32
    /// `flags` (`CS_ADHOC` = 0x2, `CS_RUNTIME` = 0x10000, ...).
    package let flags: UInt32
    /// `hashOffset`: where code slot 0 starts; special slot −i sits at `hashOffset − i × hashSize`.
    package let hashOffset: Int
    /// `nSpecialSlots`.
    package let specialSlotCount: Int
    /// `nCodeSlots`.
    package let codeSlotCount: Int
    /// The signed length of the slice: `codeLimit64` when set (version ≥ 0x20300), else `codeLimit`.
    package let codeLimit: UInt64
    /// `hashSize` in bytes.
    package let hashSize: Int
    /// `hashType` as stored.
    package let rawHashType: UInt8
    /// `platform`.
    package let platform: UInt8
    /// `pageSize`: log2 of the page size; 0 means the whole range is one page.
    package let pageSizeLog2: UInt8
    /// The signing identifier (`identOffset`), normally the bundle ID.
    package let identifier: String
    /// `scatterOffset` (version ≥ 0x20100), if non-zero.
    package let scatterOffset: UInt32?
    /// The team identifier (`teamOffset`, version ≥ 0x20200), if present.
    package let teamID: String?
    /// `codeLimit64` (version ≥ 0x20300), if non-zero.
    package let codeLimit64: UInt64?
    /// `execSegBase` (version ≥ 0x20400).
    package let execSegmentBase: UInt64?
    /// `execSegLimit` (version ≥ 0x20400).
    package let execSegmentLimit: UInt64?
    /// `execSegFlags` (version ≥ 0x20400): `CS_EXECSEG_MAIN_BINARY` = 0x1, `CS_EXECSEG_ALLOW_UNSIGNED` = 0x10, ...
    package let execSegmentFlags: UInt64?
    /// `runtime` (version ≥ 0x20500): the hardened-runtime SDK version.
    package let runtimeVersion: UInt32?
    /// `preEncryptOffset` (version ≥ 0x20500).
    package let preEncryptOffset: UInt32?

    /// The hash type, if it is one `cs_blobs.h` defines.
    package var hashType: CodeSignHashType? { CodeSignHashType(rawValue: rawHashType) }

    /// Whether the signature is ad hoc (`CS_ADHOC`).
    package var isAdHoc: Bool { flags & Self.adHocFlag != 0 }

    /// The page size in bytes, or `nil` for "one page covers everything" (`pageSize` 0).
    package var pageSize: Int? {
        pageSizeLog2 == 0 ? nil : 1 << Int(min(pageSizeLog2, 30))
    }

    /// The hash stored in code slot `index` (0-based), or `nil` when out of range.
    package func codeSlotHash(_ index: Int) -> ArraySlice<UInt8>? {
        guard index >= 0, index < codeSlotCount else { return nil }
        // hashOffset + codeSlotCount × hashSize was checked against the blob's length at parse time.
        let start = hashOffset + index * hashSize
        return bytes[start..<(start + hashSize)]
    }

    /// The hash stored in special slot −`slot`, or `nil` when the CodeDirectory has fewer special slots.
    ///
    /// `slot` 1 is Info.plist, 2 requirements, 3 CodeResources, 5 entitlements, 7 DER entitlements.
    package func specialSlotHash(_ slot: Int) -> ArraySlice<UInt8>? {
        guard slot >= 1, slot <= specialSlotCount else { return nil }
        // hashOffset − specialSlotCount × hashSize was checked to lie after the fixed header at parse time.
        let start = hashOffset - slot * hashSize
        return bytes[start..<(start + hashSize)]
    }

    /// Parses a CodeDirectory blob (`bytes` is the whole blob, header included) found in SuperBlob `slot`.
    ///
    /// Checks the magic, that `length` equals the blob's size, that the hash table (special and code slots)
    /// lies inside the blob after the fixed header, that `hashSize` matches a known `hashType`, and that the
    /// identifier and team strings are NUL-terminated inside the blob.
    package static func parse(
        _ bytes: ArraySlice<UInt8>,
        slot: UInt32,
        baseOffset: Int = 0
    ) throws(ParseError)
        -> CodeDirectory
    {
        var reader = ByteReader(bytes, baseOffset: baseOffset)
        let magic = try reader.readUInt32BE("CodeDirectory.magic")
        guard magic == CodeSignMagic.codeDirectory.rawValue else {
            throw ParseError(
                .badMagic,
                field: "CodeDirectory.magic",
                at: baseOffset,
                reason: "0x\(String(magic, radix: 16)) is not CSMAGIC_CODEDIRECTORY"
            )
        }
        let length = try Int.checked(try reader.readUInt32BE("CodeDirectory.length"), field: "CodeDirectory.length")
        guard length == bytes.count else {
            throw ParseError(
                .invalidValue,
                field: "CodeDirectory.length",
                at: baseOffset + 4,
                reason: "length \(length) differs from the blob's \(bytes.count) bytes"
            )
        }
        let version = try reader.readUInt32BE("CodeDirectory.version")
        let flags = try reader.readUInt32BE("CodeDirectory.flags")
        let hashOffset = try Int.checked(try reader.readUInt32BE("CodeDirectory.hashOffset"), field: "hashOffset")
        let identOffset = try Int.checked(try reader.readUInt32BE("CodeDirectory.identOffset"), field: "identOffset")
        let specialCount = try Int.checked(
            try reader.readUInt32BE("CodeDirectory.nSpecialSlots"),
            field: "nSpecialSlots"
        )
        let codeCount = try Int.checked(try reader.readUInt32BE("CodeDirectory.nCodeSlots"), field: "nCodeSlots")
        let codeLimit32 = try reader.readUInt32BE("CodeDirectory.codeLimit")
        let hashSize = Int(try reader.readUInt8("CodeDirectory.hashSize"))
        let hashType = try reader.readUInt8("CodeDirectory.hashType")
        let platform = try reader.readUInt8("CodeDirectory.platform")
        let pageSize = try reader.readUInt8("CodeDirectory.pageSize")
        _ = try reader.readUInt32BE("CodeDirectory.spare2")

        var scatter: UInt32?
        var teamOffset: Int?
        var codeLimit64: UInt64?
        var execBase: UInt64?
        var execLimit: UInt64?
        var execFlags: UInt64?
        var runtime: UInt32?
        var preEncrypt: UInt32?
        if version >= 0x20100 {
            let value = try reader.readUInt32BE("CodeDirectory.scatterOffset")
            scatter = value == 0 ? nil : value
        }
        if version >= 0x20200 {
            let value = try Int.checked(try reader.readUInt32BE("CodeDirectory.teamOffset"), field: "teamOffset")
            teamOffset = value == 0 ? nil : value
        }
        if version >= 0x20300 {
            _ = try reader.readUInt32BE("CodeDirectory.spare3")
            let value = try reader.readUInt64BE("CodeDirectory.codeLimit64")
            codeLimit64 = value == 0 ? nil : value
        }
        if version >= 0x20400 {
            execBase = try reader.readUInt64BE("CodeDirectory.execSegBase")
            execLimit = try reader.readUInt64BE("CodeDirectory.execSegLimit")
            execFlags = try reader.readUInt64BE("CodeDirectory.execSegFlags")
        }
        if version >= 0x20500 {
            runtime = try reader.readUInt32BE("CodeDirectory.runtime")
            preEncrypt = try reader.readUInt32BE("CodeDirectory.preEncryptOffset")
        }
        let headerEnd = reader.offset

        guard hashSize > 0, hashSize <= maximumHashSize else {
            throw ParseError(.invalidValue, field: "CodeDirectory.hashSize", at: baseOffset + 36, reason: "\(hashSize)")
        }
        if let known = CodeSignHashType(rawValue: hashType), known.size != hashSize {
            throw ParseError(
                .invalidValue,
                field: "CodeDirectory.hashSize",
                at: baseOffset + 36,
                reason: "hashSize \(hashSize) does not match hash type \(known.name) (\(known.size) bytes)"
            )
        }
        guard specialCount <= maximumSpecialSlots else {
            throw ParseError(
                .limitExceeded,
                field: "CodeDirectory.nSpecialSlots",
                at: baseOffset + 24,
                reason: "\(specialCount) special slots (at most \(maximumSpecialSlots))"
            )
        }
        // Special slots: [hashOffset − nSpecialSlots × hashSize, hashOffset) must follow the fixed header.
        // specialCount ≤ 64 and hashSize ≤ 64, so the product cannot overflow.
        let specialBytes = specialCount * hashSize
        guard hashOffset - specialBytes >= headerEnd else {
            throw ParseError(
                .outOfBounds,
                field: "CodeDirectory.nSpecialSlots",
                at: baseOffset + 24,
                reason: "\(specialCount) special slots before hashOffset \(hashOffset) overlap the header"
            )
        }
        // Code slots: [hashOffset, hashOffset + nCodeSlots × hashSize) must end inside the blob.
        let (codeBytes, productOverflow) = codeCount.multipliedReportingOverflow(by: hashSize)
        let (codeEnd, sumOverflow) = hashOffset.addingReportingOverflow(codeBytes)
        guard !productOverflow, !sumOverflow, codeEnd <= length else {
            throw ParseError(
                .outOfBounds,
                field: "CodeDirectory.nCodeSlots",
                at: baseOffset + 28,
                reason: "\(codeCount) code slots of \(hashSize) bytes at \(hashOffset) pass the \(length)-byte blob"
            )
        }
        let identifier = try reader.cString(at: identOffset, field: "CodeDirectory.identOffset")
        var teamID: String?
        if let teamOffset {
            teamID = try reader.cString(at: teamOffset, field: "CodeDirectory.teamOffset")
        }
        return CodeDirectory(
            slot: slot,
            bytes: Array(bytes),
            version: version,
            flags: flags,
            hashOffset: hashOffset,
            specialSlotCount: specialCount,
            codeSlotCount: codeCount,
            codeLimit: codeLimit64 ?? UInt64(codeLimit32),
            hashSize: hashSize,
            rawHashType: hashType,
            platform: platform,
            pageSizeLog2: pageSize,
            identifier: identifier,
            scatterOffset: scatter,
            teamID: teamID,
            codeLimit64: codeLimit64,
            execSegmentBase: execBase,
            execSegmentLimit: execLimit,
            execSegmentFlags: execFlags,
            runtimeVersion: runtime,
            preEncryptOffset: preEncrypt
        )
    }
}
