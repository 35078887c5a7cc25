import Foundation
import IPACheckArchive
import IPACheckBundle
import IPACheckReport
import IPACheckTestSupport
import Testing

struct IPAFileTests {
    private static func info(_ id: String, executable: String? = nil) -> [UInt8] {
        var keys = ["CFBundleIdentifier": id, "CFBundleShortVersionString": "1.0", "CFBundleVersion": "7"]
        if let executable { keys["CFBundleExecutable"] = executable }
        return PlistFixture.info(keys)
    }

    @Test func findsTheMainAppAndEveryNestedBundleInOrder() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", Self.info("com.a"))
        zip.add("Payload/A.app/PlugIns/Share.appex/Info.plist", Self.info("com.a.share"))
        zip.add("Payload/A.app/Extensions/Widget.appex/Info.plist", Self.info("com.a.widget"))
        zip.add("Payload/A.app/AppClips/Clip.app/Info.plist", Self.info("com.a.Clip"))
        zip.add("Payload/A.app/Watch/W.app/Info.plist", Self.info("com.a.watchkitapp"))
        zip.add("Payload/A.app/Watch/W.app/PlugIns/WE.appex/Info.plist", Self.info("com.a.watchkitapp.ext"))
        zip.add("Payload/A.app/Frameworks/Kit.framework/Info.plist", Self.info("com.a.kit"))
        zip.add("Payload/A.app/Frameworks/Kit.framework/Kit", [0xCF, 0xFA, 0xED, 0xFE])
        zip.add("Payload/A.app/embedded.mobileprovision", [1])
        let ipa = try IPAFile(path: try zip.write())
        #expect(
            ipa.bundles.map(\.path) == [
                "Payload/A.app",
                "Payload/A.app/PlugIns/Share.appex",
                "Payload/A.app/Extensions/Widget.appex",
                "Payload/A.app/AppClips/Clip.app",
                "Payload/A.app/Watch/W.app",
                "Payload/A.app/Watch/W.app/PlugIns/WE.appex",
                "Payload/A.app/Frameworks/Kit.framework",
            ]
        )
        #expect(ipa.bundles.map(\.kind) == [.app, .appex, .appex, .appclip, .watch, .appex, .framework])
        #expect(ipa.bundles[5].parent == "Payload/A.app/Watch/W.app")
        #expect(ipa.mainApp.bundleID == "com.a")
        #expect(ipa.mainApp.build == "7")
        #expect(ipa.mainApp.provisioningProfile == "Payload/A.app/embedded.mobileprovision")
        #expect(ipa.problems.isEmpty)
    }

    @Test func reportsAndSkipsPathTraversalNames() throws {
        var zip = ZipBuilder()
        zip.add("../evil", text: "x")
        zip.add("Payload/A.app/../../etc/passwd", text: "x")
        zip.add("/abs/path", text: "x")
        zip.add("Payload/A.app/Info.plist", Self.info("com.a"))
        let ipa = try IPAFile(path: try zip.write())
        #expect(ipa.problems.filter { $0.kind == .unsafeMemberPath }.count == 3)
        #expect(!ipa.contains("../evil"))
    }

    /// Duplicates are read as sequential extractors (`unzip -o`, Python's zipfile) write them: the last copy wins.
    ///
    /// The first was read, so a garbage second executable passed and a foreign first Info.plist failed.
    /// It is ARC002, an error (which copy iOS keeps is not documented); one cause, so no ARC010 beside it.
    @Test func readsTheLastOfDuplicateMembersAndSaysSo() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", Self.info("com.first"))
        zip.add("Payload/A.app/Info.plist", Self.info("com.second"))
        let ipa = try IPAFile(path: try zip.write())
        #expect(ipa.mainApp.bundleID == "com.second")
        #expect(ipa.problems.map(\.kind) == [.duplicateMember])
        #expect(ipa.problems.first?.message.contains("the last copy is read") == true)
    }

    /// Two spellings of one name in different Unicode normalisation forms (NFC `é`, NFD `e` + U+0301) are one file
    /// on Apple's file systems: ARC002, saying so, and the last copy is read.
    @Test func namesThatDifferOnlyInNormalisationAreOneMember() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", Self.info("com.a"))
        zip.add("Payload/A.app/caf\u{E9}.txt", text: "composed")
        zip.add("Payload/A.app/cafe\u{301}.txt", text: "decomposed")
        let ipa = try IPAFile(path: try zip.write())
        #expect(ipa.problems.map(\.kind) == [.duplicateMember])
        #expect(ipa.problems.first?.message.contains("two Unicode normalisation forms") == true)
        #expect(try ipa.read("Payload/A.app/caf\u{E9}.txt") == Array("decomposed".utf8))
    }

    /// Names that differ only in case are ARC013 (a warning), both read as stored.
    @Test func namesDifferingOnlyInCaseAreACollisionNotADuplicate() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", Self.info("com.a"))
        zip.add("Payload/A.app/file.txt", text: "lower")
        zip.add("Payload/A.app/File.txt", text: "upper")
        let ipa = try IPAFile(path: try zip.write())
        #expect(ipa.problems.map(\.kind) == [.caseCollision])
        #expect(try ipa.read("Payload/A.app/file.txt") == Array("lower".utf8))
        #expect(try ipa.read("Payload/A.app/File.txt") == Array("upper".utf8))
    }

    @Test func readsAPayloadNestedUnderAFolderWithAWarning() throws {
        var zip = ZipBuilder()
        zip.add("Export/Payload/A.app/Info.plist", Self.info("com.a"))
        let ipa = try IPAFile(path: try zip.write())
        #expect(ipa.mainApp.path == "Export/Payload/A.app")
        #expect(ipa.problems.map(\.kind) == [.nestedPayload])
    }

    @Test func ignoresFinderShadowCopies() throws {
        var zip = ZipBuilder()
        zip.add("__MACOSX/Payload/A.app/._Info.plist", [0])
        zip.add("Payload/A.app/Info.plist", Self.info("com.a"))
        let ipa = try IPAFile(path: try zip.write())
        #expect(ipa.mainApp.path == "Payload/A.app")
    }

    @Test func picksTheFirstOfSeveralAppsWithAWarning() throws {
        var zip = ZipBuilder()
        zip.add("Payload/B.app/Info.plist", Self.info("com.b"))
        zip.add("Payload/A.app/Info.plist", Self.info("com.a"))
        let ipa = try IPAFile(path: try zip.write())
        #expect(ipa.mainApp.bundleID == "com.a")
        #expect(ipa.problems.map(\.kind) == [.severalApps])
    }

    /// Apps are found whatever order their members come in, and a name whose slash a combining mark joins to the
    /// next character is not split there (Swift's characters, as the general search reads them).
    @Test func findsInterleavedAppsAndKeepsCombinedSlashesWhole() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/a.png", [1])
        zip.add("Payload/B.app/Info.plist", Self.info("com.b"))
        zip.add("Payload/A.app/Info.plist", Self.info("com.a"))
        let interleaved = try IPAFile(path: try zip.write())
        #expect(interleaved.mainApp.bundleID == "com.a")
        #expect(interleaved.problems.map(\.kind) == [.severalApps])

        var combined = ZipBuilder()
        combined.add("Payload/X.app/\u{301}a", [1])
        combined.add("Payload/A.app/Info.plist", Self.info("com.a"))
        let ipa = try IPAFile(path: try combined.write())
        #expect(ipa.mainApp.path == "Payload/A.app")
        #expect(!ipa.problems.contains { $0.kind == .severalApps })
    }

    @Test func reportsAMissingExecutable() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", Self.info("com.a", executable: "A"))
        let ipa = try IPAFile(path: try zip.write())
        #expect(ipa.mainApp.executable == nil)
        #expect(ipa.problems.map(\.kind) == [.missingExecutable])
    }

    @Test func reportsANestedBundleWithABrokenInfoPlist() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", Self.info("com.a"))
        zip.add("Payload/A.app/PlugIns/X.appex/Info.plist", text: "<plist><dict>")
        let ipa = try IPAFile(path: try zip.write())
        #expect(ipa.bundles.count == 1)
        #expect(ipa.problems.map(\.kind) == [.bundleInfoPlist])
    }

    /// A test bundle in PlugIns is a bundle like an extension (neither info nor verify listed it).
    @Test func listsATestBundleInPlugIns() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", Self.info("com.a"))
        zip.add("Payload/A.app/PlugIns/ATests.xctest/Info.plist", Self.info("com.a.tests"))
        let ipa = try IPAFile(path: try zip.write())
        #expect(ipa.bundles.map(\.path) == ["Payload/A.app", "Payload/A.app/PlugIns/ATests.xctest"])
        #expect(ipa.bundles.last?.kind == .xctest)
    }

    /// A zipped .app is read where it is, its bundle at the archive's root (README, targets).
    @Test func readsAZippedAppAtTheRoot() throws {
        var zip = ZipBuilder()
        zip.add("A.app/Info.plist", Self.info("com.a"))
        zip.add("A.app/PlugIns/X.appex/Info.plist", Self.info("com.a.x"))
        let ipa = try IPAFile(path: try zip.write(named: "A.app.zip"))
        #expect(ipa.bundles.map(\.path) == ["A.app", "A.app/PlugIns/X.appex"])
        // iOS installs no ipa without Payload/ at its root: every gate fails it (README, targets).
        #expect(ipa.problems.map(\.kind) == [.nestedPayload])
    }

    @Test(arguments: [
        ("no Payload", ["Other/A.app/Info.plist"], "no-app-bundle"),
        ("empty zip", [], "no-app-bundle"),
        ("no Info.plist", ["Payload/A.app/A"], "bad-info-plist"),
    ])
    func refusesArchivesWithoutAnApp(label: String, members: [String], code: String) throws {
        var zip = ZipBuilder()
        for member in members { zip.add(member, text: "x") }
        let path = try zip.write()
        #expect(label.isEmpty == false)
        #expect {
            _ = try IPAFile(path: path)
        } throws: { error in
            (error as? InputError)?.code == code
        }
    }

    /// More members than the limit: refused with the count and how to raise it; raising it reads the same file.
    @Test func refusesMoreMembersThanTheLimitUnlessRaised() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", Self.info("com.a"))
        for index in 0..<9 { zip.add("Payload/A.app/r\(index)", text: "x") }
        let path = try zip.write()
        let tight = ArchiveLimits(maximumEntries: 9, maximumMemberBytes: 1 << 20, maximumStreamedBytes: 1 << 20)
        #expect {
            _ = try IPAFile(path: path, limits: tight)
        } throws: { error in
            let input = error as? InputError
            return input?.code == "too-many-members"
                && input?.message.hasPrefix("archive lists 10 members, more than the 9 accepted") == true
                && input?.message.contains("--max-members") == true
        }
        #expect(try IPAFile(path: path, limits: .allowing(entries: 10)).mainApp.bundleID == "com.a")
    }

    @Test func refusesAMalformedMainInfoPlist() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", text: "not a plist at all")
        let path = try zip.write()
        #expect {
            _ = try IPAFile(path: path)
        } throws: { error in
            let input = error as? InputError
            // The reason is the parser's own, not a bare "malformed".
            return input?.code == "bad-info-plist"
                && input?.message == "Payload/A.app/Info.plist cannot be read: neither a binary plist (bplist) nor an "
                    + "XML document"
        }
    }

    @Test func listsABundlesOwnFilesWithoutNestedBundles() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", Self.info("com.a"))
        zip.add("Payload/A.app/en.lproj/Main.strings", text: "x")
        zip.add("Payload/A.app/PlugIns/X.appex/Info.plist", Self.info("com.a.x"))
        let ipa = try IPAFile(path: try zip.write())
        #expect(ipa.files(of: ipa.mainApp) == ["Info.plist", "en.lproj/Main.strings"])
    }
}
