import Crypto
import Foundation
import IPACheckArchive
import IPACheckTestSupport
import Testing

/// Members read at their offset and inflated by ISA-L give the bytes another reader wrote.
///
/// The archives are made by Python's `zipfile` (zlib's deflate, its CRCs), each member's SHA-256 computed by Python,
/// so no expectation comes from ipacheck. Damage is an error in words, never a crash or a short read taken as whole.
@Suite(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 to write the archives"))
struct ZipRawMemberTests {
    /// Writes `sys.argv[1]`: members of several sizes and kinds (empty, one byte, text that compresses well,
    /// random bytes that do not, stored and deflated, 3 MiB), and prints `name sha256` for each.
    static let writer = #"""
        import hashlib, random, sys, zipfile
        rng = random.Random(7)
        members = [
            ("empty", b"", zipfile.ZIP_DEFLATED),
            ("one", b"x", zipfile.ZIP_DEFLATED),
            ("text", b"Payload/App.app/Assets.car\n" * 40000, zipfile.ZIP_DEFLATED),
            ("random", bytes(rng.getrandbits(8) for _ in range(300000)), zipfile.ZIP_DEFLATED),
            ("stored", bytes(rng.getrandbits(8) for _ in range(70000)), zipfile.ZIP_STORED),
            ("mixed", b"".join(bytes(rng.getrandbits(8) for _ in range(1000)) + b"\0" * 5000 for _ in range(500)),
             zipfile.ZIP_DEFLATED),
        ]
        with zipfile.ZipFile(sys.argv[1], "w") as z:
            for name, data, method in members:
                z.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data, compress_type=method)
        for name, data, _ in members:
            print(name, hashlib.sha256(data).hexdigest())
        """#

    /// The archive and what Python says each member holds.
    static func writeArchive() throws -> (path: String, digests: [String: String]) {
        let path = Scratch.folder
            .appendingPathComponent("raw-\(UUID().uuidString).zip").path
        let written = try Python.run(script: writer, arguments: [path])
        try #require(written.status == 0, "\(written.output)")
        var digests: [String: String] = [:]
        for line in written.output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { digests[String(parts[0])] = String(parts[1]) }
        }
        return (path, digests)
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// Streams a member through a small buffer, as the seal pass does, so chunk boundaries fall inside blocks.
    static func streamed(_ archive: ZipArchive, _ entry: ZipEntry) throws -> [UInt8] {
        let stream = try archive.stream(entry)
        var buffer = [UInt8](repeating: 0, count: 4093)
        var result: [UInt8] = []
        while true {
            let count = try stream.read(into: &buffer)
            if count == 0 { break }
            result += buffer[0..<count]
        }
        return result
    }

    @Test func everyMemberReadsAsPythonWroteIt() throws {
        let (path, digests) = try Self.writeArchive()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(digests.count == 6)
        let archive = try ZipArchive(path: path)
        #expect(archive.entries.count == digests.count)
        for entry in archive.entries {
            #expect(Self.sha256(try archive.read(entry)) == digests[entry.name], "\(entry.name)")
            #expect(Self.sha256(try Self.streamed(archive, entry)) == digests[entry.name], "\(entry.name)")
        }
        // A second handle (another thread's) reads the same.
        let again = try ZipArchive(reopening: archive.reopening)
        for entry in again.entries {
            #expect(Self.sha256(try again.read(entry)) == digests[entry.name], "\(entry.name)")
        }
    }

    /// A CRC that does not match intact bytes is damage (an installer that checks CRCs refuses the archive), as
    /// libzip said before.
    @Test func aWrongCRCIsDamage() throws {
        let (path, _) = try Self.writeArchive()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let crc = try Self.centralCRCOffset(of: "text", in: bytes)
        bytes[crc] ^= 0xFF
        // The local header's copy too, so that only the data and the CRCs disagree.
        let local = try #require(Self.localHeaderOffset(of: "text", in: bytes))
        bytes[local + 14] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let archive = try ZipArchive(path: path)
        #expect(archive.leniencyReason == nil)
        let entry = try #require(archive.entry(named: "text"))
        #expect {
            try Self.streamed(archive, entry)
        } throws: { error in
            (error as? ArchiveError)?.reason == "its data does not match its CRC (the member is damaged)"
        }
    }

    /// Damaged deflate data, or data that inflates to another size than the directory says, is an error naming
    /// what is wrong; nothing short is returned as if it were the whole member.
    @Test(arguments: ["random", "text", "mixed"])
    func damagedCompressedDataIsAnErrorInWords(member: String) throws {
        let (path, _) = try Self.writeArchive()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let local = try #require(Self.localHeaderOffset(of: member, in: bytes))
        let data = local + 30 + member.utf8.count
        // Overwrite the first block's header and a run of bytes after it.
        for offset in data..<data + 64 { bytes[offset] = 0xFF }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let archive = try ZipArchive(path: path)
        let entry = try #require(archive.entry(named: member))
        #expect {
            try Self.streamed(archive, entry)
        } throws: { error in
            guard let error = error as? ArchiveError else { return false }
            return error.reason.hasPrefix("its compressed data") || error.reason.hasPrefix("it inflates")
                || error.reason.hasPrefix("it holds") || error.reason.hasPrefix("its data does not match")
        }
    }

    // MARK: - Finding headers in the bytes Python wrote

    static func localHeaderOffset(of name: String, in bytes: [UInt8]) -> Int? {
        let signature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
        let wanted = Array(name.utf8)
        var offset = 0
        while offset + 30 <= bytes.count {
            if Array(bytes[offset..<offset + 4]) == signature {
                let nameLength = Int(bytes[offset + 26]) | Int(bytes[offset + 27]) << 8
                if offset + 30 + nameLength <= bytes.count,
                    Array(bytes[offset + 30..<offset + 30 + nameLength]) == wanted
                {
                    return offset
                }
            }
            offset += 1
        }
        return nil
    }

    static func centralCRCOffset(of name: String, in bytes: [UInt8]) throws -> Int {
        let signature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
        let wanted = Array(name.utf8)
        for offset in 0..<max(0, bytes.count - 46) where Array(bytes[offset..<offset + 4]) == signature {
            let nameLength = Int(bytes[offset + 28]) | Int(bytes[offset + 29]) << 8
            if offset + 46 + nameLength <= bytes.count, Array(bytes[offset + 46..<offset + 46 + nameLength]) == wanted {
                return offset + 16
            }
        }
        throw ArchiveError(.inconsistent, reason: "no central header for \(name)")
    }
}
