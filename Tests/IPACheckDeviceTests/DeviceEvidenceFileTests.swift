import Foundation
import IPACheckDevice
import IPACheckReport
import IPACheckTestSupport
import Testing

/// A sysdiagnose read as the archive it is: made by Python's `tarfile` (a peer writer: gzip, ustar, pax and GNU
/// long names), one top folder, many other members before the show file; the show file found and read, nothing
/// unpacked; damage and absence said in words.
@Suite(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 to write the archives"))
struct DeviceEvidenceFileTests {
    /// Writes `sys.argv[1]` as a sysdiagnose-like archive: `sys.argv[2]` is the tarfile mode (`w:gz`, `w`), its
    /// format (`gnu`, `pax`), whether the show file is included, and the length of a long path before it.
    static let writer = #"""
        import io, random, sys, tarfile
        path, mode, fmt, include, long_path = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1", int(sys.argv[5])
        top = "sysdiagnose_2026.11.26_10-00-00+0000_iPhone-OS_iPhone_23B85"
        rng = random.Random(3)
        formats = {"gnu": tarfile.GNU_FORMAT, "pax": tarfile.PAX_FORMAT, "ustar": tarfile.USTAR_FORMAT}
        def add(t, name, data):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1795651200
            t.addfile(info, io.BytesIO(data))
        with tarfile.open(path, mode, format=formats[fmt]) as t:
            for i in range(300):
                add(t, f"{top}/logs/member-{i}.log", bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 3000))))
            if long_path:
                add(t, f"{top}/" + "d" * long_path + "/x.txt", b"long")
            add(t, "../swcutil_show.txt.bak", b"not this one")
            if include:
                add(t, f"{top}/swcutil_show.txt", sys.stdin.buffer.read())
            add(t, f"{top}/after.txt", b"after")
        """#

    static let show = """
        =================================== DATABASE ===================================
        Service:              applinks
        App ID:               ABCDE12345.com.example.shop
        Domain:               shop.example.com
        User Approval:        unspecified
        Site/Fmwk Approval:   approved
        """

    static func write(
        mode: String = "w:gz",
        format: String = "gnu",
        include: Bool = true,
        longPath: Int = 0
    ) throws -> String {
        let path = Scratch.folder
            .appendingPathComponent("sysdiagnose-\(UUID().uuidString).tar.gz").path
        let result = try ProcessRunner.run(
            program: "python3",
            ["-c", writer, path, mode, format, include ? "1" : "0", String(longPath)],
            input: Data(show.utf8),
            errors: .merged
        )
        try #require(result.status == 0, "\(result.output)")
        return path
    }

    @Test(arguments: [("w:gz", "gnu", 0), ("w:gz", "pax", 180), ("w:gz", "gnu", 180), ("w", "ustar", 0)])
    func findsTheShowFileInASysdiagnose(mode: String, format: String, longPath: Int) throws {
        let path = try Self.write(mode: mode, format: format, longPath: longPath)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let evidence = try DeviceEvidenceFile(path: path)
        #expect(evidence.text == Self.show)
        guard case .archiveMember(let name, let before) = evidence.origin else {
            Issue.record("read from \(evidence.origin)")
            return
        }
        #expect(name.hasPrefix("sysdiagnose_2026.11.26") && name.hasSuffix("/swcutil_show.txt"))
        #expect(before == 300 + (longPath > 0 ? 1 : 0) + 1)
    }

    @Test func anArchiveWithoutTheFileSaysSo() throws {
        let path = try Self.write(include: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try DeviceEvidenceFile(path: path)
        } throws: { error in
            (error as? InputError)?.message.contains("holds no swcutil_show.txt") == true
        }
    }

    /// Cut anywhere, or with a byte changed, the archive is an error in words, never a crash or a partial text.
    @Test func aDamagedArchiveIsAnErrorInWords() throws {
        let path = try Self.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for cut in stride(from: 10, to: bytes.count - 8, by: max(1, bytes.count / 40)) {
            try Data(bytes.prefix(cut)).write(to: URL(fileURLWithPath: path))
            do {
                let evidence = try DeviceEvidenceFile(path: path)
                // A cut after the show file leaves it whole; nothing else may be read.
                #expect(evidence.text == Self.show, "cut at \(cut)")
            } catch {
                #expect(!error.message.isEmpty && !error.message.contains("Error Domain"), "\(error.message)")
            }
        }
        var damaged = bytes
        damaged[bytes.count / 2] ^= 0x55
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        #expect {
            try DeviceEvidenceFile(path: path)
        } throws: { error in
            guard let message = (error as? InputError)?.message else { return false }
            return message.contains("damaged") || message.contains("CRC") || message.contains("checksum")
        }
    }

    /// Hostile layouts: a member named to climb out (`../`), absolute or nested deeper is passed over (and named
    /// when nothing else is found); a stream that inflates past the cap before the file is stopped, in words.
    @Test func hostileArchivesAreReadAsASysdiagnoseIsLaidOut() throws {
        let folder = Scratch.folder.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = #"""
            import io, sys, tarfile
            path, names, zeros = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
            with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT) as t:
                if zeros:
                    info = tarfile.TarInfo("top/zeros.bin"); info.size = zeros
                    t.addfile(info, io.BytesIO(bytes(zeros)))
                for i, name in enumerate(names):
                    data = f"{banner}\nService:              applinks\nApp ID:               A.{i}\n".encode()
                    info = tarfile.TarInfo(name); info.size = len(data)
                    t.addfile(info, io.BytesIO(data))
            """#.replacingOccurrences(of: "{banner}", with: "=== DATABASE ===")
        func archive(_ names: [String], zeros: Int = 0) throws -> String {
            let path = folder.appendingPathComponent("\(UUID().uuidString).tar.gz").path
            let result = try Python.run(script: script, arguments: [path, names.joined(separator: ","), String(zeros)])
            try #require(result.status == 0, "\(result.output)")
            return path
        }
        let climbing = try archive([
            "../swcutil_show.txt", "/abs/swcutil_show.txt", "a/b/swcutil_show.txt", "./top/swcutil_show.txt",
        ])
        let evidence = try DeviceEvidenceFile(path: climbing)
        #expect(evidence.text.contains("App ID:               A.3"), "\(evidence.text)")
        #expect(evidence.origin == .archiveMember("./top/swcutil_show.txt", membersBefore: 3))
        let onlyHostile = try archive(["../swcutil_show.txt"])
        #expect {
            try DeviceEvidenceFile(path: onlyHostile)
        } throws: { error in
            (error as? InputError)?.message.contains("passed over ../swcutil_show.txt") == true
        }
        let bomb = try archive(["top/swcutil_show.txt"], zeros: 24 << 20)
        #expect(try DeviceEvidenceFile(path: bomb).text.contains("A.0"))
        #expect {
            try DeviceEvidenceFile(path: bomb, maximumInflatedBytes: 16 << 20)
        } throws: { error in
            (error as? InputError)?.message.contains("a bomb, not a capture") == true
        }
    }

    /// An extracted sysdiagnose: the folder itself, or the folder holding it; a bare file is read as it is.
    @Test func readsAFolderAndAFile() throws {
        let root = Scratch.folder.appendingPathComponent("evidence-\(UUID().uuidString)")
        let top = root.appendingPathComponent("sysdiagnose_2026.11.26_10-00-00+0000_iPhone-OS_iPhone_23B85")
        try FileManager.default.createDirectory(at: top, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = top.appendingPathComponent("swcutil_show.txt")
        try Data(Self.show.utf8).write(to: file)
        #expect(try DeviceEvidenceFile(path: top.path).origin == .folderFile("swcutil_show.txt"))
        let outer = try DeviceEvidenceFile(path: root.path)
        #expect(outer.text == Self.show)
        #expect(outer.origin == .folderFile(top.lastPathComponent + "/swcutil_show.txt"))
        #expect(try DeviceEvidenceFile(path: file.path).origin == .file)
        #expect {
            try DeviceEvidenceFile(path: root.appendingPathComponent("missing").path)
        } throws: { error in
            (error as? InputError)?.message.contains("no such file") == true
        }
    }
}
