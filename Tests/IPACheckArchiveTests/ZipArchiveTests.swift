import Foundation
import IPACheckArchive
import IPACheckTestSupport
import Testing

struct ZipArchiveTests {
    @Test func readsMembersOfAStoredArchive() throws {
        var zip = ZipBuilder()
        zip.add("Payload/", [])
        zip.add("Payload/A.app/Info.plist", text: "hello")
        let archive = try ZipArchive(path: try zip.write())
        #expect(archive.entries.map(\.name) == ["Payload/", "Payload/A.app/Info.plist"])
        let entry = try #require(archive.entry(named: "Payload/A.app/Info.plist"))
        #expect(try archive.read(entry) == Array("hello".utf8))
        #expect(archive.entries[0].isDirectory)
    }

    /// The layouts real tools write are consistent (a quarter of real archives were ARC010).
    ///
    /// A data descriptor with only some local values zero (macOS's Archive Utility writes the size), or bit 3 set
    /// over filled local values and no descriptor. A real disagreement still is: another name locally, or a
    /// descriptor whose CRC is not the central one.
    @Test(
        arguments: [
            (.dataDescriptor(local: (false, false, true), descriptor: true, wrongDescriptor: false), nil),
            (.dataDescriptor(local: (false, false, false), descriptor: true, wrongDescriptor: false), nil),
            (.dataDescriptor(local: (true, true, true), descriptor: false, wrongDescriptor: false), nil),
            (.dataDescriptor(local: (true, true, true), descriptor: true, wrongDescriptor: false), nil),
            (.dataDescriptor(local: (false, false, true), descriptor: true, wrongDescriptor: true), "data descriptor"),
            (
                .dataDescriptor(local: (false, false, false), descriptor: false, wrongDescriptor: false),
                "data descriptor"
            ),
            (.localName("Payload/A.app/Other"), "local header names it Payload/A.app/Other"),
        ] as [(ZipBuilder.LocalLayout, String?)]
    )
    func consistencyIsJudgedAsAPPNOTEAllows(layout: ZipBuilder.LocalLayout, disagreement: String?) throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", text: "hello")
        zip.setLastLayout(layout)
        zip.add("Payload/A.app/B", text: "second")
        let archive = try ZipArchive(path: try zip.write())
        if let disagreement {
            #expect(archive.leniencyReason?.contains(disagreement) == true, "\(archive.leniencyReason ?? "nil")")
        } else {
            #expect(archive.leniencyReason == nil, "\(archive.leniencyReason ?? "")")
            #expect(try archive.read(archive.entries[0]) == Array("hello".utf8))
        }
    }

    /// An archive with a name flagged UTF-8 over other bytes is read, not refused as libzip alone would.
    ///
    /// The name is read as code page 437, as libzip reads a legacy name, every member reads, the strict consistency
    /// check passes, and the entry says its name was mislabelled. A second handle reads the same.
    @Test func readsAnArchiveWhoseUTF8FlagIsWrongForOneName() throws {
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", text: "hello")
        zip.add(rawName: Array("Payload/A.app/caf".utf8) + [0x82, 0xFF], Array("x".utf8), flags: 0x0800)
        zip.add("Payload/A.app/é", text: "accent")
        let archive = try ZipArchive(path: try zip.write())
        #expect(archive.leniencyReason == nil)
        #expect(archive.entries.map(\.nameMislabelledUTF8) == [false, true, false])
        #expect(archive.entries.map(\.nameWasNotUTF8) == [false, true, false])
        // python3: b'caf\x82\xff'.decode('cp437') == 'café\xa0'
        #expect(archive.entries[1].name == "Payload/A.app/café\u{A0}")
        for (entry, text) in Swift.zip(archive.entries, ["hello", "x", "accent"]) {
            #expect(try archive.read(entry) == Array(text.utf8))
        }
        let again = try ZipArchive(reopening: archive.reopening)
        #expect(Array(again.entries) == Array(archive.entries))
    }

    /// A second handle (for another thread) must read the same file the first one listed: a file replaced in
    /// between is refused rather than read as if it were the same archive.
    @Test func reopeningRefusesAFileThatChanged() throws {
        var first = ZipBuilder()
        first.add("a", text: "one")
        let path = try first.write()
        let archive = try ZipArchive(path: path)
        let again = try ZipArchive(reopening: archive.reopening)
        #expect(try again.read(try #require(again.entry(named: "a"))) == Array("one".utf8))

        var second = ZipBuilder()
        second.add("a", text: "two, longer")
        try Data(second.build()).write(to: URL(fileURLWithPath: path))
        #expect(throws: ArchiveError(.inconsistent, reason: "")) {
            _ = try ZipArchive(reopening: archive.reopening)
        }
    }

    @Test func rejectsAFileThatIsNotAZip() throws {
        let path = Scratch.folder.appendingPathComponent("not-a-zip-\(UUID()).ipa").path
        try Data("definitely not a zip".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ArchiveError(.notAZip, reason: "")) { _ = try ZipArchive(path: path) }
    }

    /// A member whose local header lies past the end of a 1 KB file is said to run past the end, not libzip's
    /// "Seek error: File too large".
    @Test func aMemberPastTheEndOfTheFileIsSaidInWords() throws {
        var zip = ZipBuilder()
        zip.add("a", text: "one")
        var bytes = zip.build()
        // The central header's local-header offset (at 42 of the header that follows the 33-byte member).
        let central = 30 + 1 + 3
        bytes[central + 42] = 0x00
        bytes[central + 43] = 0x04
        let path = Scratch.folder.appendingPathComponent("past-end-\(UUID()).zip")
        try Data(bytes).write(to: path)
        let archive = try ZipArchive(path: path.path)
        let error = #expect(throws: ArchiveError.self) { _ = try archive.read(archive.entries[0]) }
        #expect(error?.reason.hasPrefix("its") == true, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("error") == false, "\(error?.reason ?? "")")
        #expect(archive.leniencyReason?.contains("past the end of the file") == true)
    }

    @Test func reportsAMissingFileAsUnreadable() {
        #expect(throws: ArchiveError(.unreadable, reason: "")) { _ = try ZipArchive(path: "/nonexistent/x.ipa") }
    }

    @Test func stopsReadingAtTheMemberLimit() throws {
        var zip = ZipBuilder()
        zip.add("big", [UInt8](repeating: 7, count: 10_000))
        let archive = try ZipArchive(path: try zip.write())
        let entry = try #require(archive.entry(named: "big"))
        #expect(throws: ArchiveError(.tooLarge, reason: "")) { _ = try archive.read(entry, limit: 4096) }
        #expect(try archive.read(entry, limit: 10_000).count == 10_000)
    }

    @Test func detectsADamagedMember() throws {
        var zip = ZipBuilder()
        zip.add("bad", Array("payload".utf8), corruptCRC: true)
        let archive = try ZipArchive(path: try zip.write())
        let entry = try #require(archive.entry(named: "bad"))
        #expect(throws: ArchiveError(.damagedMember, reason: "")) { _ = try archive.read(entry) }
        // In words, not libzip's "CRC error".
        let error = #expect(throws: ArchiveError.self) { _ = try archive.read(entry) }
        #expect(error?.reason == "its data does not match its CRC (the member is damaged)")
    }

    @Test func streamsAndSkipsWithoutKeeping() throws {
        var zip = ZipBuilder()
        zip.add("data", (0..<200_000).map { UInt8($0 % 251) })
        let archive = try ZipArchive(path: try zip.write())
        let stream = try archive.stream(try #require(archive.entry(named: "data")))
        #expect(try stream.skip(to: 150_000))
        let bytes = try stream.read(exactly: 3)
        #expect(bytes == [UInt8(150_000 % 251), UInt8(150_001 % 251), UInt8(150_002 % 251)])
        #expect(try stream.skip(to: 300_000) == false)
    }

    @Test func refusesArchivesWithTooManyEntries() throws {
        var zip = ZipBuilder()
        for index in 0..<5 { zip.add("f\(index)", []) }
        let limits = ArchiveLimits(maximumEntries: 4, maximumMemberBytes: 1024, maximumStreamedBytes: 1024)
        #expect(throws: ArchiveError(.tooManyEntries, reason: "")) {
            _ = try ZipArchive(path: try zip.write(), limits: limits)
        }
    }

    /// The member count is taken from the end-of-central-directory record before the directory is read (which
    /// costs memory for each member): here a zip64 record claims three million members in a directory large enough for
    /// them, and no directory follows, so only the early check can name the count.
    @Test func refusesADeclaredMemberCountBeforeReadingTheDirectory() throws {
        func littleEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
            (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        let zip64End =
            littleEndian(0x0606_4B50, 4) + littleEndian(44, 8) + littleEndian(45, 2) + littleEndian(45, 2)
            + littleEndian(0, 4) + littleEndian(0, 4) + littleEndian(3_000_000, 8) + littleEndian(3_000_000, 8)
            + littleEndian(138_000_000, 8) + littleEndian(0, 8)
        let locator = littleEndian(0x0706_4B50, 4) + littleEndian(0, 4) + littleEndian(0, 8) + littleEndian(1, 4)
        let comment = Array("a comment".utf8)
        let end =
            littleEndian(0x0605_4B50, 4) + littleEndian(0, 4) + littleEndian(0xFFFF, 2) + littleEndian(0xFFFF, 2)
            + littleEndian(0xFFFF_FFFF, 4) + littleEndian(0xFFFF_FFFF, 4) + littleEndian(UInt64(comment.count), 2)
            + comment
        #expect(zip64End.count == 56)
        let path = Scratch.folder.appendingPathComponent("ipacheck-tests-\(UUID()).ipa").path
        try Data(zip64End + locator + end).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try ZipArchive(path: path)
        } throws: { error in
            let archive = error as? ArchiveError
            return archive?.code == .tooManyEntries
                && archive?.reason == "archive lists 3000000 members, more than the 1000000 accepted"
        }
    }

    /// A seal's limit follows the members the archive has (codesign writes about 310 bytes a sealed file:
    /// 1,504,079 bytes for bench-results/Large.ipa's 4,849), files read whole keep theirs, and no count traps.
    @Test func sealLimitFollowsTheArchiveAndMemberCapsAreClamped() {
        let standard = ArchiveLimits.standard
        #expect(standard.maximumEntries == 1_000_000)
        #expect(standard.maximumSealBytes(memberCount: 100) == standard.maximumMemberBytes)
        #expect(standard.maximumSealBytes(memberCount: 100_000) == 40_000_000)
        #expect(standard.maximumSealBytes(memberCount: Int.max) == Int.max)
        #expect(ArchiveLimits.allowing(entries: 100_000).maximumEntries == 100_000)
        #expect(ArchiveLimits.allowing(entries: 100_000).maximumMemberBytes == standard.maximumMemberBytes)
        #expect(ArchiveLimits.allowing(entries: 0).maximumEntries == 1)
        #expect(ArchiveLimits.allowing(entries: 10_000_000).maximumEntries == ArchiveLimits.largestEntryLimit)
    }

    @Test func listsHostileNamesWithoutTouchingTheFileSystem() throws {
        var zip = ZipBuilder()
        zip.add("../evil", text: "x")
        zip.add("/etc/passwd", text: "x")
        let archive = try ZipArchive(path: try zip.write())
        #expect(archive.entries.map(\.name) == ["../evil", "/etc/passwd"])
    }
}
