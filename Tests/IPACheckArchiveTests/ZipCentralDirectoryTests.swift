import Foundation
import IPACheckTestSupport
import Testing

@testable import IPACheckArchive

/// The central directory as our own walk reads it, each expectation from an independent source: zips written by
/// Python's zipfile (or byte by byte in Python, following APPNOTE), names decoded by Python's `cp437` codec, and
/// libzip's refusals (the walk refuses what libzip refused, in words).
struct ZipCentralDirectoryTests {
    /// Writes a zip with Python and returns its path; `body` gets `zipfile` and the path as `path`.
    private func pythonZip(_ body: String) throws -> String {
        let path = Scratch.folder.appendingPathComponent("cd-\(UUID()).zip").path
        let result = try Python.run(
            script: "import sys, struct, zipfile, zlib\npath = sys.argv[1]\n" + body,
            arguments: [path]
        )
        #expect(result.status == 0, "\(result.output)")
        return path
    }

    /// The upper half of code page 437, as Python's codec decodes it, is the table legacy names are read with
    /// (the lower half's control range is the IBM PC's glyphs, as libzip maps it: ☺ for 0x01, ⌂ for 0x7F).
    @Test func legacyNamesDecodeAsCodePage437() throws {
        #expect(ZipNameEncoding.codePage437.count == 256)
        let result = try Python.run(
            script: "print(','.join(str(ord(bytes([b]).decode('cp437'))) for b in range(128, 256)))",
            arguments: []
        )
        let python = result.output.split(separator: ",").compactMap {
            UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(python.count == 128)
        #expect(Array(ZipNameEncoding.codePage437[128...]) == python)
        #expect(ZipNameEncoding.codePage437[0x01] == 0x263A)
        #expect(ZipNameEncoding.codePage437[0x7F] == 0x2302)
        #expect(ZipNameEncoding.codePage437[0x41] == 0x41)
    }

    /// A name stored as legacy bytes with an Info-ZIP Unicode path field for exactly those bytes reads as the field's
    /// UTF-8; a field written for other bytes (stale after a rename) is ignored (APPNOTE 4.6.9).
    @Test(arguments: [true, false])
    func unicodePathFieldNamesTheMember(matches: Bool) throws {
        let path = try pythonZip(
            """
            raw = b'caf\\x82.txt'
            crc = zlib.crc32(raw if \(matches ? "True" : "False") else b'other')
            field = b'\\x01' + struct.pack('<I', crc) + 'caffè.txt'.encode()
            extra = struct.pack('<HH', 0x7075, len(field)) + field
            data = b'x'
            local = struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, 0, 0, 0, zlib.crc32(data), 1, 1, len(raw), len(extra)) + raw + extra + data
            central = struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, 0, 0, 0, zlib.crc32(data), 1, 1, len(raw), len(extra), 0, 0, 0, 0, 0) + raw + extra
            end = struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 1, 1, len(central), len(local), 0)
            open(path, 'wb').write(local + central + end)
            """
        )
        let archive = try ZipArchive(path: path)
        let entry = archive.entry(at: 0)
        // python3: b'caf\x82.txt'.decode('cp437') == 'café.txt'
        #expect(entry.name == (matches ? "caffè.txt" : "café.txt"))
        #expect(entry.nameWasNotUTF8 == !matches)
        #expect(try archive.read(entry) == Array("x".utf8))
    }

    /// An archive comment holding another archive's end record: the directory that reads whole is the archive, as
    /// libzip takes it (libzip's regress zip-in-archive-comment.zip is the same case).
    @Test func anEndRecordInTheCommentDoesNotHideTheArchive() throws {
        let path = try pythonZip(
            """
            with zipfile.ZipFile(path, 'w') as z:
                z.writestr('Payload/A.app/Info.plist', 'hello')
                z.comment = struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 1, 1, 46, 0, 0)
            """
        )
        let archive = try ZipArchive(path: path)
        #expect(archive.entries.map(\.name) == ["Payload/A.app/Info.plist"])
        #expect(try archive.read(archive.entry(at: 0)) == Array("hello".utf8))
    }

    /// Extra fields must add up, as libzip reads them: up to three zero bytes after the last field are zipalign's
    /// padding; other stray bytes, or a field longer than what is left, are damage, said in words.
    @Test(
        arguments: [
            (#"b'\x00\x00'"#, nil),
            (#"b'\xff'"#, "its extra fields end in stray bytes"),
            (#"struct.pack('<HH', 0xcafe, 9) + b'abc'"#, "its extra fields run past their length"),
        ] as [(String, String?)]
    )
    func extraFieldsMustAddUp(extra: String, problem: String?) throws {
        let path = try pythonZip(
            """
            info = zipfile.ZipInfo('Payload/A.app/Info.plist')
            info.extra = \(extra)
            with zipfile.ZipFile(path, 'w') as z:
                z.writestr(info, 'hello')
            """
        )
        if let problem {
            let error = #expect(throws: ArchiveError.self) { _ = try ZipArchive(path: path) }
            #expect(error?.code == .inconsistent)
            #expect(error?.reason == "damaged zip archive: Payload/A.app/Info.plist: \(problem)")
        } else {
            #expect(try ZipArchive(path: path).entries.map(\.name) == ["Payload/A.app/Info.plist"])
        }
    }

    /// A directory that declares more members than its size can hold is refused in words (libzip refused it).
    @Test func aDirectoryThatDoesNotAddUpIsRefused() throws {
        let path = try pythonZip(
            """
            with zipfile.ZipFile(path, 'w') as z:
                z.writestr('a', 'one')
                z.writestr('b', 'two')
            data = bytearray(open(path, 'rb').read())
            end = data.rfind(b'PK\\x05\\x06')
            struct.pack_into('<HH', data, end + 8, 3, 3)
            open(path, 'wb').write(data)
            """
        )
        let error = #expect(throws: ArchiveError.self) { _ = try ZipArchive(path: path) }
        #expect(error?.code == .inconsistent)
        #expect(error?.reason.hasPrefix("damaged zip archive: its central directory does not add up") == true)
    }
}
