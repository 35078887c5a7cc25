import Foundation
import IPACheckTestSupport
import Testing

@testable import IPACheckArchive

/// A truncated ipa says it is truncated, wherever it was cut, and a symbolic link given as the archive's own path
/// is followed (links inside a bundle still never are).
struct ArchiveFailureWordsTests {
    /// A zip of a few members, large enough to be cut inside a member's data.
    static func sample() -> [UInt8] {
        var zip = ZipBuilder()
        zip.add("Payload/", [])
        zip.add("Payload/A.app/Info.plist", text: String(repeating: "info ", count: 200))
        zip.add("Payload/A.app/A", [UInt8](repeating: 0xCF, count: 3000))
        return zip.build()
    }

    static func write(_ bytes: [UInt8]) throws -> String {
        let path = Scratch.folder.appendingPathComponent("cut-\(UUID()).ipa").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func truncationReason(_ bytes: [UInt8]) throws -> String? {
        let path = try write(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try ZipArchive(path: path)
            return nil
        } catch  where error.code == .truncated {
            return error.reason
        } catch {
            Issue.record("expected a truncated archive, got \(error.code): \(error.reason)")
            return nil
        }
    }

    /// Cut at every length from 4 bytes to one short of the whole, the archive is truncated, never "not a zip".
    @Test func anArchiveCutAnywhereIsTruncated() throws {
        let whole = Self.sample()
        for length in stride(from: 4, to: whole.count, by: 7) + [whole.count - 1] {
            let reason = try #require(try Self.truncationReason(Array(whole.prefix(length))), "cut at \(length)")
            #expect(reason.hasPrefix("the archive is truncated (\(length) bytes; "), "\(reason)")
            #expect(reason.hasSuffix("download or copy it again"), "\(reason)")
            #expect(!reason.contains("not a zip"))
        }
    }

    @Test func aCutInsideAMemberNamesItAndHowMuchArrived() throws {
        let whole = Self.sample()
        // The executable's data starts after three local headers; cut 100 bytes into it.
        let header = Array("Payload/A.app/A".utf8)
        let start = try #require(Self.find(header, in: whole)) + header.count
        let reason = try #require(try Self.truncationReason(Array(whole.prefix(start + 100))))
        #expect(reason.contains("it ends inside member Payload/A.app/A, after 100 of its"), "\(reason)")
    }

    @Test func aCentralDirectoryPastTheEndIsTruncated() throws {
        var bytes = Self.sample()
        let record = try #require(Self.find([0x50, 0x4B, 0x05, 0x06], in: bytes, last: true))
        // Move the directory's declared offset 5000 bytes past the end of the file.
        let offset = UInt32(bytes.count + 5000)
        for index in 0..<4 { bytes[record + 16 + index] = UInt8((offset >> (8 * UInt32(index))) & 0xFF) }
        let reason = try #require(try Self.truncationReason(bytes))
        #expect(reason.contains("its central directory should start at byte \(offset), past its end"), "\(reason)")
    }

    @Test func aFileThatIsNotAZipIsStillNotAZip() throws {
        let path = try Self.write(Array("PK but not really a zip archive at all".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ArchiveError(.notAZip, reason: "")) { _ = try ZipArchive(path: path) }
    }

    @Test func aWholeArchiveStillOpens() throws {
        let path = try Self.write(Self.sample())
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try ZipArchive(path: path).entries.count == 3)
    }

    // MARK: A symbolic link as the archive's path

    @Test(arguments: [true, false])
    func aLinkToAnAppFolderIsFollowedOnce(relative: Bool) throws {
        let app = try FolderArchiveTests.folder("A.app", files: ["Info.plist", "A"])
        let root = app.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        // An inner link that leaves the bundle: still never followed.
        try FileManager.default.createSymbolicLink(
            atPath: app.appendingPathComponent("out").path,
            withDestinationPath: "/etc"
        )
        let link = root.appendingPathComponent("Link.app")
        try FileManager.default.createSymbolicLink(
            atPath: link.path,
            withDestinationPath: relative ? "A.app" : app.path
        )
        let archive = try ZipArchive(path: link.path)
        #expect(archive.entries.map(\.name) == ["A.app/A", "A.app/Info.plist"])
        #expect(archive.escapingLinks.map(\.name) == ["A.app/out"])
    }

    @Test func aLinkNamedAsAnAppToAFolderNamedOtherwiseTakesTheLinksName() throws {
        let folder = try FolderArchiveTests.folder("build-output", files: ["Info.plist"])
        let root = folder.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let link = root.appendingPathComponent("Shop.app")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: folder.path)
        let archive = try ZipArchive(path: link.path)
        #expect(archive.entries.map(\.name) == ["Shop.app/Info.plist"])
    }

    @Test func aLinkToAnUnpackedIPAIsFollowed() throws {
        let app = try FolderArchiveTests.folder("Payload/A.app", files: ["Info.plist"])
        let unpacked = app.deletingLastPathComponent().deletingLastPathComponent()
        let link = unpacked.deletingLastPathComponent().appendingPathComponent("link-\(UUID())")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: unpacked.path)
        defer {
            try? FileManager.default.removeItem(at: link)
            try? FileManager.default.removeItem(at: unpacked)
        }
        let archive = try ZipArchive(path: link.path)
        #expect(archive.entries.map(\.name).contains("Payload/A.app/Info.plist"))
    }

    @Test func aLinkToAnIPAIsFollowed() throws {
        let path = try Self.write(Self.sample())
        let link = path + "-link.ipa"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        defer {
            try? FileManager.default.removeItem(atPath: link)
            try? FileManager.default.removeItem(atPath: path)
        }
        #expect(try ZipArchive(path: link).entries.count == 3)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], last: Bool = false) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        let starts = Array(0...(bytes.count - needle.count))
        let ordered = last ? starts.reversed() : starts
        return ordered.first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

extension ArchiveFailureWordsTests {
    @Test func aDanglingLinkSaysWhereItPoints() throws {
        let link = Scratch.folder.appendingPathComponent("dangling-\(UUID()).ipa")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/nonexistent/App.ipa")
        defer { try? FileManager.default.removeItem(at: link) }
        #expect {
            _ = try ZipArchive(path: link.path)
        } throws: { error in
            (error as? ArchiveError)?.reason == "is a symbolic link to /nonexistent/App.ipa, which does not exist"
        }
    }
}
