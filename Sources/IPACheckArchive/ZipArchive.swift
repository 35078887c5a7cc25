internal import CZip
import Foundation

/// A read-only zip archive, read member by member without unpacking anything to disk; or a folder (an `.app`, an
/// `.xcarchive`, an unpacked ipa) read the same way, its members named by their real paths (``FolderArchive``).
///
/// Owns one libzip handle (a ``ZipHandle``, which discards it rather than write a read-only archive back). libzip
/// handles are not thread-safe, so this class is deliberately not `Sendable`: keep it in one task.
package final class ZipArchive {
    /// The path the archive was opened from.
    package let path: String
    /// Every member, in central-directory order.
    package let entries: [ZipEntry]
    /// The limits reads are held to.
    package let limits: ArchiveLimits
    /// Why libzip's strict open failed, when the archive was then opened leniently.
    ///
    /// The central directory and local headers disagree (real Xcode and Finder zips sometimes trip this while every
    /// unzip tool reads them). Nil when the strict open succeeded, or failed only because two members share a name
    /// (every copy is listed, for the caller to report).
    package let leniencyReason: String?

    /// Symbolic links of a folder that point outside the bundle, for the caller to report.
    ///
    /// They are never followed and are not members. Always empty for a zip.
    package let escapingLinks: [(name: String, target: String)]

    /// Where the members are.
    private enum Backend {
        case zip(ZipHandle)
        case folder(FolderArchive)
    }

    private let backend: Backend

    /// The zip file opened for reading members at their offsets (``ZipRawMember``), once the first is read.
    private lazy var file = ZipFileDescriptor(path: path)

    /// Opens the archive at `path`, checking the central directory's consistency.
    ///
    /// - Throws: ``ArchiveError`` naming why the file is not a readable zip.
    package convenience init(path: String, limits: ArchiveLimits = .standard) throws(ArchiveError) {
        if try Self.isFolder(path) {
            self.init(
                path: path,
                limits: limits,
                folder: try FolderArchive(root: URL(fileURLWithPath: path), limits: limits)
            )
        } else {
            try self.init(zipAt: path, limits: limits, checkingConsistency: true, dataOffsets: [])
        }
    }

    /// What another thread needs to open the same archive: a zip's path and what it listed, or a folder's
    /// listing itself (a folder is not walked twice).
    package struct Reopening: Sendable {
        let path: String
        let entries: [ZipEntry]
        let limits: ArchiveLimits
        let folder: FolderArchive?
    }

    /// Whether the file at `path` ends with a zip's end-of-central-directory record, wherever the zip starts.
    package static func endsLikeAZip(path: String) -> Bool {
        ZipDirectoryEnd.declaredEntryCount(path: path) != nil
    }

    /// Whether the archive is a folder on disk (an unpacked ipa, an `.app`, an `.xcarchive`) rather than a zip.
    package var isFolder: Bool {
        if case .folder = backend { return true }
        return false
    }

    /// How to open this archive again on another thread.
    package var reopening: Reopening {
        if case .folder(let folder) = backend {
            return Reopening(path: path, entries: entries, limits: limits, folder: folder)
        }
        return Reopening(path: path, entries: entries, limits: limits, folder: nil)
    }

    /// Opens an archive a second time, for reading members on another thread.
    ///
    /// A libzip handle must stay on one thread. The first open checked consistency, so this one only reads the
    /// central directory, which must list exactly the same entries: anything else means the file changed in
    /// between. A folder reuses the first walk's listing.
    ///
    /// - Throws: ``ArchiveError`` with code `inconsistent` when the file no longer lists the same members.
    package convenience init(reopening: Reopening) throws(ArchiveError) {
        if let folder = reopening.folder {
            self.init(path: reopening.path, limits: reopening.limits, folder: folder)
            return
        }
        try self.init(
            zipAt: reopening.path,
            limits: reopening.limits,
            checkingConsistency: false,
            dataOffsets: reopening.entries.map(\.dataOffset)
        )
        guard entries == reopening.entries else {
            throw ArchiveError(.inconsistent, reason: "the file changed while it was being read")
        }
    }

    private init(path: String, limits: ArchiveLimits, folder: FolderArchive) {
        self.path = path
        self.limits = limits
        backend = .folder(folder)
        entries = folder.entries
        escapingLinks = folder.escapingLinks
        leniencyReason = nil
    }

    /// Whether `path` is a folder (read with ``FolderArchive``) rather than a file.
    private static func isFolder(_ path: String) throws(ArchiveError) -> Bool {
        var isDirectory: ObjCBool = false
        // `&isDirectory` lends Foundation a pointer to a local for the call only.
        guard unsafe FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            // The user's own path is followed when it is a link, so a dangling one is a missing file.
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                throw ArchiveError(.unreadable, reason: "is a symbolic link to \(target), which does not exist")
            }
            throw ArchiveError(.unreadable, reason: "no such file")
        }
        return isDirectory.boolValue
    }

    /// Opens a zip through libzip; `dataOffsets` (by central-directory index) are where a first open's consistency
    /// walk placed each member's data, for a second open that does not walk again.
    private init(
        zipAt path: String,
        limits: ArchiveLimits,
        checkingConsistency: Bool,
        dataOffsets: [UInt64?]
    ) throws(ArchiveError) {
        self.path = path
        self.limits = limits
        // Checked before libzip reads the central directory, which costs memory for every member it lists.
        if let declared = ZipDirectoryEnd.declaredEntryCount(path: path), declared > UInt64(limits.maximumEntries) {
            throw Self.tooManyEntries(declared, limits: limits)
        }
        // libzip's ZIP_CHECKCONS refuses layouts real tools write; the consistency is checked here instead
        // (``ZipConsistency``), as a streaming extractor would find it.
        var (opened, errorCode) = ZipHandle.open(path, flags: ZIP_RDONLY)
        var mislabelled: [ZipMislabelledNames.Member] = []
        if opened == nil && errorCode == ZIP_ER_INCONS {
            // libzip refuses a whole archive for one name flagged UTF-8 over other bytes; read it with those flags
            // cleared.
            mislabelled = ZipMislabelledNames.scan(path: path)
            if !mislabelled.isEmpty {
                (opened, errorCode) = ZipHandle.open(
                    path,
                    flags: ZIP_RDONLY,
                    clearing: mislabelled.flatMap(\.flagBytes)
                )
            }
        }
        let walk = opened != nil && checkingConsistency ? ZipConsistency.walk(path: path) : nil
        let leniency = walk?.disagreement.map { "the central directory and local headers disagree: \($0)" }
        guard let handle = opened else {
            // libzip calls a zip cut short "not a zip archive" or "inconsistent"; say what happened instead.
            if errorCode != ZIP_ER_OPEN, errorCode != ZIP_ER_NOENT,
                let truncation = ZipDirectoryEnd.truncation(path: path)
            {
                throw ArchiveError(.truncated, reason: truncation)
            }
            if errorCode == ZIP_ER_INCONS {
                // libzip says only "inconsistent": say which part does not add up, when the walk can tell.
                let what =
                    ZipConsistency.firstDisagreement(path: path)
                    ?? "its central directory does not add up (a member count, a size or an offset of the directory "
                    + "is wrong)"
                throw ArchiveError(.inconsistent, reason: "damaged zip archive: \(what)")
            }
            // libzip also says "can't open" or "no such file" of a file that opens, when its directory cannot be
            // found where the end record says: that is damage, not a file the system refuses.
            if errorCode == ZIP_ER_OPEN || errorCode == ZIP_ER_NOENT, FileManager.default.isReadableFile(atPath: path) {
                throw ArchiveError(
                    .inconsistent,
                    reason: "damaged zip archive: its central directory is not where its end record says"
                )
            }
            throw Self.openError(errorCode)
        }
        self.backend = .zip(handle)
        self.leniencyReason = leniency
        self.escapingLinks = []
        // On a throw the handle is released, and with it discarded.
        var entries = try Self.listEntries(handle, limits: limits)
        for member in mislabelled where entries.indices.contains(member.index) {
            entries[member.index].nameMislabelledUTF8 = true
        }
        for (index, offset) in zip(entries.indices, walk?.dataOffsets ?? dataOffsets) {
            entries[index].dataOffset = offset
        }
        self.entries = entries
    }

    /// Reads a whole member into memory, refusing more than `limit` decompressed bytes.
    package func read(_ entry: ZipEntry, limit: Int? = nil) throws(ArchiveError) -> [UInt8] {
        let cap = limit ?? limits.maximumMemberBytes
        let stream = try self.stream(entry)
        var result: [UInt8] = []
        // The declared size is untrusted but the cap bounds it; reserving it whole spares the doubling copies of a
        // growing buffer (a peak of twice the member), and a lying size costs at most the cap.
        result.reserveCapacity(Int(min(entry.declaredSize, UInt64(cap))))
        while true {
            let chunk = try stream.read(maximumCount: 64 * 1024)
            if chunk.isEmpty { break }
            guard result.count + chunk.count <= cap else {
                throw ArchiveError(
                    .tooLarge,
                    member: entry.name,
                    reason: "member decompresses to more than \(cap) bytes"
                )
            }
            result.append(contentsOf: chunk)
        }
        return result
    }

    /// Opens a sequential stream over a member, for reading only the parts that matter.
    package func stream(_ entry: ZipEntry) throws(ArchiveError) -> ZipMemberStream {
        ZipMemberStream(archive: self, entry: entry, source: try openMember(entry))
    }

    /// The member named exactly `name`, if any: the last copy, as extractors keep it.
    package func entry(named name: String) -> ZipEntry? {
        entries.last { $0.name == name }
    }

    private func openMember(_ entry: ZipEntry) throws(ArchiveError) -> ZipMemberStream.Source {
        guard case .zip(let handle) = backend else { return try openFolderMember(entry) }
        guard !entry.isEncrypted else {
            throw ArchiveError(.encrypted, member: entry.name, reason: "member is encrypted")
        }
        guard entry.isCompressionSupported else {
            throw ArchiveError(
                .unsupportedCompression,
                member: entry.name,
                reason: "compression method \(entry.compressionMethod) is not supported"
            )
        }
        // Stored and deflated members the consistency walk placed are read at their offset and inflated by ISA-L;
        // anything else (another method, a member the walk could not place) through libzip.
        if let offset = entry.dataOffset, let file,
            let member = ZipRawMember(file: file, dataOffset: offset, entry: entry)
        {
            return .raw(member)
        }
        guard let file = handle.openMember(entry.index) else {
            throw ArchiveError(.damagedMember, member: entry.name, reason: handle.lastError)
        }
        return .zip(file)
    }

    private func openFolderMember(_ entry: ZipEntry) throws(ArchiveError) -> ZipMemberStream.Source {
        guard case .folder(let folder) = backend, folder.members.indices.contains(entry.index) else {
            throw ArchiveError(.damagedMember, member: entry.name, reason: "not a member of this folder")
        }
        switch folder.members[entry.index] {
        case .folder: return .bytes([])
        case .link(let target): return .bytes(target)
        case .file(let url):
            guard let handle = try? FileHandle(forReadingFrom: url) else {
                throw ArchiveError(.damagedMember, member: entry.name, reason: "cannot be opened")
            }
            return .file(handle)
        }
    }

    private static func listEntries(_ handle: ZipHandle, limits: ArchiveLimits) throws(ArchiveError) -> [ZipEntry] {
        let count = handle.entryCount
        guard count >= 0 else { throw ArchiveError(.inconsistent, reason: "cannot count the archive's members") }
        guard count <= limits.maximumEntries else { throw tooManyEntries(UInt64(count), limits: limits) }
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(count))
        for index in 0..<count {
            guard let stat = handle.stat(index) else {
                throw ArchiveError(.inconsistent, reason: "cannot read member \(index) of the central directory")
            }
            let (name, wasNotUTF8) = decodeName(handle, index: index, raw: stat.name)
            let method = stat.compressionMethod
            var entry = ZipEntry(
                index: Int(index),
                name: name,
                nameWasNotUTF8: wasNotUTF8,
                declaredSize: stat.size,
                compressedSize: stat.compressedSize,
                compressionMethod: method,
                isEncrypted: stat.isEncrypted,
                crc: stat.crc,
                isCompressionSupported: zip_compression_method_supported(Int32(method), 0) != 0
            )
            // S_IFMT 0o170000; S_IFLNK 0o120000.
            entry.isSymbolicLink = stat.unixMode.map { $0 & 0o170000 == 0o120000 } ?? false
            entries.append(entry)
        }
        return entries
    }

    private static func tooManyEntries(_ count: UInt64, limits: ArchiveLimits) -> ArchiveError {
        ArchiveError(
            .tooManyEntries,
            reason: "archive lists \(count) members, more than the \(limits.maximumEntries) accepted"
        )
    }

    private static func decodeName(
        _ handle: ZipHandle,
        index: Int64,
        raw: [UInt8]?
    ) -> (String, Bool) {
        guard let bytes = raw else { return ("", true) }
        if let utf8 = String(validating: bytes, as: UTF8.self) {
            return (utf8, false)
        }
        // Legacy (CP437) names: take libzip's conversion, and let callers report the odd encoding.
        if let guessed = handle.guessedName(index) {
            return (guessed, true)
        }
        return (String(decoding: bytes, as: UTF8.self), true)
    }

    /// Why libzip could not open the file, in words (libzip's own text names the wrong problem, or the tool).
    private static func openError(_ code: Int32) -> ArchiveError {
        switch code {
        case ZIP_ER_NOZIP: return ArchiveError(.notAZip, reason: "not a zip archive")
        case ZIP_ER_OPEN, ZIP_ER_NOENT: return ArchiveError(.unreadable, reason: "cannot be opened")
        case ZIP_ER_READ, ZIP_ER_SEEK, ZIP_ER_EOF:
            // The file opened: what failed was reading where the archive says its directory is.
            return ArchiveError(
                .inconsistent,
                reason: "damaged zip archive: its central directory lies past the end of the file (the file is cut "
                    + "short or its offsets are wrong)"
            )
        case ZIP_ER_MULTIDISK:
            return ArchiveError(
                .notAZip,
                reason: "a multi-disk (split) zip archive: an ipa is one file, and iOS installs nothing else"
            )
        case ZIP_ER_MEMORY: return ArchiveError(.tooLarge, reason: "there was not enough memory to open it")
        default:
            let message = ZipHandle.message(forErrorCode: code)
            return ArchiveError(.notAZip, reason: "cannot be opened as a zip archive (\(message))")
        }
    }
}
