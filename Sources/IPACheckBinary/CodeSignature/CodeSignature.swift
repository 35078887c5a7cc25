/// One blob of a SuperBlob, kept as raw bytes (header included) so callers can hash or decode it.
///
/// ```c
/// typedef struct __CS_GenericBlob {
///     uint32_t magic;   // magic number
///     uint32_t length;  // total length of blob, this header included
///     char data[];
/// } CS_GenericBlob;
/// ```
package struct CodeSignBlob: Hashable, Sendable {
    /// The index slot it was found under (``CodeSignSlot`` raw value).
    package let slot: UInt32
    /// The blob's offset from the start of the SuperBlob.
    package let offset: Int
    /// The blob's magic number.
    package let magic: UInt32
    /// The whole blob, 8-byte header included: what special slots hash.
    package let bytes: [UInt8]

    /// The bytes after the 8-byte header: the plist, the DER, or the CMS message.
    package var payload: ArraySlice<UInt8> { bytes.dropFirst(8) }
}

/// An embedded code signature: the SuperBlob `LC_CODE_SIGNATURE` points to, with every blob located and checked.
///
/// ```c
/// typedef struct __BlobIndex {
///     uint32_t type;    // type of entry (CSSLOT_*)
///     uint32_t offset;  // offset of entry from the SuperBlob's start
/// } CS_BlobIndex;
///
/// typedef struct __SC_SuperBlob {
///     uint32_t magic;   // CSMAGIC_EMBEDDED_SIGNATURE
///     uint32_t length;  // total length of SuperBlob
///     uint32_t count;   // number of index entries following
///     CS_BlobIndex index[];
/// } CS_SuperBlob;
/// ```
package struct CodeSignature: Hashable, Sendable {
    /// The most index entries accepted; real signatures have fewer than 16.
    package static let maximumBlobCount = 128

    /// Every blob, in index order.
    package let blobs: [CodeSignBlob]
    /// Every CodeDirectory: the primary (slot 0) first, then the alternates in slot order.
    package let codeDirectories: [CodeDirectory]

    /// The blob in `slot`, if any.
    package func blob(_ slot: CodeSignSlot) -> CodeSignBlob? {
        blobs.first { $0.slot == slot.rawValue }
    }

    /// The primary CodeDirectory (slot 0).
    package var primaryCodeDirectory: CodeDirectory? {
        codeDirectories.first { $0.slot == CodeSignSlot.codeDirectory.rawValue }
    }

    /// The requirements blob (`0xfade0c01`), raw.
    package var requirements: CodeSignBlob? { blob(.requirements) }
    /// The XML entitlements blob (`0xfade7171`); its ``CodeSignBlob/payload`` is the plist document.
    package var xmlEntitlements: CodeSignBlob? { blob(.entitlements) }
    /// The DER entitlements blob (`0xfade7172`); its ``CodeSignBlob/payload`` is the DER.
    package var derEntitlements: CodeSignBlob? { blob(.derEntitlements) }
    /// The CMS wrapper (`0xfade0b01`); an empty payload means an ad-hoc signature.
    package var cmsSignature: CodeSignBlob? { blob(.signature) }

    /// Whether the signature is ad hoc: the primary CodeDirectory says so, or the CMS wrapper is empty.
    package var isAdHoc: Bool {
        (primaryCodeDirectory?.isAdHoc ?? false) || (cmsSignature.map { $0.payload.isEmpty } ?? false)
    }

    /// Parses a SuperBlob from the `LC_CODE_SIGNATURE` bytes (`datasize` may exceed `length`: padding).
    ///
    /// Every index offset is checked: blobs must start after the index, fit inside `length`, not overlap each
    /// other, carry the magic their slot requires, and appear once per slot.
    package static func parse(_ bytes: ArraySlice<UInt8>, baseOffset: Int = 0) throws(ParseError) -> CodeSignature {
        var reader = ByteReader(bytes, baseOffset: baseOffset)
        let magic = try reader.readUInt32BE("SuperBlob.magic")
        guard magic == CodeSignMagic.embeddedSignature.rawValue else {
            throw ParseError(
                .badMagic,
                field: "SuperBlob.magic",
                at: baseOffset,
                reason: "0x\(String(magic, radix: 16)) is not CSMAGIC_EMBEDDED_SIGNATURE"
            )
        }
        let length = try Int.checked(try reader.readUInt32BE("SuperBlob.length"), field: "SuperBlob.length")
        guard length <= bytes.count else {
            throw ParseError(
                .outOfBounds,
                field: "SuperBlob.length",
                at: baseOffset + 4,
                reason: "length \(length) passes the \(bytes.count) bytes of LC_CODE_SIGNATURE"
            )
        }
        let count = try Int.checked(try reader.readUInt32BE("SuperBlob.count"), field: "SuperBlob.count")
        guard count <= maximumBlobCount else {
            throw ParseError(
                .limitExceeded,
                field: "SuperBlob.count",
                at: baseOffset + 8,
                reason: "\(count) blobs (at most \(maximumBlobCount))"
            )
        }
        let indexEnd = 12 + count * 8
        guard indexEnd <= length else {
            throw ParseError(
                .outOfBounds,
                field: "SuperBlob.count",
                at: baseOffset + 8,
                reason: "an index of \(count) entries passes the \(length)-byte SuperBlob"
            )
        }
        let whole = try reader.subReader(at: 0, count: length, field: "SuperBlob")
        var blobs: [CodeSignBlob] = []
        var directories: [CodeDirectory] = []
        for index in 0..<count {
            let type = try reader.readUInt32BE("BlobIndex.type")
            let offset = try Int.checked(try reader.readUInt32BE("BlobIndex.offset"), field: "BlobIndex.offset")
            let field = "BlobIndex[\(index)].offset"
            guard offset >= indexEnd else {
                throw ParseError(
                    .outOfBounds,
                    field: field,
                    at: baseOffset + 12 + index * 8,
                    reason: "blob at \(offset) overlaps the SuperBlob header and index (\(indexEnd) bytes)"
                )
            }
            var header = try whole.subReader(at: offset, count: 8, field: field)
            let blobMagic = try header.readUInt32BE("Blob.magic")
            let blobLength = try Int.checked(try header.readUInt32BE("Blob.length"), field: "Blob.length")
            guard blobLength >= 8 else {
                throw ParseError(
                    .invalidValue,
                    field: "Blob.length",
                    at: baseOffset + offset + 4,
                    reason: "\(blobLength)"
                )
            }
            let blobBytes = try whole.slice(at: offset, count: blobLength, field: "Blob.length")
            if let expected = expectedMagic(forSlot: type), expected.rawValue != blobMagic {
                throw ParseError(
                    .badMagic,
                    field: "Blob.magic",
                    at: baseOffset + offset,
                    reason: "slot 0x\(String(type, radix: 16)) holds magic 0x\(String(blobMagic, radix: 16))"
                )
            }
            guard !blobs.contains(where: { $0.slot == type }) else {
                throw ParseError(
                    .invalidValue,
                    field: "BlobIndex.type",
                    at: baseOffset + 12 + index * 8,
                    reason: "slot 0x\(String(type, radix: 16)) appears twice"
                )
            }
            let blob = CodeSignBlob(slot: type, offset: offset, magic: blobMagic, bytes: Array(blobBytes))
            if let other = blobs.first(where: { $0.offset < offset + blobLength && offset < $0.offset + $0.bytes.count }
            ) {
                throw ParseError(
                    .outOfBounds,
                    field: field,
                    at: baseOffset + offset,
                    reason: "blob of slot 0x\(String(type, radix: 16)) overlaps slot 0x\(String(other.slot, radix: 16))"
                )
            }
            blobs.append(blob)
            if CodeSignSlot(rawValue: type)?.holdsCodeDirectory == true {
                directories.append(try CodeDirectory.parse(blobBytes, slot: type, baseOffset: baseOffset + offset))
            }
        }
        directories.sort { $0.slot < $1.slot }
        return CodeSignature(blobs: blobs, codeDirectories: directories)
    }

    /// The magic a blob in `slot` must carry, for the slots whose content we interpret.
    static func expectedMagic(forSlot slot: UInt32) -> CodeSignMagic? {
        switch CodeSignSlot(rawValue: slot) {
        case .codeDirectory, .alternateCodeDirectory0, .alternateCodeDirectory1, .alternateCodeDirectory2,
            .alternateCodeDirectory3, .alternateCodeDirectory4:
            .codeDirectory
        case .requirements: .requirements
        case .entitlements: .embeddedEntitlements
        case .derEntitlements: .embeddedDEREntitlements
        case .signature: .blobWrapper
        default: nil
        }
    }
}
