import Foundation

/// Writes small zip archives for tests: stored (uncompressed) members with real CRC-32s, any names we like.
///
/// Real tools refuse to write the hostile archives the tests need (`../evil`, duplicate names, absolute paths),
/// so the format is written directly: local headers, central directory, end record (PKWARE APPNOTE 4.3).
package struct ZipBuilder {
    private var members:
        [(name: [UInt8], bytes: [UInt8], corruptCRC: Bool, flags: UInt16, method: UInt16, mode: UInt32)] = []
    /// How each member's local header is written (by index), when not as the central directory says it.
    private var layouts: [Int: LocalLayout] = [:]

    /// A local header written otherwise than its central one, as real tools (and broken ones) write them.
    package enum LocalLayout: Sendable {
        /// Flag bit 3: the local header holds CRC, compressed size and size only where `local` says (zero
        /// elsewhere); a data descriptor follows the data when `descriptor` (with signature), its CRC off by one
        /// when `wrongDescriptor`.
        case dataDescriptor(
            local: (crc: Bool, compressedSize: Bool, size: Bool),
            descriptor: Bool,
            wrongDescriptor: Bool
        )
        /// The local header names another file than the central directory.
        case localName(String)
    }

    /// Writes the last member added with `layout` in its local header.
    package mutating func setLastLayout(_ layout: LocalLayout) {
        layouts[members.count - 1] = layout
    }

    /// Creates an empty archive.
    package init() {}

    /// Adds a member (a name ending in `/` is a folder).
    ///
    /// - Parameters:
    ///   - flags: The general-purpose bit flag (APPNOTE 4.4.4): bit 11 (`0x0800`) says the name is UTF-8, bit 0
    ///     (`0x0001`) says the member is encrypted. The bytes are stored as given either way.
    ///   - method: The compression method number written in both headers (APPNOTE 4.4.5: 0 stored, 6 imploded,
    ///     8 deflated); the bytes are stored as given, so anything but 0 only claims a compression.
    package mutating func add(
        _ name: String,
        _ bytes: [UInt8] = [],
        corruptCRC: Bool = false,
        flags: UInt16 = 0x0800,
        method: UInt16 = 0
    ) {
        members.append((Array(name.utf8), bytes, corruptCRC, flags, method, 0o100644))
    }

    /// Adds a stored member whose name is these exact bytes, with the UTF-8 flag (bit 11) clear, as legacy zip
    /// tools write names in the DOS code page (CP437) — or set (`flags: 0x0800`), as broken tools do over such bytes.
    package mutating func add(rawName: [UInt8], _ bytes: [UInt8] = [], flags: UInt16 = 0) {
        members.append((rawName, bytes, false, flags, 0, 0o100644))
    }

    /// Adds a symbolic link as zip tools store one: Unix mode `0o120777` in the external attributes, the target
    /// as the content.
    package mutating func add(link name: String, to target: String) {
        members.append((Array(name.utf8), Array(target.utf8), false, 0x0800, 0, 0o120777))
    }

    /// Adds a member holding UTF-8 text.
    package mutating func add(_ name: String, text: String) {
        add(name, Array(text.utf8))
    }

    /// The archive's bytes.
    package func build() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for (index, member) in members.enumerated() {
            let name = member.name
            let crc = member.corruptCRC ? ~Self.crc32(member.bytes) : Self.crc32(member.bytes)
            let offset = UInt32(out.count)
            let size = UInt32(member.bytes.count)
            var flags = member.flags
            var local = (name: name, crc: crc, compressed: size, size: size)
            var trailer: [UInt8] = []
            switch layouts[index] {
            case .dataDescriptor(let kept, let descriptor, let wrong)?:
                flags |= 0x0008
                local = (name, kept.crc ? crc : 0, kept.compressedSize ? size : 0, kept.size ? size : 0)
                if descriptor { trailer = le32(0x0807_4b50) + le32(wrong ? crc &+ 1 : crc) + le32(size) + le32(size) }
            case .localName(let other)?:
                local.name = Array(other.utf8)
            case nil:
                break
            }
            out += le32(0x0403_4b50) + le16(20) + le16(flags) + le16(member.method) + le16(0) + le16(0x21)
            out += le32(local.crc) + le32(local.compressed) + le32(local.size)
            out += le16(UInt16(local.name.count)) + le16(0) + local.name + member.bytes + trailer
            central += le32(0x0201_4b50) + le16(0x031e) + le16(20) + le16(flags) + le16(member.method)
            central += le16(0) + le16(0x21)
            central += le32(crc) + le32(UInt32(member.bytes.count)) + le32(UInt32(member.bytes.count))
            central += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(member.mode << 16)
            central += le32(offset) + name
        }
        let centralOffset = UInt32(out.count)
        out += central
        out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(members.count)) + le16(UInt16(members.count))
        out += le32(UInt32(central.count)) + le32(centralOffset) + le16(0)
        return out
    }

    /// Writes the archive to a new temporary file and returns its path.
    package func write(named name: String = "test.ipa") throws -> String {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-tests-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(build()).write(to: url)
        return url.path
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xedb8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}

private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xff) } }

/// Small property lists for fixtures.
package enum PlistFixture {
    /// An XML Info.plist with the given string keys.
    package static func info(_ entries: [String: String]) -> [UInt8] {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>

            """
        for key in entries.keys.sorted() {
            xml += "<key>\(key)</key><string>\(entries[key] ?? "")</string>\n"
        }
        xml += "</dict></plist>\n"
        return Array(xml.utf8)
    }
}
