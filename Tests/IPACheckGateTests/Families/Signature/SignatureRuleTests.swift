import Foundation
import IPACheckBinary
import IPACheckGate
import IPACheckPlist
import IPACheckReport
import IPACheckSigning
import IPACheckTestSupport
import Testing

/// Code-signature rules made to fire, and kept quiet on the closest valid input.
///
/// Signatures are generated (real hashes; CMS messages signed by a throwaway CA over the primary
/// CodeDirectory blob, which the CMS signs: Apple's TN3126, "Inside Code Signing: Hashes") and damaged one field at
/// a time; field offsets are the CodeDirectory layout of xnu's `osfmk/kern/cs_blobs.h` (opensource.apple.com).
struct SignatureRuleTests {
    static let bundle = "Payload/A.app"
    // Inside the generated certificates' validity (2023-11 to 2033-05), so no expiry note interferes.
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    // MARK: Builders

    typealias Entry = (slot: UInt32, blob: [UInt8])

    /// Replaces the slice's SuperBlob by `change(blobs)`, zero-padded to the `LC_CODE_SIGNATURE` size, so the
    /// header, and with it every code-page hash, stays as signed.
    private static func replacingSignature(
        of bytes: [UInt8],
        _ change: ([Entry]) throws -> [Entry]
    ) throws -> [UInt8] {
        let slice = try #require(try MachOContainer.parse(bytes).slices.first)
        let range = try #require(slice.signatureFileRange)
        let signature = try #require(slice.signature)
        let superBlob = SuperBlobBuilder.superBlob(try change(signature.blobs.map { ($0.slot, $0.bytes) }))
        try #require(superBlob.count <= range.count)
        let padding = [UInt8](repeating: 0, count: range.count - superBlob.count)
        return Array(bytes[..<range.lowerBound]) + superBlob + padding
    }

    /// A slice signed with an identity: its CMS blob is `cms(primary CodeDirectory blob)`.
    private static func identitySigned(cms: ([UInt8]) throws -> [UInt8]) throws -> [UInt8] {
        var signing = MachOBuilder.Signing()
        signing.flags = 0  // not ad hoc
        signing.cms = [UInt8](repeating: 0, count: 8192)  // room for the message, filled in below
        return try replacingSignature(of: MachOBuilder.slice(signing: signing)) { blobs in
            let directory = try #require(blobs.first { $0.slot == 0 }).blob
            let message = try cms(directory)
            return blobs.map {
                $0.slot == 0x10000 ? ($0.slot, SuperBlobBuilder.blob(magic: 0xfade_0b01, payload: message)) : $0
            }
        }
    }

    /// A detached CMS message over `content`, signed by a fresh leaf of a fresh root.
    private static func cms(
        over content: [UInt8],
        _ configure: (inout ProfileBuilder) -> Void = { _ in }
    ) throws
        -> [UInt8]
    {
        var builder = ProfileBuilder(payload: .dictionary([:]))
        builder.signedContent = content
        builder.detachesContent = true
        configure(&builder)
        return try builder.build()
    }

    private static func verify(
        _ bytes: [UInt8],
        infoPlist: SealedFile = .notChecked,
        codeResources: SealedFile = .notChecked
    ) throws -> SignatureCheck {
        try SignatureVerifier.verify(
            fileBytes: bytes,
            infoPlist: infoPlist,
            codeResources: codeResources,
            bundle: bundle,
            now: now
        )
    }

    private static func bundles(of rule: String, in check: SignatureCheck) -> [String?] {
        check.findings.filter { $0.rule == rule }.map(\.bundle)
    }

    // MARK: SIG004 CodeDirectory inconsistent

    /// One way a CodeDirectory can fail to describe its slice.
    enum DirectoryDamage: String, CaseIterable, CustomTestStringConvertible {
        case unknownHashType, codeLimitOnePageShort, codeLimitPastTheSlice

        var testDescription: String { rawValue }

        /// Patches the CodeDirectory blob: `codeLimit` is the u32 at 32, `hashType` the u8 at 37.
        func apply(to directory: inout [UInt8]) {
            func setCodeLimit(_ value: UInt32) {
                directory.replaceSubrange(32..<36, with: SuperBlobBuilder.be32(value))
            }
            let limit = directory[32..<36].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            switch self {
            // cs_blobs.h's hash types: 1 SHA-1, 2 SHA-256, 3 SHA-256 truncated, 4 SHA-384.
            case .unknownHashType: directory[37] = 0x7f
            case .codeLimitOnePageShort: setCodeLimit(limit - 4096)  // 3 code slots, 2 pages up to the limit
            case .codeLimitPastTheSlice: setCodeLimit(0x7fff_0000)
            }
        }
    }

    @Test("a CodeDirectory that cannot describe its slice raises SIG004", arguments: DirectoryDamage.allCases)
    func codeDirectoryInvalidFires(damage: DirectoryDamage) throws {
        // Ad hoc: no CMS message covers the CodeDirectory, so only SIG004 speaks about the damage.
        let bytes = try Self.replacingSignature(of: MachOBuilder.slice(signing: MachOBuilder.Signing())) { blobs in
            blobs.map { entry in
                guard entry.slot == 0 else { return entry }
                var directory = entry.blob
                damage.apply(to: &directory)
                return (entry.slot, directory)
            }
        }
        let check = try Self.verify(bytes)
        #expect(!check.isValid)
        #expect(Self.bundles(of: "SIG004", in: check) == [Self.bundle])
    }

    @Test("the undamaged generated CodeDirectory raises no SIG004")
    func codeDirectoryInvalidQuiet() throws {
        let bytes = try Self.replacingSignature(of: MachOBuilder.slice(signing: MachOBuilder.Signing())) { $0 }
        let check = try Self.verify(bytes)
        #expect(check.isValid)
        #expect(Self.bundles(of: "SIG004", in: check).isEmpty)
        #expect(check.slices.first?.codeDirectories.first?.codePageCount == 3)  // ceil((32 + 16 + 10000) / 4096)
    }

    // MARK: SIG005 CMS invalid, SIG006 CMS unreadable, SIG009 chain incomplete

    @Test("a correctly signed CMS message proves the CodeDirectory: no SIG005, SIG006 or SIG009")
    func cmsRulesQuiet() throws {
        let check = try Self.verify(try Self.identitySigned { try Self.cms(over: $0) })
        #expect(check.isValid)
        let cms = try #require(check.slices.first?.cms)
        #expect(cms.signatureVerifies && cms.messageDigestMatches && cms.identity != nil)
        let rules = Set(check.findings.map(\.rule))
        #expect(rules.isDisjoint(with: ["SIG005", "SIG006", "SIG009"]))
    }

    @Test("a damaged signature value raises SIG005")
    func cmsInvalidFiresOnSignature() throws {
        let bytes = try Self.identitySigned { try Self.cms(over: $0) { $0.corruptsSignature = true } }
        let check = try Self.verify(bytes)
        #expect(!check.isValid)
        #expect(check.slices.first?.cms?.signatureVerifies == false)
        #expect(Self.bundles(of: "SIG005", in: check) == [Self.bundle])
    }

    @Test("a message signing another CodeDirectory (messageDigest differs) raises SIG005")
    func cmsInvalidFiresOnDigest() throws {
        let bytes = try Self.identitySigned { directory in
            var other = directory
            other[other.count - 1] ^= 0x01  // the last code-page hash
            return try Self.cms(over: other)
        }
        let check = try Self.verify(bytes)
        #expect(!check.isValid)
        #expect(check.slices.first?.cms?.messageDigestMatches == false)
        #expect(Self.bundles(of: "SIG005", in: check) == [Self.bundle])
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func cmsInvalidFiresOnAnEditedRealCodeDirectory() throws {
        // MANIFEST: Demo_exec is a modern signed exec with a CMS; its check is valid untouched.
        var bytes = try Corpus.bytes("macho/appinfo_embedded.ipa_Demo_exec")
        let untouched = try Self.verify(bytes)
        #expect(Self.bundles(of: "SIG005", in: untouched).isEmpty)

        let slice = try #require(try MachOContainer.parse(bytes).slices.first)
        let start = try #require(slice.signatureFileRange).lowerBound
        let signature = try #require(slice.signature)
        let blob = try #require(signature.blobs.first { $0.slot == 0 })
        let identifier = Array(try #require(signature.primaryCodeDirectory).identifier.utf8) + [0]
        let at = try #require(
            blob.bytes.indices.first { blob.bytes[$0...].starts(with: identifier) }
        )
        bytes[start + blob.offset + at] ^= 0x20  // change the signing identifier's first letter's case
        let check = try Self.verify(bytes)
        #expect(check.slices.first?.cms?.messageDigestMatches == false)
        #expect(Self.bundles(of: "SIG005", in: check).contains(Self.bundle))
    }

    @Test(
        "a CMS blob that is no CMS SignedData raises SIG006",
        arguments: [
            [0x30, 0x03, 0x02, 0x01, 0x01],  // SEQUENCE { INTEGER 1 }: DER, but no ContentInfo
            Array("not a CMS message".utf8),
        ]
    )
    func cmsMalformedFires(message: [UInt8]) throws {
        let check = try Self.verify(try Self.identitySigned { _ in message })
        #expect(!check.isValid)
        #expect(Self.bundles(of: "SIG006", in: check) == [Self.bundle])
        #expect(check.slices.first?.cms == nil)
    }

    /// The trust family judges this signer (SIG009, in TrustFindingsTests); the signature itself holds.
    @Test("a signer that does not chain to an Apple root keeps a valid signature")
    func chainIncompleteSignatureHolds() async throws {
        let bytes = try Self.identitySigned { try Self.cms(over: $0) { $0.includesRoot = false } }
        let check = try Self.verify(bytes)
        #expect(check.isValid)  // SIG009 is a note about trust: the mathematics hold
        #expect(check.slices.first?.cms?.identity != nil)
    }

    // MARK: SIG010 sealed file not checked

    private static var sealingSigning: MachOBuilder.Signing {
        var signing = MachOBuilder.Signing()
        signing.infoPlist = Array("info".utf8)
        signing.codeResources = Array("resources".utf8)
        return signing
    }

    @Test("a bound Info.plist slot without the file raises SIG010 naming Info.plist")
    func slotNotCheckedFires() throws {
        let bytes = MachOBuilder.slice(signing: Self.sealingSigning)
        let check = try Self.verify(bytes, infoPlist: .notChecked, codeResources: .bytes(Array("resources".utf8)))
        let found = check.findings.filter { $0.rule == "SIG010" }
        #expect(found.map(\.bundle) == [Self.bundle])
        #expect(found.first?.message.contains("Info.plist") == true)
        #expect(check.isValid)  // a note: nothing is known to be broken
    }

    @Test("both sealed files supplied raise no SIG010")
    func slotNotCheckedQuietWithFiles() throws {
        let bytes = MachOBuilder.slice(signing: Self.sealingSigning)
        let check = try Self.verify(
            bytes,
            infoPlist: .bytes(Array("info".utf8)),
            codeResources: .bytes(Array("resources".utf8))
        )
        #expect(check.isValid)
        #expect(Self.bundles(of: "SIG010", in: check).isEmpty)
    }

    @Test("an all-zero (unbound) Info.plist slot seals nothing, so a missing file raises no SIG010")
    func slotNotCheckedQuietWhenUnbound() throws {
        var signing = MachOBuilder.Signing()
        signing.codeResources = Array("resources".utf8)  // slots −1...−3 emitted, −1 left zero
        let check = try Self.verify(
            MachOBuilder.slice(signing: signing),
            infoPlist: .notChecked,
            codeResources: .bytes(Array("resources".utf8))
        )
        #expect(Self.bundles(of: "SIG010", in: check).isEmpty)
    }

    // MARK: SIG024 entitlements not a dictionary

    private static func entitlements(xml: String?, der: [UInt8]?) throws -> SignedEntitlements {
        var signing = MachOBuilder.Signing()
        signing.xmlEntitlements = xml.map { Array($0.utf8) }
        signing.derEntitlements = der
        let slice = try #require(try MachOContainer.parse(MachOBuilder.slice(signing: signing)).slices.first)
        return SignedEntitlements.read(try #require(slice.signature), context: "arm64", bundle: bundle)
    }

    private static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">\(body)</plist>
        """
    }

    // MARK: SIG020 XML and DER disagree, SIG022 slices disagree

    /// Entitlements granting `get-task-allow` as given, in both forms.
    private static func entitlements(getTaskAllow xml: Bool, der: Bool) throws -> SignedEntitlements {
        try entitlements(
            xml: plist("<dict><key>get-task-allow</key><\(xml)/></dict>"),
            der: SuperBlobBuilder.derEntitlementsApplication([("get-task-allow", SuperBlobBuilder.derBool(der))])
        )
    }

    @Test("XML entitlements that say otherwise than the DER ones raise SIG020, an error; the same in both, none")
    func xmlDERDisagreeFires() throws {
        let found = try Self.entitlements(getTaskAllow: true, der: false).findings.filter { $0.rule == "SIG020" }
        #expect(found.map(\.bundle) == [Self.bundle])
        #expect(found.first?.severity == .error)
        #expect(try !Self.entitlements(getTaskAllow: false, der: false).findings.contains { $0.rule == "SIG020" })
    }

    @Test("slices signed with different entitlements raise SIG022, an error; the same in every slice, none")
    func slicesDisagreeFires() throws {
        let allow = try Self.entitlements(getTaskAllow: true, der: true)
        let deny = try Self.entitlements(getTaskAllow: false, der: false)
        let found = SignedEntitlements.compareSlices([("armv7", allow), ("arm64", deny)], bundle: Self.bundle)
            .map(\.finding)
        #expect(found.map(\.rule) == ["SIG022"])
        #expect(found.first?.severity == .error)
        #expect(found.first?.bundle == Self.bundle)
        #expect(SignedEntitlements.compareSlices([("armv7", allow), ("arm64", allow)], bundle: Self.bundle).isEmpty)
    }

    // MARK: SIG007 signature without signer

    @Test("a signature not flagged ad hoc whose CMS wrapper is empty raises SIG007; flagged ad hoc, none")
    func noSignerFires() throws {
        var signing = MachOBuilder.Signing()
        signing.flags = 0
        let found = Self.bundles(of: "SIG007", in: try Self.verify(MachOBuilder.slice(signing: signing)))
        #expect(found == [Self.bundle])
        let adHoc = try Self.verify(MachOBuilder.slice(signing: MachOBuilder.Signing()))
        #expect(Self.bundles(of: "SIG007", in: adHoc).isEmpty)
        #expect(adHoc.isValid)
    }

    @Test("XML entitlements whose root is an array raise SIG024")
    func notDictionaryFiresForXML() throws {
        let read = try Self.entitlements(xml: Self.plist("<array><string>get-task-allow</string></array>"), der: nil)
        let found = read.findings.filter { $0.rule == "SIG024" }
        #expect(found.map(\.bundle) == [Self.bundle])
        #expect(found.first?.message.contains("XML") == true)
    }

    @Test("DER entitlements [APPLICATION 16] { 1, SEQUENCE } (an array, not [CONTEXT 16]) raise SIG024")
    func notDictionaryFiresForDER() throws {
        let der = SuperBlobBuilder.der(
            0x70,
            SuperBlobBuilder.derInteger(1) + SuperBlobBuilder.derArray([SuperBlobBuilder.derString("get-task-allow")])
        )
        let read = try Self.entitlements(xml: nil, der: der)
        let found = read.findings.filter { $0.rule == "SIG024" }
        #expect(found.map(\.bundle) == [Self.bundle])
        #expect(found.first?.message.contains("DER") == true)
    }

    @Test("dictionaries in both forms (either DER encoding) raise no SIG024", arguments: [true, false])
    func notDictionaryQuiet(applicationEncoding: Bool) throws {
        let entries = [("get-task-allow", SuperBlobBuilder.derBool(false))]
        let der =
            applicationEncoding
            ? SuperBlobBuilder.derEntitlementsApplication(entries) : SuperBlobBuilder.derEntitlementsSet(entries)
        let read = try Self.entitlements(xml: Self.plist("<dict><key>get-task-allow</key><false/></dict>"), der: der)
        #expect(!read.findings.contains { $0.rule == "SIG024" })
        #expect(read.effective == .dictionary(["get-task-allow": .bool(false)]))
    }
}
