import IPACheckBinary
import IPACheckTestSupport
import Testing

/// Parses the real binaries of ../shared/corpus/macho.
///
/// Expected values come from isign's construct dump
/// (`isign_Test.app.codesig.construct.txt`), MANIFEST.tsv, and byte offsets read independently with python3's
/// `struct` module (noted beside each value).
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct MachOCorpusTests {
    @Test func isignFatAppMatchesConstructDump() throws {
        let container = try MachOContainer.parse(try Corpus.bytes("macho/isign_Test.app_isignTestApp"))
        #expect(container.format == .fat)
        #expect(container.architectureNames == ["armv7", "arm64"])  // MANIFEST: armv7+arm64 fat
        // python3 struct over the fat_arch table: offsets 16384 and 114688, sizes 82224 and 83744.
        #expect(container.slices.map(\.range) == [16384..<(16384 + 82224), 114688..<(114688 + 83744)])
        let first = try #require(container.slices.first)
        #expect(first.header.fileType == .execute)
        // construct: dataoff 71920, datasize 10304; its sb_start (88312) points past the SuperBlob's magic and length.
        #expect(first.loadCommands.codeSignatureRange == 71920..<(71920 + 10304))
        #expect(first.signatureFileRange?.lowerBound == 88312 - 8)
        let signature = try #require(first.signature)
        // construct: BlobIndex types 0, 2, 5, 65536 at offsets 44, 594, 790, 1301, lengths 550, 196, 511, 4370.
        #expect(signature.blobs.map(\.slot) == [0, 2, 5, 0x10000])
        #expect(signature.blobs.map(\.offset) == [44, 594, 790, 1301])
        #expect(signature.blobs.map(\.bytes.count) == [550, 196, 511, 4370])
        let directory = try #require(signature.primaryCodeDirectory)
        #expect(directory.version == 131_584)
        #expect(directory.flags == 0)
        #expect(directory.hashOffset == 190)
        #expect(directory.specialSlotCount == 5)
        #expect(directory.codeSlotCount == 18)
        #expect(directory.codeLimit == 71920)
        #expect(directory.hashSize == 20)
        #expect(directory.hashType == .sha1)
        #expect(directory.pageSizeLog2 == 12)
        #expect(directory.identifier == "com.saucelabs.isignTestApp")
        #expect(directory.teamID == "L37S4Z6BE9")
        #expect(directory.scatterOffset == nil)
        #expect(directory.codeLimit64 == nil)
        // construct: hashes[0] (special slot -5) starts with ':\x02\xd0\x07', slot -4 is all zeros.
        #expect(Array(try #require(directory.specialSlotHash(5)).prefix(4)) == [0x3a, 0x02, 0xd0, 0x07])
        #expect(try #require(directory.specialSlotHash(4)).allSatisfy { $0 == 0 })
        // construct: the last code slot hash begins '\xa0\xeb\x02\xa9'.
        #expect(Array(try #require(directory.codeSlotHash(17)).prefix(4)) == [0xa0, 0xeb, 0x02, 0xa9])
        #expect(directory.codeSlotHash(18) == nil)
        #expect(directory.isAdHoc == false)
        #expect(signature.xmlEntitlements?.payload.isEmpty == false)
        #expect(signature.derEntitlements == nil)
        // python3 struct: LC_ENCRYPTION_INFO present with cryptid 0.
        #expect(first.loadCommands.encryption?.cryptID == 0)
        #expect(first.loadCommands.encryption?.isEncrypted == false)
    }

    @Test func fastlaneHasSHA1AndAlternateSHA256Directories() throws {
        let container = try MachOContainer.parse(try Corpus.bytes("macho/fastlane_very-capable-app"))
        #expect(container.format == .thin)
        #expect(container.architectureNames == ["arm64"])
        let signature = try #require(container.slices.first?.signature)
        // MANIFEST: CD v0x20400 SHA-1 + alternate SHA-256 CD (slot 0x1000).
        #expect(signature.codeDirectories.map(\.slot) == [0, 0x1000])
        #expect(signature.codeDirectories.map(\.hashType) == [.sha1, .sha256])
        #expect(signature.codeDirectories.map(\.version) == [0x20400, 0x20400])
        #expect(signature.codeDirectories.allSatisfy { $0.execSegmentFlags != nil && $0.runtimeVersion == nil })
        let xml = String(decoding: try #require(signature.xmlEntitlements).payload, as: UTF8.self)
        #expect(xml.contains("webcredentials:example.com"))
        #expect(signature.cmsSignature?.payload.isEmpty == false)
    }

    @Test func simulatorAppIsAdHocWithoutEntitlements() throws {
        let container = try MachOContainer.parse(try Corpus.bytes("macho/fastlane_simulator-app_very-capable-app"))
        #expect(container.architectureNames == ["x86_64"])  // python3: cputype 0x1000007
        let slice = try #require(container.slices.first)
        let signature = try #require(slice.signature)
        #expect(signature.primaryCodeDirectory?.flags == 0x2)  // MANIFEST: CD flags 0x2
        #expect(signature.isAdHoc)
        #expect(signature.cmsSignature?.bytes.count == 8)  // MANIFEST: empty 8-byte CMS wrapper
        #expect(signature.xmlEntitlements == nil)
        #expect(signature.derEntitlements == nil)
        #expect(slice.loadCommands.encryption == nil)  // python3: no LC_ENCRYPTION_INFO_64
    }

    @Test func zsignDylibHasNoCMSSlot() throws {
        let container = try MachOContainer.parse(try Corpus.bytes("macho/zsign_demo1.dylib"))
        let slice = try #require(container.slices.first)
        #expect(slice.header.fileType == .dylib)
        let signature = try #require(slice.signature)
        // MANIFEST: CodeDirectory v0x20400 SHA-1 flags 0, requirements, alternate SHA-256; no 0x10000 slot.
        #expect(signature.blobs.map(\.slot) == [0, 2, 0x1000])
        #expect(signature.cmsSignature == nil)
        #expect(signature.primaryCodeDirectory?.flags == 0)
        #expect(signature.primaryCodeDirectory?.version == 0x20400)
    }

    @Test func demoExecutableHasXMLAndDEREntitlements() throws {
        let container = try MachOContainer.parse(try Corpus.bytes("macho/appinfo_embedded.ipa_Demo_exec"))
        let signature = try #require(container.slices.first?.signature)
        // MANIFEST: XML entitlements (0xfade7171) + DER entitlements (0xfade7172, slot 7) + CMS.
        #expect(signature.xmlEntitlements?.magic == 0xfade_7171)
        #expect(signature.derEntitlements?.magic == 0xfade_7172)
        // A bare DER SET (0x31): the older of the two encodings signed apps hold.
        #expect(signature.derEntitlements?.payload.first == 0x31)
        #expect(signature.codeDirectories.count == 1)
    }

    @Test(arguments: [
        ("macho/appinfo_NotificationService.appex_exec", MachOFileType.execute),
        ("macho/appinfo_FMDB.framework_bin", MachOFileType.dylib),
    ])
    func fatAppInfoBinaries(path: String, fileType: MachOFileType) throws {
        let container = try MachOContainer.parse(try Corpus.bytes(path))
        // python3 struct: both are armv7 (cputype 0xc, subtype 9) + arm64 fat binaries, each slice signed with
        // a SHA-1 CodeDirectory and an alternate SHA-256 one.
        #expect(container.architectureNames == ["armv7", "arm64"])
        for slice in container.slices {
            #expect(slice.header.fileType == fileType)
            #expect(slice.signature?.codeDirectories.map(\.hashType) == [.sha1, .sha256])
        }
    }

    @Test(arguments: [
        ("macho/isign_unsigned_thin_isignTestApp", ["arm64"]),
        ("macho/isign_unsigned_fat_isignTestApp", ["armv7", "arm64"]),
    ])
    func unsignedBinariesHaveNoSignature(path: String, architectures: [String]) throws {
        let container = try MachOContainer.parse(try Corpus.bytes(path))
        #expect(container.architectureNames == architectures)
        #expect(container.slices.allSatisfy { $0.signature == nil && $0.signatureFileRange == nil })
    }

    @Test func streamingScanKeepsOnlyNeededBytes() throws {
        let bytes = try Corpus.bytes("macho/isign_Test.app_isignTestApp")
        var scanner = MachOStreamScanner(fileSize: bytes.count)
        var offset = 0
        while !scanner.isComplete, offset < bytes.count {
            let end = min(bytes.count, offset + 4096)
            try scanner.consume(bytes[offset..<end])
            offset = end
        }
        let streamed = try scanner.finish()
        #expect(streamed == (try MachOContainer.parse(bytes)))
        // Two headers + load commands + two 10304-byte signatures: far less than the 198432-byte file.
        #expect(scanner.file.knownByteCount < 30_000)
    }

    @Test func scanNamesRangesStepByStep() throws {
        let bytes = try Corpus.bytes("macho/isign_Test.app_isignTestApp")
        var file = PartialFile(size: bytes.count)
        var rounds = 0
        while true {
            rounds += 1
            switch try MachOContainer.scan(file) {
            case .complete(let container):
                #expect(container.architectureNames == ["armv7", "arm64"])
                #expect(rounds <= 6)
                return
            case .needsBytes(let ranges):
                #expect(!ranges.isEmpty)
                for range in ranges { file.add(bytes[range], at: range.lowerBound) }
                try #require(rounds < 10)
            }
        }
    }
}
