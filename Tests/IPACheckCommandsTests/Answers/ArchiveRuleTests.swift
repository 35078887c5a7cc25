import Foundation
import IPACheckBundle
import IPACheckCommands
import IPACheckFetching
import IPACheckGate
import IPACheckReport
import IPACheckTestSupport
import Testing

/// Archive rules made to fire on a hand-built zip and kept quiet on the closest valid one.
///
/// Zip facts are PKWARE's APPNOTE (4.4.4 general-purpose flag, 4.4.5 compression method,
/// appendix D: names are CP437 unless bit 11 says UTF-8).
struct ArchiveRuleTests {
    static let app = "Payload/A.app"
    static let appex = "Payload/A.app/PlugIns/Share.appex"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    private static func info(_ id: String, executable: String) -> [UInt8] {
        PlistFixture.info(["CFBundleIdentifier": id, "CFBundleExecutable": executable, "CFBundleVersion": "1"])
    }

    /// An ad hoc signed arm64 executable: a readable Mach-O.
    private static var executable: [UInt8] { MachOBuilder.slice(signing: MachOBuilder.Signing()) }

    /// A main app with a readable executable, ready for more members.
    private static func appZip() -> ZipBuilder {
        var zip = ZipBuilder()
        zip.add("\(app)/Info.plist", info("com.example.a", executable: "A"))
        zip.add("\(app)/A", executable)
        return zip
    }

    private static func findings(_ zip: ZipBuilder, rule: String) throws -> [Finding] {
        try IPAFile(path: try zip.write()).findings.filter { $0.rule == rule }
    }

    /// The one finding of `rule` that `zip` raises, expected at `severity`, when `quiet` (the closest valid archive)
    /// raises none.
    private static func oneFinding(
        of rule: String,
        _ severity: Severity,
        in zip: ZipBuilder,
        quietIn quiet: ZipBuilder
    ) throws -> Finding? {
        let found = try findings(zip, rule: rule)
        #expect(found.count == 1)
        #expect(found.first?.severity == severity)
        #expect(try findings(quiet, rule: rule).isEmpty)
        return found.first
    }

    // MARK: ARC003 unreadable member

    @Test(
        "an encrypted member (flag bit 0) or one in a method libzip cannot decompress (6, imploded) raises ARC003",
        arguments: [(UInt16(0x0801), UInt16(0)), (UInt16(0x0800), UInt16(6))]
    )
    func unreadableMemberFires(flags: UInt16, method: UInt16) throws {
        var zip = Self.appZip()
        zip.add("\(Self.app)/secret.dat", Array("payload".utf8), flags: flags, method: method)
        let found = try Self.findings(zip, rule: "ARC003")
        #expect(found.map(\.location) == ["\(Self.app)/secret.dat"])
        // iOS's installer cannot extract the member either, so it refuses the ipa: an error.
        #expect(found.first?.severity == .error)
    }

    @Test("the same member stored plainly (method 0, not encrypted) is read and raises no ARC003")
    func unreadableMemberQuiet() throws {
        var zip = Self.appZip()
        zip.add("\(Self.app)/secret.dat", Array("payload".utf8), flags: 0x0800, method: 0)
        let ipa = try IPAFile(path: try zip.write())
        #expect(!ipa.findings.contains { $0.rule == "ARC003" })
        #expect(try ipa.read("\(Self.app)/secret.dat") == Array("payload".utf8))
    }

    // MARK: ARC005 several apps

    @Test("two apps under Payload raise ARC005, a warning naming both and the one checked; one app raises none")
    func severalAppsFires() throws {
        var zip = Self.appZip()
        zip.add("Payload/B.app/Info.plist", Self.info("com.example.b", executable: "B"))
        let found = try Self.oneFinding(of: "ARC005", .warning, in: zip, quietIn: Self.appZip())
        #expect(found?.message == "Payload holds 2 apps (Payload/A.app, Payload/B.app); checking Payload/A.app")
    }

    // MARK: ARC010 local headers disagree with the central directory

    @Test("a local header naming another file than the central directory raises ARC010, an error; as written, none")
    func inconsistentDirectoryFires() throws {
        var zip = Self.appZip()
        zip.add("\(Self.app)/a.txt", text: "a")
        zip.setLastLayout(.localName("\(Self.app)/other.txt"))
        var consistent = Self.appZip()
        consistent.add("\(Self.app)/a.txt", text: "a")
        let found = try Self.oneFinding(of: "ARC010", .error, in: zip, quietIn: consistent)
        #expect(found?.message.contains("\(Self.app)/other.txt") == true)
    }

    // MARK: ARC013 names differ only in case

    @Test("two names that differ only in case raise ARC013, a warning at the second; distinct names raise none")
    func caseCollisionFires() throws {
        var zip = Self.appZip()
        zip.add("\(Self.app)/file.txt", text: "lower")
        zip.add("\(Self.app)/File.txt", text: "upper")
        var distinct = Self.appZip()
        distinct.add("\(Self.app)/file.txt", text: "lower")
        distinct.add("\(Self.app)/other.txt", text: "other")
        let found = try Self.oneFinding(of: "ARC013", .warning, in: zip, quietIn: distinct)
        #expect(found?.message.contains("differ only in case") == true)
    }

    // MARK: ARC007 bundle Info.plist missing or malformed

    @Test("an extension whose Info.plist is not a property list raises ARC007, an error; a readable one raises none")
    func bundleInfoPlistFires() throws {
        var zip = Self.appZip()
        zip.add("\(Self.appex)/Info.plist", text: "<plist><dict>")
        var readable = Self.appZip()
        readable.add("\(Self.appex)/Info.plist", Self.info("com.example.a.share", executable: "Share"))
        let found = try Self.oneFinding(of: "ARC007", .error, in: zip, quietIn: readable)
        #expect(found?.location?.hasPrefix(Self.appex) == true)
    }

    // MARK: ARC006 non-UTF-8 name

    @Test("a CP437 name (0x82 is é there, and no valid UTF-8) raises ARC006, decoded by guessing")
    func nonUTF8NameFires() throws {
        var zip = Self.appZip()
        zip.add(rawName: Array("\(Self.app)/caf".utf8) + [0x82] + Array(".txt".utf8), Array("x".utf8))
        let found = try Self.findings(zip, rule: "ARC006")
        // python3: b'caf\x82.txt'.decode('cp437') == 'café.txt'
        #expect(found.map(\.location) == ["\(Self.app)/café.txt"])
        #expect(found.first?.severity == .note)
    }

    /// A name flagged UTF-8 (bit 11) over bytes that are not is a finding, not a damaged archive.
    ///
    /// libzip refused the whole archive as "damaged zip archive: Zip archive inconsistent" while `unzip -t` passes
    /// it. It is read, and the name is the finding: the bytes taken as a legacy (CP437) name, with what was wrong
    /// said.
    @Test("a name flagged UTF-8 over bytes that are not raises ARC006, and the archive is read")
    func mislabelledUTF8NameIsAFindingNotDamage() throws {
        var zip = Self.appZip()
        zip.add(rawName: Array("\(Self.app)/caf".utf8) + [0x82] + Array(".txt".utf8), Array("x".utf8), flags: 0x0800)
        let ipa = try IPAFile(path: try zip.write())
        let found = ipa.findings.filter { $0.rule == "ARC006" }
        // python3: b'caf\x82.txt'.decode('cp437') == 'café.txt'
        #expect(found.map(\.location) == ["\(Self.app)/café.txt"])
        #expect(found.first?.message.contains("marked UTF-8") == true)
        #expect(!ipa.findings.contains { $0.rule == "ARC010" }, "the strict check passes once the flag is read")
        #expect(try ipa.read("\(Self.app)/café.txt") == Array("x".utf8))
    }

    @Test("the same name written as UTF-8 with flag bit 11 raises no ARC006")
    func nonUTF8NameQuiet() throws {
        var zip = Self.appZip()
        zip.add("\(Self.app)/café.txt", Array("x".utf8))
        let ipa = try IPAFile(path: try zip.write())
        #expect(!ipa.findings.contains { $0.rule == "ARC006" })
        #expect(ipa.contains("\(Self.app)/café.txt"))
    }

    // MARK: ARC009 unreadable nested executable

    @Test(
        "a nested bundle whose executable is not a Mach-O, or a truncated one, raises ARC009 for that bundle",
        arguments: [
            Array("#!/bin/sh\necho not a Mach-O\n".utf8),
            Array(MachOBuilder.slice(signing: MachOBuilder.Signing()).prefix(20)),  // header is 32 bytes
        ]
    )
    func unreadableExecutableFires(executable: [UInt8]) throws {
        var zip = Self.appZip()
        zip.add("\(Self.appex)/Info.plist", Self.info("com.example.a.share", executable: "Share"))
        zip.add("\(Self.appex)/Share", executable)
        let ipa = try IPAFile(path: try zip.write())

        let info = try InfoReport.make(for: ipa)
        let fromInfo = info.findings.filter { $0.rule == "ARC009" }
        #expect(fromInfo.map(\.bundle) == [Self.appex])
        #expect(fromInfo.first?.severity == .error)

        let facts = try #require(
            try BundleFacts.gatherAll(ipa: ipa).first { $0.bundle.path == Self.appex }
        )
        #expect(facts.findings(judgedAt: Self.now).filter { $0.rule == "ARC009" }.map(\.bundle) == [Self.appex])
        #expect(facts.container == nil)
    }

    @Test(
        "a truncated main executable is ARC009 in check's and verify's reports, and links says no device runs it",
        arguments: [20, 2_000]  // inside the header; past the load commands, before the signature's end
    )
    func truncatedMainExecutableIsAFinding(keeping bytes: Int) async throws {
        var zip = ZipBuilder()
        zip.add("\(Self.app)/Info.plist", Self.info("com.example.a", executable: "A"))
        zip.add("\(Self.app)/A", Array(Self.executable.prefix(bytes)))
        let path = try zip.write()

        let result = try await ReleaseGate.check(
            path: path,
            options: GateOptions(
                fetch: FetchOptions(offlineDirectory: URL(fileURLWithPath: "/nonexistent")),
                fetcher: nil
            )
        )
        let found = result.findings.filter { $0.rule == "ARC009" }
        #expect(found.map { $0.bundle } == [Self.app])
        #expect(found.first?.severity == .error)
        // links and explain: the build step that stops every link names it.
        #expect(result.links.linkSheet().buildErrors.contains { $0.rule == "ARC009" })

        let verified = try await VerifyReport.verify(path: path)
        #expect(verified.findings.contains { $0.rule == "ARC009" && $0.bundle == Self.app })
    }

    @Test("a nested bundle with a readable Mach-O raises no ARC009")
    func unreadableExecutableQuiet() throws {
        var zip = Self.appZip()
        zip.add("\(Self.appex)/Info.plist", Self.info("com.example.a.share", executable: "Share"))
        zip.add("\(Self.appex)/Share", Self.executable)
        let ipa = try IPAFile(path: try zip.write())

        let info = try InfoReport.make(for: ipa)
        #expect(!info.findings.contains { $0.rule == "ARC009" })
        #expect(info.bundles.map(\.architectures) == [["arm64"], ["arm64"]])

        let facts = try #require(
            try BundleFacts.gatherAll(ipa: ipa).first { $0.bundle.path == Self.appex }
        )
        #expect(!facts.findings(judgedAt: Self.now).contains { $0.rule == "ARC009" })
        #expect(facts.container != nil)
    }
}
