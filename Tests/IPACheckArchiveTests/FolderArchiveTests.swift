import Foundation
import IPACheckTestSupport
import Testing

@testable import IPACheckArchive

/// Folders read as archives: names as in an ipa, caps while walking, links judged without being followed.
struct FolderArchiveTests {
    static func folder(_ name: String, files: [String]) throws -> URL {
        let root = Scratch.folder.appendingPathComponent("ipacheck-folder-\(UUID())")
        let bundle = root.appendingPathComponent(name)
        for file in files {
            let url = bundle.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(file.utf8).write(to: url)
        }
        return bundle
    }

    /// An .app folder is listed under its real name (it was labelled `Payload/A.app`, a path it has not).
    @Test func anAppIsListedUnderItsOwnName() throws {
        let app = try Self.folder("A.app", files: ["Info.plist", "en.lproj/Main.strings"])
        defer { try? FileManager.default.removeItem(at: app.deletingLastPathComponent()) }
        let archive = try ZipArchive(path: app.path)
        #expect(
            archive.entries.map(\.name) == [
                "A.app/Info.plist", "A.app/en.lproj/", "A.app/en.lproj/Main.strings",
            ]
        )
        let entry = try #require(archive.entry(named: "A.app/en.lproj/Main.strings"))
        #expect(try archive.read(entry) == Array("en.lproj/Main.strings".utf8))
    }

    /// Another thread's handle reuses the first walk (the folder is not listed twice).
    @Test func reopeningAFolderReusesItsListing() throws {
        let app = try Self.folder("A.app", files: ["Info.plist"])
        defer { try? FileManager.default.removeItem(at: app.deletingLastPathComponent()) }
        let archive = try ZipArchive(path: app.path)
        try Data("later".utf8).write(to: app.appendingPathComponent("Later.txt"))
        let again = try ZipArchive(reopening: archive.reopening)
        #expect(Array(again.entries) == Array(archive.entries))
        #expect(
            try again.read(try #require(again.entry(named: "A.app/Info.plist"))) == Array("Info.plist".utf8)
        )
    }

    @Test func theMemberCapHoldsWhileWalking() throws {
        let app = try Self.folder("A.app", files: (0..<6).map { "f\($0)" })
        defer { try? FileManager.default.removeItem(at: app.deletingLastPathComponent()) }
        let limits = ArchiveLimits(maximumEntries: 4, maximumMemberBytes: 1024, maximumStreamedBytes: 1024)
        #expect(throws: ArchiveError(.tooManyEntries, reason: "")) {
            _ = try ZipArchive(path: app.path, limits: limits)
        }
    }

    @Test func anArchiveWithoutAnAppIsRefused() throws {
        let archive = try Self.folder("B.xcarchive", files: ["Info.plist"])
        defer { try? FileManager.default.removeItem(at: archive.deletingLastPathComponent()) }
        #expect {
            _ = try ZipArchive(path: archive.path)
        } throws: { error in
            (error as? ArchiveError)?.reason == "is an .xcarchive without Products/Applications/*.app"
        }
    }

    @Test(arguments: [
        ("Info.plist", "A", true), ("../Info.plist", "Frameworks/A", true), ("../../x", "Frameworks/A", false),
        ("/etc/passwd", "A", false), ("./././b", "A", true), ("a/../../b", "A", false), ("", "A", false),
    ])
    func linksStayInsideOnlyWhenTheyNeverClimbOut(target: String, from: String, inside: Bool) {
        #expect(FolderArchive.staysInside(target, from: from) == inside)
    }
}
