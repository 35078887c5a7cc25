import IPACheckBinary
import IPACheckTestSupport
import Testing

/// One test per malformed case: each must end in a ParseError with the right code, never a crash.
struct MalformedInputTests {
    typealias B = SuperBlobBuilder

    /// The code of the ParseError parsing `bytes` throws, or `nil` when it parses.
    func parseErrorCode(_ bytes: [UInt8]) -> ParseError.Code? {
        do {
            _ = try MachOContainer.parse(bytes)
            return nil
        } catch {
            return error.code
        }
    }

    func signatureErrorCode(_ bytes: [UInt8]) -> ParseError.Code? {
        do {
            _ = try CodeSignature.parse(bytes[...])
            return nil
        } catch {
            return error.code
        }
    }

    /// Writes a little-endian UInt32 at `offset` (the builder's default byte order).
    func patchLE(_ bytes: inout [UInt8], at offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(value >> (8 * UInt32(index)) & 0xff) }
    }

    func patchBE(_ bytes: inout [UInt8], at offset: Int, _ value: UInt32) {
        bytes.replaceSubrange(offset..<(offset + 4), with: B.be32(value))
    }

    var signedSlice: [UInt8] { MachOBuilder.slice(signing: MachOBuilder.Signing()) }

    @Test func emptyAndTinyFiles() {
        #expect(parseErrorCode([]) == .truncated)
        #expect(parseErrorCode([0xcf, 0xfa]) == .truncated)
    }

    @Test func truncatedHeader() {
        #expect(parseErrorCode(Array(signedSlice.prefix(20))) == .truncated)
    }

    @Test func wrongMagic() {
        #expect(parseErrorCode(Array("PK\u{3}\u{4} not a mach-o".utf8)) == .badMagic)
    }

    @Test func fatSliceCountOverflow() {
        #expect(
            parseErrorCode(B.be32(0xcafe_babe) + B.be32(0xffff_ffff) + [UInt8](repeating: 0, count: 64))
                == .limitExceeded
        )
    }

    @Test func fatArchTableTruncated() {
        #expect(parseErrorCode(B.be32(0xcafe_babe) + B.be32(3) + [UInt8](repeating: 0, count: 20)) == .truncated)
    }

    @Test func fatSliceOffsetPastEnd() {
        var bytes = MachOBuilder.fat([(0x0100_000c, 0, signedSlice)])
        patchBE(&bytes, at: 16, 0x7fff_0000)  // fat_arch[0].offset
        #expect(parseErrorCode(bytes) == .outOfBounds)
    }

    @Test func fatSlicesOverlap() {
        let slice = signedSlice
        var bytes = MachOBuilder.fat([(0x0100_000c, 0, slice), (0x0100_000c, 2, slice)])
        patchBE(&bytes, at: 36, 4096)  // fat_arch[1].offset = fat_arch[0].offset
        #expect(parseErrorCode(bytes) == .outOfBounds)
    }

    @Test func sizeOfCommandsPastSlice() {
        var bytes = signedSlice
        patchLE(&bytes, at: 20, 0x00ff_ffff)
        #expect(parseErrorCode(bytes) == .outOfBounds)
    }

    @Test func commandCountOverflow() {
        var bytes = signedSlice
        patchLE(&bytes, at: 16, 0xffff_ffff)
        #expect(parseErrorCode(bytes) == .limitExceeded)
    }

    @Test func commandSizeTooSmall() {
        var bytes = signedSlice
        patchLE(&bytes, at: 32 + 4, 4)  // LC_CODE_SIGNATURE.cmdsize
        #expect(parseErrorCode(bytes) == .invalidValue)
    }

    @Test func commandSizePastSizeOfCommands() {
        var bytes = signedSlice
        patchLE(&bytes, at: 32 + 4, 4096)
        #expect(parseErrorCode(bytes) == .truncated)
    }

    @Test func codeSignaturePastEnd() {
        var bytes = signedSlice
        patchLE(&bytes, at: 32 + 12, 0x0010_0000)  // LC_CODE_SIGNATURE.datasize
        #expect(parseErrorCode(bytes) == .outOfBounds)
    }

    @Test func truncatedFileCutsSignature() {
        let bytes = signedSlice
        #expect(parseErrorCode(Array(bytes.dropLast(100))) == .outOfBounds)
    }

    // MARK: SuperBlob

    var directory: [UInt8] { B.codeDirectory(code: [UInt8](repeating: 1, count: 5000)[...]) }

    @Test func superBlobWrongMagic() {
        var bytes = B.superBlob([(0, directory)])
        patchBE(&bytes, at: 0, 0xfade_0c02)
        #expect(signatureErrorCode(bytes) == .badMagic)
    }

    @Test func superBlobLengthPastData() {
        var bytes = B.superBlob([(0, directory)])
        patchBE(&bytes, at: 4, UInt32(bytes.count + 1))
        #expect(signatureErrorCode(bytes) == .outOfBounds)
    }

    @Test func superBlobCountOverflow() {
        var bytes = B.superBlob([(0, directory)])
        patchBE(&bytes, at: 8, 0xffff_ffff)
        #expect(signatureErrorCode(bytes) == .limitExceeded)
    }

    @Test func superBlobIndexPastLength() {
        var bytes = B.superBlob([(0, directory)])
        patchBE(&bytes, at: 8, 100)  // within the cap, but 100 entries do not fit
        #expect(signatureErrorCode(bytes) == .outOfBounds)
    }

    @Test func blobOffsetPastEnd() {
        var bytes = B.superBlob([(0, directory)])
        patchBE(&bytes, at: 16, 0x00ff_0000)
        #expect(signatureErrorCode(bytes) == .outOfBounds)
    }

    @Test func blobOffsetInsideIndex() {
        var bytes = B.superBlob([(0, directory)])
        patchBE(&bytes, at: 16, 4)
        #expect(signatureErrorCode(bytes) == .outOfBounds)
    }

    @Test func blobLengthPastSuperBlob() {
        let requirements = B.blob(magic: 0xfade_0c01, payload: B.be32(0))
        var bytes = B.superBlob([(2, requirements)])
        patchBE(&bytes, at: 20 + 4, 0x0001_0000)
        #expect(signatureErrorCode(bytes) == .outOfBounds)
    }

    @Test func overlappingBlobs() {
        let requirements = B.blob(magic: 0xfade_0c01, payload: B.be32(0) + B.be32(0))
        var bytes = B.superBlob([(2, requirements), (5, B.blob(magic: 0xfade_7171, payload: []))])
        // Point the entitlements entry into the middle of the requirements blob, where a nested 0xfade7171 sits.
        let requirementsOffset = 12 + 2 * 8
        bytes.replaceSubrange(
            (requirementsOffset + 8)..<(requirementsOffset + 16),
            with: B.be32(0xfade_7171) + B.be32(8)
        )
        patchBE(&bytes, at: 12 + 8 + 4, UInt32(requirementsOffset + 8))
        #expect(signatureErrorCode(bytes) == .outOfBounds)
    }

    @Test func slotWithWrongMagic() {
        let bytes = B.superBlob([(5, B.blob(magic: 0xfade_0c01, payload: []))])
        #expect(signatureErrorCode(bytes) == .badMagic)
    }

    @Test func duplicateSlot() {
        let bytes = B.superBlob([
            (5, B.blob(magic: 0xfade_7171, payload: [])), (5, B.blob(magic: 0xfade_7171, payload: [])),
        ])
        #expect(signatureErrorCode(bytes) == .invalidValue)
    }

    // MARK: CodeDirectory

    func directoryErrorCode(_ bytes: [UInt8]) -> ParseError.Code? {
        do {
            _ = try CodeDirectory.parse(bytes[...], slot: 0)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func codeDirectoryHugeSpecialSlots() {
        var bytes = directory
        patchBE(&bytes, at: 24, 0xffff_ffff)
        #expect(directoryErrorCode(bytes) == .limitExceeded)
    }

    @Test func codeDirectorySpecialSlotsOverlapHeader() {
        var bytes = directory
        patchBE(&bytes, at: 24, 60)
        #expect(directoryErrorCode(bytes) == .outOfBounds)
    }

    @Test func codeDirectoryHugeCodeSlots() {
        var bytes = directory
        patchBE(&bytes, at: 28, 0xffff_ffff)
        #expect(directoryErrorCode(bytes) == .outOfBounds)
    }

    @Test func codeDirectoryHashSizeMismatch() {
        var bytes = directory
        bytes[36] = 20  // hashType stays 2 (SHA-256, 32 bytes)
        #expect(directoryErrorCode(bytes) == .invalidValue)
    }

    @Test func codeDirectoryLengthMismatch() {
        var bytes = directory
        patchBE(&bytes, at: 4, UInt32(bytes.count - 1))
        #expect(directoryErrorCode(bytes) == .invalidValue)
    }

    @Test func codeDirectoryIdentifierUnterminated() {
        var bytes = directory
        patchBE(&bytes, at: 20, UInt32(bytes.count - 1))  // identOffset at the last byte (a hash byte, not NUL)
        bytes[bytes.count - 1] = 0x41
        #expect(directoryErrorCode(bytes) == .truncated)
    }

    @Test func codeDirectoryTruncatedHeader() {
        var bytes = Array(directory.prefix(30))
        patchBE(&bytes, at: 4, 30)  // a consistent length, so only the missing fields are wrong
        #expect(directoryErrorCode(bytes) == .truncated)
    }

    @Test func everyPrefixOfARealSliceFailsCleanly() {
        // Cutting a valid file anywhere must give a ParseError, never a trap.
        let bytes = signedSlice
        for length in stride(from: 0, to: bytes.count, by: 97) {
            #expect(parseErrorCode(Array(bytes.prefix(length))) != nil)
        }
    }
}
