package import Foundation
import IPACheckArchive
package import IPACheckReport

/// Where a device's `swcutil show` text comes from, and the text: a sysdiagnose archive (`.tar.gz` or `.tar`,
/// streamed to its `swcutil_show.txt`, never unpacked), an extracted sysdiagnose folder, the file itself, or pasted
/// macOS `swcutil show` output.
package struct DeviceEvidenceFile: Sendable {
    /// What the text was read from.
    package enum Origin: Sendable, Equatable {
        /// A member of a sysdiagnose archive, found after passing over `membersBefore` others.
        case archiveMember(String, membersBefore: Int)
        /// A file in a folder (an extracted sysdiagnose).
        case folderFile(String)
        /// The file given.
        case file
    }

    /// The path the user gave.
    package let path: String
    package let origin: Origin
    package let text: String

    /// The name sysdiagnose gives the file.
    package static let showFileName = "swcutil_show.txt"
    /// The most bytes of `swcutil show` text read: real files are a few megabytes (1.7 MB for every app of a phone).
    package static let maximumBytes = 32 << 20
    /// The most bytes an archive may inflate to before its show file: a whole sysdiagnose is about 900 MB
    /// extracted, so a stream larger than this is a bomb, not a capture, and is stopped rather than read for minutes.
    package static let maximumInflatedBytes: UInt64 = 4 << 30

    /// Reads the evidence at `path`.
    ///
    /// - Throws: ``InputError`` in words: missing, unreadable, an archive without the file, damaged, too large.
    package init(path: String) throws(InputError) {
        try self.init(path: path, maximumInflatedBytes: Self.maximumInflatedBytes)
    }

    /// Reads the evidence at `path`, stopping an archive that inflates past `maximumInflatedBytes`.
    package init(path: String, maximumInflatedBytes: UInt64) throws(InputError) {
        self.path = path
        var isFolder: ObjCBool = false
        // `&isFolder` lends Foundation a pointer to a local for the call only.
        guard unsafe FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw InputError("missing-input", file: path, "no such file")
        }
        if isFolder.boolValue {
            (origin, text) = try Self.readFolder(path)
        } else if GzipStream.isGzip(path: path) || Self.isTar(path: path) {
            (origin, text) = try Self.readArchive(path, maximumInflatedBytes: maximumInflatedBytes)
        } else {
            text = try Self.readText(path, from: path)
            origin = .file
        }
    }

    /// `swcutil_show.txt` in the folder, or in the one sysdiagnose folder inside it.
    private static func readFolder(_ path: String) throws(InputError) -> (Origin, String) {
        let folder = URL(fileURLWithPath: path)
        var candidates = [folder.appendingPathComponent(showFileName)]
        let inside = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in inside.sorted() where name.hasPrefix("sysdiagnose_") {
            candidates.append(folder.appendingPathComponent(name).appendingPathComponent(showFileName))
        }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw InputError(
                "missing-member",
                file: path,
                "holds no \(showFileName) (an extracted sysdiagnose has it in its top folder)"
            )
        }
        let relative = String(found.path.dropFirst(folder.path.count).drop { $0 == "/" })
        return (.folderFile(relative), try readText(found.path, from: path))
    }

    private static func readArchive(
        _ path: String,
        maximumInflatedBytes: UInt64
    ) throws(InputError) -> (Origin, String) {
        let found: TarMemberSearch.Found?
        var passedOver: [String] = []
        do throws(ArchiveError) {
            let read: TarMemberSearch.Source
            if GzipStream.isGzip(path: path) {
                let gzip = try GzipStream(path: path)
                read = { (buffer: inout [UInt8]) throws(ArchiveError) -> Int in try gzip.read(into: &buffer) }
            } else {
                let plain = try PlainFileStream(path: path)
                read = { (buffer: inout [UInt8]) throws(ArchiveError) -> Int in try plain.read(into: &buffer) }
            }
            var total: UInt64 = 0
            let source: TarMemberSearch.Source = { (buffer: inout [UInt8]) throws(ArchiveError) -> Int in
                let count = try read(&buffer)
                total += UInt64(count)
                guard total <= maximumInflatedBytes else {
                    throw ArchiveError(
                        .tooLarge,
                        reason: "inflates to more than \(maximumInflatedBytes >> 20) MiB before its \(showFileName) "
                            + "(a whole sysdiagnose is about 900 MB): a bomb, not a capture"
                    )
                }
                return count
            }
            var search = TarMemberSearch(source: source)
            found = try search.first(
                where: { name in
                    guard name.hasSuffix(showFileName) else { return false }
                    if isSysdiagnoseLayout(name) { return true }
                    passedOver.append(name)
                    return false
                },
                limit: maximumBytes
            )
        } catch {
            throw InputError("unreadable", file: path, "\(error.member.map { "\($0): " } ?? "")\(error.reason)")
        }
        guard let found else {
            let others =
                passedOver.isEmpty
                ? ""
                : " (passed over \(passedOver.prefix(3).joined(separator: ", ")): not where a sysdiagnose keeps it)"
            throw InputError(
                "missing-member",
                file: path,
                "holds no \(showFileName): is it an iOS sysdiagnose? (it is in every one, in the top folder)\(others)"
            )
        }
        return (.archiveMember(found.name, membersBefore: found.membersBefore), decode(found.bytes))
    }

    private static func readText(_ file: String, from path: String) throws(InputError) -> String {
        guard let handle = FileHandle(forReadingAtPath: file) else {
            throw InputError("unreadable", file: path, "cannot be opened")
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumBytes + 1) else {
            throw InputError("unreadable", file: path, "cannot be read")
        }
        guard data.count <= maximumBytes else {
            throw InputError(
                "too-large",
                file: path,
                "is larger than \(maximumBytes >> 20) MiB: a swcutil_show.txt is a few megabytes"
            )
        }
        return decode([UInt8](data))
    }

    /// The text as UTF-8, with any invalid byte replaced (the device writes UTF-8; a damaged byte must not hide
    /// the rest).
    private static func decode(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Whether an archive member's name is where a sysdiagnose keeps the file: in its one top folder (or at the root,
    /// for an archive of the file alone), never an absolute name, `..` or `.` segments, or deeper.
    static func isSysdiagnoseLayout(_ name: String) -> Bool {
        // `tar -czf x.tgz ./folder` writes a leading `./`.
        let relative = name.hasPrefix("./") ? String(name.dropFirst(2)) : name
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return parts[0] == Substring(showFileName)
        case 2: return parts[1] == Substring(showFileName) && !["", ".", ".."].contains(parts[0])
        default: return false
        }
    }

    /// Whether the file has a ustar header's magic where a tar's first header keeps it.
    private static func isTar(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 512), head.count == 512 else { return false }
        return [UInt8](head[257..<262]) == Array("ustar".utf8)
    }
}

/// A plain file read forward, for an uncompressed `.tar`.
private final class PlainFileStream {
    private let handle: FileHandle

    init(path: String) throws(ArchiveError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ArchiveError(.unreadable, reason: "cannot be opened")
        }
        self.handle = handle
    }

    deinit {
        try? handle.close()
    }

    func read(into buffer: inout [UInt8]) throws(ArchiveError) -> Int {
        guard let data = try? handle.read(upToCount: buffer.count) else {
            throw ArchiveError(.damagedMember, reason: "could not be read")
        }
        buffer.replaceSubrange(0..<data.count, with: data)
        return data.count
    }
}

extension DeviceEvidenceFile {
    /// When the sysdiagnose was taken, as its name says (`sysdiagnose_2026.11.26_10-00-00+0000_iPhone-OS_…`): in
    /// the archive member's path, the folder's or the file's name; `nil` when none says.
    package var capturedAt: Date? {
        var names = [path]
        switch origin {
        case .archiveMember(let member, _): names.insert(member, at: 0)
        case .folderFile(let file): names.insert(file, at: 0)
        case .file: break
        }
        return names.lazy.compactMap(Self.captureTime(inName:)).first
    }

    /// The capture time in a sysdiagnose's name: `sysdiagnose_YYYY.MM.DD_HH-MM-SS±ZZZZ`.
    static func captureTime(inName name: String) -> Date? {
        guard let start = name.range(of: "sysdiagnose_", options: .backwards) else { return nil }
        let stamp = name[start.upperBound...].prefix(25)
        let parts = stamp.split(separator: "_", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let day = parts[0].split(separator: ".")
        let rest = parts[1]
        guard day.count == 3, rest.count >= 13 else { return nil }
        let time = rest.prefix(8).split(separator: "-")
        let zone = rest.dropFirst(8).prefix(5)
        guard time.count == 3 else { return nil }
        return SwcutilDate(raw: "\(day[0])-\(day[1])-\(day[2]) \(time[0]):\(time[1]):\(time[2]) \(zone)").date
    }
}

/// A device's record as the commands take it: the evidence read, and the `swcutil show` text parsed.
package struct DeviceEvidence: Sendable {
    package let file: DeviceEvidenceFile
    package let record: SwcutilRecord

    /// Reads and parses the evidence at `path`.
    ///
    /// - Throws: ``InputError`` when it cannot be read, or holds no `swcutil show` output at all.
    package init(path: String) throws(InputError) {
        file = try DeviceEvidenceFile(path: path)
        record = SwcutilParser.parse(file.text)
        guard record.hasDatabaseBanner || !record.entries.isEmpty else {
            throw InputError(
                "not-swcutil",
                file: path,
                "holds no swcutil show output (no DATABASE section and no entry with a Service line)"
            )
        }
    }

    /// The evidence as given.
    package var path: String { file.path }
    /// The member or file inside the evidence the text came from.
    package var member: String? { Self.member(of: file.origin) }

    /// The member or file inside evidence of `origin`; nil for the file itself.
    package static func member(of origin: DeviceEvidenceFile.Origin) -> String? {
        switch origin {
        case .archiveMember(let name, _): name
        case .folderFile(let name): name
        case .file: nil
        }
    }
    /// When the sysdiagnose was taken, when its name says.
    package var capturedAt: Date? { file.capturedAt }
}
