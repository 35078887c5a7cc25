import Foundation
import IPACheckBinary
import IPACheckCMS
import IPACheckReport
import IPACheckSigning
import IPACheckTestSupport
import Testing

/// `verify` against real signatures (every page, special slot and CMS message of these files was checked
/// independently with python3 hashlib and `openssl cms -verify -noverify`), and against generated ones.
struct VerificationTests {
    // A fixed clock so expiry notes do not change with the date the tests run.
    static let now = Date(timeIntervalSince1970: 1_900_000_000)  // 2030-03-17

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func isignAppVerifiesWithItsBundleFiles() async throws {
        let check = try SignatureVerifier.verify(
            fileBytes: try Corpus.bytes("macho/isign_Test.app_isignTestApp"),
            infoPlist: .bytes(try Corpus.bytes("macho/isign_Test.app_Info.plist")),
            codeResources: .bytes(try Corpus.bytes("macho/isign_Test.app_CodeResources")),
            now: Self.now
        )
        #expect(check.isValid)
        #expect(check.slices.count == 2)
        for slice in check.slices {
            #expect(slice.problems.isEmpty)
            let directory = try #require(slice.codeDirectories.first)
            #expect(directory.codePageCount == 18)  // construct: nCodeSlots = 18
            #expect(directory.specialSlots.map(\.status) == [.valid, .valid, .valid, .valid])  // -1 -2 -3 -5
            #expect(slice.cms?.signatureVerifies == true)
            #expect(slice.cms?.messageDigestMatches == true)
            #expect(slice.cms?.digestAlgorithm == "sha256")  // openssl cms -print: digestAlgorithm sha256
            #expect(await slice.cms?.identity?.evaluateTrust(now: Date()).isTrusted == true)  // WWDR → Apple Root CA
            #expect(slice.notes.map(\.kind).contains(.signerExpired))  // openssl: signer expired 2016
        }
        // python3 hashlib: SHA-1 of the armv7 slice's CodeDirectory blob.
        #expect(check.slices.first?.codeDirectories.first?.cdhash == "f9b1c87affc3072d4fa0cc3a70832df80534d8a0")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func fastlaneAppVerifiesBothDirectoriesAndCDHashPlist() throws {
        let check = try SignatureVerifier.verify(
            fileBytes: try Corpus.bytes("macho/fastlane_very-capable-app"),
            infoPlist: .bytes(try Corpus.bytes("macho/fastlane_very-capable-app_Info.plist")),
            codeResources: .bytes(try Corpus.bytes("macho/fastlane_very-capable-app_CodeResources")),
            now: Self.now
        )
        #expect(check.isValid)
        let slice = try #require(check.slices.first)
        #expect(slice.codeDirectories.map(\.hashType) == ["sha1", "sha256"])
        // python3 hashlib over the two CodeDirectory blobs.
        #expect(
            slice.codeDirectories.map(\.cdhash) == [
                "7f460942d61d6de921b0452a0780147aa492c803",
                "550f53b40adf507823232aa224c7c2cd5d545272e757bb727c43adfdd3b8bef6",
            ]
        )
        #expect(slice.cms?.codeDirectoryHashesMatch == true)  // 1.2.840.113635.100.9.1 plist attribute
        #expect(slice.cms?.signer?.subject.contains("TestFixture") == true)  // MANIFEST: self-made cert
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func flippedEntitlementsByteBreaksVerification() throws {
        var bytes = try Corpus.bytes("macho/fastlane_very-capable-app")
        let container = try MachOContainer.parse(bytes)
        let slice = try #require(container.slices.first)
        let signatureStart = try #require(slice.signatureFileRange).lowerBound
        let blob = try #require(slice.signature?.xmlEntitlements)
        // Flip a byte inside the plist text (well past the 8-byte blob header).
        bytes[signatureStart + blob.offset + 100] ^= 0x01
        let check = try SignatureVerifier.verify(
            fileBytes: bytes,
            infoPlist: .bytes(try Corpus.bytes("macho/fastlane_very-capable-app_Info.plist")),
            codeResources: .bytes(try Corpus.bytes("macho/fastlane_very-capable-app_CodeResources")),
            now: Self.now
        )
        #expect(!check.isValid)
        #expect(check.problems.contains { $0.kind == .specialSlotBroken && $0.message.contains("entitlements") })
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func modifiedInfoPlistAndMissingResourcesBreakVerification() throws {
        var info = try Corpus.bytes("macho/isign_Test.app_Info.plist")
        info[info.count / 2] ^= 0xff
        let check = try SignatureVerifier.verify(
            fileBytes: try Corpus.bytes("macho/isign_Test.app_isignTestApp"),
            infoPlist: .bytes(info),
            codeResources: .missing,
            now: Self.now
        )
        #expect(!check.isValid)
        let statuses = check.slices.first?.codeDirectories.first?.specialSlots.map(\.status)
        #expect(statuses == [.modified, .valid, .missing, .valid])
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func flippedCodeByteIsAModifiedPage() throws {
        var bytes = try Corpus.bytes("macho/appinfo_embedded.ipa_Demo_exec")
        bytes[5000] ^= 0x01  // page 1 (4096...8191), code pages cover [0, 69424)
        let check = try SignatureVerifier.verify(fileBytes: bytes, infoPlist: .notChecked, codeResources: .notChecked)
        #expect(!check.isValid)
        #expect(check.slices.first?.codeDirectories.first?.modifiedPages == [1])
    }

    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"),
        arguments: [
            "macho/appinfo_embedded.ipa_Demo_exec",
            "macho/appinfo_NotificationService.appex_exec",
            "macho/appinfo_FMDB.framework_bin",
            "macho/isign_Test.app_libswiftDispatch.dylib",
        ]
    )
    func signedBinariesVerifyWithoutTheirBundle(path: String) throws {
        let check = try SignatureVerifier.verify(
            fileBytes: try Corpus.bytes(path),
            infoPlist: .notChecked,
            codeResources: .notChecked,
            now: Self.now
        )
        #expect(check.isValid)
        #expect(check.slices.allSatisfy { $0.cms?.isValid == true })
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func adHocSimulatorAppIsValid() throws {
        let check = try SignatureVerifier.verify(
            fileBytes: try Corpus.bytes("macho/fastlane_simulator-app_very-capable-app"),
            infoPlist: .bytes(try Corpus.bytes("macho/fastlane_simulator-app_Info.plist")),
            codeResources: .notChecked
        )
        #expect(check.isValid)
        #expect(check.slices.first?.isAdHoc == true)
        #expect(check.slices.first?.cms == nil)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func signatureWithoutCMSIsValidButNoted() throws {
        let check = try SignatureVerifier.verify(
            fileBytes: try Corpus.bytes("macho/zsign_demo1.dylib"),
            infoPlist: .notChecked,
            codeResources: .notChecked
        )
        #expect(check.isValid)
        #expect(check.problems.map(\.kind) == [.noCMS])
    }

    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"),
        arguments: ["macho/isign_unsigned_thin_isignTestApp", "macho/isign_unsigned_fat_isignTestApp"]
    )
    func unsignedBinariesFail(path: String) throws {
        let check = try SignatureVerifier.verify(
            fileBytes: try Corpus.bytes(path),
            infoPlist: .missing,
            codeResources: .missing
        )
        #expect(!check.isValid)
        #expect(check.problems.allSatisfy { $0.kind == .unsigned })
    }

    // MARK: Generated

    @Test(arguments: [UInt8(1), 2, 3])
    func generatedSignatureVerifiesForEachHashType(hashType: UInt8) throws {
        var signing = MachOBuilder.Signing()
        signing.hashTypes = [hashType]
        signing.infoPlist = Array("info".utf8)
        signing.codeResources = Array("resources".utf8)
        signing.xmlEntitlements = Array("<plist/>".utf8)
        signing.derEntitlements = SuperBlobBuilder.derEntitlementsSet([("a", SuperBlobBuilder.derBool(true))])
        let bytes = MachOBuilder.slice(bodySize: 20_000, signing: signing)
        let check = try SignatureVerifier.verify(
            fileBytes: bytes,
            infoPlist: .bytes(Array("info".utf8)),
            codeResources: .bytes(Array("resources".utf8))
        )
        #expect(check.isValid)
        let directory = try #require(check.slices.first?.codeDirectories.first)
        #expect(directory.specialSlots.map(\.slot) == [1, 2, 3, 5, 7])
        #expect(directory.specialSlots.allSatisfy { $0.status == .valid })
        #expect(directory.codePageCount == 5)  // ceil((32 + 16 + 20000 rounded to 16) / 4096)
    }

    @Test func generatedFatBinaryChecksEverySlice() throws {
        var signing = MachOBuilder.Signing()
        signing.derEntitlements = SuperBlobBuilder.derEntitlementsApplication([("a", SuperBlobBuilder.derBool(true))])
        let good = MachOBuilder.slice(signing: signing)
        var bad = MachOBuilder.slice(cpuSubtype: 2, signing: signing)
        bad[200] ^= 0x01
        let bytes = MachOBuilder.fat([(0x0100_000c, 0, good), (0x0100_000c, 2, bad)], is64Bit: true)
        let check = try SignatureVerifier.verify(fileBytes: bytes, infoPlist: .notChecked, codeResources: .notChecked)
        #expect(check.slices.map(\.isValid) == [true, false])
        #expect(check.slices.last?.problems.map(\.kind) == [.codePageModified])
    }

    @Test func unsealedEntitlementsBlobIsAProblem() throws {
        // Sign without entitlements, then splice an entitlements blob into the SuperBlob by rebuilding it.
        let signing = MachOBuilder.Signing()
        let plain = MachOBuilder.slice(signing: signing)
        let container = try MachOContainer.parse(plain)
        let slice = try #require(container.slices.first)
        let range = try #require(slice.signatureFileRange)
        let original = try #require(slice.signature)
        var entries = original.blobs.map { (slot: $0.slot, blob: $0.bytes) }
        entries.append((slot: 5, blob: SuperBlobBuilder.blob(magic: 0xfade_7171, payload: Array("<plist/>".utf8))))
        let forged = SuperBlobBuilder.superBlob(entries)
        var bytes = Array(plain[..<range.lowerBound]) + forged
        // Keep LC_CODE_SIGNATURE.datasize honest (little-endian at 32 + 12).
        let size = UInt32(forged.count)
        for index in 0..<4 { bytes[44 + index] = UInt8(size >> (8 * UInt32(index)) & 0xff) }
        let check = try SignatureVerifier.verify(fileBytes: bytes, infoPlist: .notChecked, codeResources: .notChecked)
        // The header changed too (datasize), so page 0 differs; the unsealed blob must be reported regardless.
        #expect(!check.isValid)
        #expect(check.problems.contains { $0.kind == .specialSlotBroken && $0.message.contains("not sealed") })
    }
}
