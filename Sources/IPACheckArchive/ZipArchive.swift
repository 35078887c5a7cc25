internal import CZip
import Foundation

/// A read-only zip archive, read member by member without unpacking anything to disk; or a folder (an `.app`, an
/// `.xcarchive`, an unpacked ipa) read the same way, its members named by their real paths (``FolderArchive``).
///
/// A zip's central directory is walked once, through a window, into a compact table (``ZipMemberTable``); stored
/// and deflated members are read at their offsets and inflated by ISA-L (``ZipRawMember``). libzip is opened only
/// for a member compressed another way. That lazy handle is not thread-safe, so this class is deliberately not
/// `Sendable`: keep it in one task, and give another task a ``Reopening``.
package final class ZipArchive {
    /// The path the archive was opened from.
    package let path: String
    /// The limits reads are held to.
    package let limits: ArchiveLimits
    /// Why the local headers disagree with the central directory, when they do: the archive is then read from its
    /// central directory (real Xcode and Finder zips sometimes trip this while every unzip tool reads them).
    package let leniencyReason: String?

    /// Symbolic links of a folder that point outside the bundle, for the caller to report.
    ///
    /// They are never followed and are not members. Always empty for a zip.
    package let escapingLinks: [(name: String, target: String)]

    /// Where the members are.
    private enum Backend {
        case zip(ZipMemberTable, directoryOffset: UInt64, file: ZipFileDescriptor)
        case folder(FolderArchive)
    }

    private let backend: Backend

    /// libzip's handle, for members neither stored nor deflated; opened at the first such member.
    private lazy var libzip: ZipHandle? = ZipHandle.open(path, flags: ZIP_RDONLY).handle

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
            try self.init(zipAt: path, limits: limits)
        }
    }

    /// What another thread needs to read the same archive: the path, the member table (shared, not read again)
    /// and the file's size when it was walked, or a folder's listing.
    package struct Reopening: Sendable {
        let path: String
        let limits: ArchiveLimits
        let zip: (table: ZipMemberTable, directoryOffset: UInt64, fileSize: UInt64)?
        let folder: FolderArchive?
    }

    /// Whether the file at `path` ends with a zip's end-of-central-directory record, wherever the zip starts.
    package static func endsLikeAZip(path: String) -> Bool {
        ZipDirectoryEnd.hasEndRecord(path: path)
    }

    /// Whether the archive is a folder on disk (an unpacked ipa, an `.app`, an `.xcarchive`) rather than a zip.
    package var isFolder: Bool {
        if case .folder = backend { return true }
        return false
    }

    /// How many members the archive lists.
    package var memberCount: Int {
        switch backend {
        case .zip(let table, _, _): table.count
        case .folder(let folder): folder.entries.count
        }
    }

    /// Member `index` (0 ..< ``memberCount``), in central-directory (or folder listing) order.
    package func entry(at index: Int) -> ZipEntry {
        switch backend {
        case .zip(let table, _, _): table.entry(at: index)
        case .folder(let folder): folder.entries[index]
        }
    }

    /// Every member, each made when it is reached (a zip's are not held as entries): by index, or in order, where
    /// each name is decoded from the one before (cheaper when every member is visited).
    package struct Entries: RandomAccessCollection {
        fileprivate let archive: ZipArchive

        package var startIndex: Int { 0 }
        package var endIndex: Int { archive.memberCount }

        package subscript(index: Int) -> ZipEntry { archive.entry(at: index) }

        /// The members, from the first.
        package struct Iterator: IteratorProtocol {
            fileprivate var names: ZipArchive.NamesInOrder.Iterator

            /// The next member.
            package mutating func next() -> ZipEntry? {
                let index = names.index
                guard let name = names.nextBytes() else { return nil }
                switch names.archive.backend {
                case .zip(let table, _, _): return table.entry(at: index, name: name)
                case .folder(let folder): return folder.entries[index]
                }
            }
        }

        package func makeIterator() -> Iterator { Iterator(names: NamesInOrder(archive: archive).makeIterator()) }
    }

    /// Every member's name in order, each decoded from the one before.
    package struct NamesInOrder: Sequence {
        fileprivate let archive: ZipArchive

        /// The names, from the first.
        package struct Iterator: IteratorProtocol {
            fileprivate let archive: ZipArchive
            fileprivate var table: ZipMemberTable.Names.Iterator?
            /// The index of the member the next call gives.
            package private(set) var index = 0

            /// The next member's name.
            package mutating func next() -> String? {
                nextBytes().map { String(decoding: $0, as: UTF8.self) }
            }

            /// The next member's name as UTF-8 bytes.
            fileprivate mutating func nextBytes() -> [UInt8]? {
                guard index < archive.memberCount else { return nil }
                defer { index += 1 }
                switch archive.backend {
                case .zip: return table?.next() ?? []
                case .folder(let folder): return Array(folder.entries[index].name.utf8)
                }
            }
        }

        package func makeIterator() -> Iterator {
            var table: ZipMemberTable.Names.Iterator?
            if case .zip(let members, _, _) = archive.backend { table = members.names.makeIterator() }
            return Iterator(archive: archive, table: table)
        }
    }

    /// Every member (see ``Entries``).
    package var entries: Entries { Entries(archive: self) }

    /// Every member's name in order (see ``NamesInOrder``).
    package var namesInOrder: NamesInOrder { NamesInOrder(archive: self) }

    /// Member `index`'s declared uncompressed size, read again from its central header (0 when out of range or
    /// unreadable): exact, unlike an entry's ``ZipEntry/sizeEstimate``.
    package func declaredSize(at index: Int) -> UInt64 {
        switch backend {
        case .zip(let table, let directoryOffset, let file):
            guard index >= 0, index < table.count else { return 0 }
            let offset = directoryOffset + UInt64(table.headerOffsets[index])
            return ZipCentralDirectory.header(in: file, at: offset)?.size ?? table.sizeEstimate(at: index)
        case .folder(let folder):
            return folder.entries.indices.contains(index) ? folder.entries[index].sizeEstimate : 0
        }
    }

    /// Member `index`'s name: what ``entry(at:)`` gives, without the rest.
    package func name(at index: Int) -> String {
        switch backend {
        case .zip(let table, _, _): String(decoding: table.nameBytes(at: index), as: UTF8.self)
        case .folder(let folder): folder.entries[index].name
        }
    }

    /// How to read this archive on another thread.
    package var reopening: Reopening {
        switch backend {
        case .zip(let table, let directoryOffset, let file):
            Reopening(path: path, limits: limits, zip: (table, directoryOffset, file.size), folder: nil)
        case .folder(let folder):
            Reopening(path: path, limits: limits, zip: nil, folder: folder)
        }
    }

    /// Opens an archive a second time, for reading members on another thread.
    ///
    /// The first open's table is shared, and the file must be as long as it was (else it changed in between). A
    /// folder reuses the first walk's
    /// listing.
    ///
    /// - Throws: ``ArchiveError`` with code `inconsistent` when the file changed.
    package init(reopening: Reopening) throws(ArchiveError) {
        path = reopening.path
        limits = reopening.limits
        leniencyReason = nil
        guard let zip = reopening.zip else {
            guard let folder = reopening.folder else { throw ArchiveError(.unreadable, reason: "cannot be opened") }
            backend = .folder(folder)
            escapingLinks = folder.escapingLinks
            return
        }
        guard let file = ZipFileDescriptor(path: path), file.size == zip.fileSize else {
            throw ArchiveError(.inconsistent, reason: "the file changed while it was being read")
        }
        backend = .zip(zip.table, directoryOffset: zip.directoryOffset, file: file)
        escapingLinks = []
    }

    private init(path: String, limits: ArchiveLimits, folder: FolderArchive) {
        self.path = path
        self.limits = limits
        backend = .folder(folder)
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

    /// Opens a zip: its central directory, walked into the member table.
    ///
    /// Every local header is compared with its central one on the way (``ZipConsistency``), as a streaming extractor would meet them. When the
    /// file's end names more than one directory (an archive comment holding another record), the first that reads
    /// whole is the archive, as libzip takes it; when none does, the last one's problem is said.
    private init(zipAt path: String, limits: ArchiveLimits) throws(ArchiveError) {
        self.path = path
        self.limits = limits
        guard let handle = FileHandle(forReadingAtPath: path), let file = ZipFileDescriptor(path: path) else {
            throw ArchiveError(.unreadable, reason: "cannot be opened")
        }
        defer { try? handle.close() }
        let candidates: [(location: ZipCentralDirectory.Location, endRecordOffset: UInt64)]
        do {
            candidates = try ZipDirectoryEnd.centralDirectories(handle: handle)
        } catch {
            if let truncation = ZipDirectoryEnd.truncation(path: path) {
                throw ArchiveError(.truncated, reason: truncation)
            }
            throw error
        }
        var lastProblem = ArchiveError(.notAZip, reason: "not a zip archive")
        for candidate in candidates {
            do {
                let (table, disagreement) = try Self.walk(
                    candidate.location,
                    endRecordOffset: candidate.endRecordOffset,
                    file: file,
                    path: path,
                    limits: limits
                )
                leniencyReason = disagreement.map { "the central directory and local headers disagree: \($0)" }
                backend = .zip(table, directoryOffset: candidate.location.offset, file: file)
                escapingLinks = []
                return
            } catch {
                lastProblem = error
            }
        }
        throw lastProblem
    }

    /// Walks the directory at `location` into a member table; the first disagreement of the local headers, if any.
    private static func walk(
        _ location: ZipCentralDirectory.Location,
        endRecordOffset: UInt64,
        file: ZipFileDescriptor,
        path: String,
        limits: ArchiveLimits
    ) throws(ArchiveError) -> (ZipMemberTable, String?) {
        // A header takes at least 46 bytes: a count the directory cannot hold is damage, not a large app.
        guard location.count <= location.size / 46 else {
            throw ArchiveError(.inconsistent, reason: directoryDoesNotAddUp)
        }
        guard location.count <= UInt64(limits.maximumEntries) else {
            throw tooManyEntries(location.count, limits: limits)
        }
        try checkPlacement(of: location, endRecordOffset: endRecordOffset, path: path, fileSize: file.size)
        var consistency = ZipConsistency()
        var table = ZipMemberTable(reservingMembers: Int(location.count))
        var headers = ZipCentralDirectory.Headers(file: file, location: location)
        while let header = headers.next() {
            if let problem = header.problem {
                throw ArchiveError(
                    .inconsistent,
                    reason: "damaged zip archive: \(String(decoding: header.name, as: UTF8.self)): \(problem)"
                )
            }
            // InfoZIP counts members modulo 65,536 rather than write a zip64 record: more headers than the count
            // says are read while the directory's size lasts, within the member cap.
            guard table.count < limits.maximumEntries else {
                throw tooManyEntries(UInt64(table.count) + 1, limits: limits)
            }
            consistency.check(header, in: file)
            try add(header, to: &table, directoryOffset: location.offset)
        }
        let read = UInt64(table.count)
        let declared = location.count
        guard read >= declared else {
            throw ArchiveError(
                .inconsistent,
                reason:
                    "damaged zip archive: the central directory lists \(declared) member\(declared == 1 ? "" : "s"), "
                    + "but " + (read == 0 ? "none" : "only \(read)") + " of its headers could be read"
            )
        }
        guard headers.bytesLeft == 0, read == declared || read % 0x1_0000 == declared else {
            throw ArchiveError(.inconsistent, reason: Self.directoryDoesNotAddUp)
        }
        consistency.finish(directoryOffset: location.offset)
        guard consistency.needsSortedWalk else { return (table, consistency.disagreement) }
        var again = ZipCentralDirectory.Headers(file: file, location: location)
        let overlap = ZipConsistency.overlap(
            of: AnySequence { AnyIterator { again.next() } },
            in: file,
            directoryOffset: location.offset
        )
        return (table, overlap)
    }

    private static let directoryDoesNotAddUp =
        "damaged zip archive: its central directory does not add up (a member count, a size or an offset of the "
        + "directory is wrong)"

    /// Adds the member `header` describes to `table`.
    private static func add(
        _ header: ZipCentralDirectory.Header,
        to table: inout ZipMemberTable,
        directoryOffset: UInt64
    ) throws(ArchiveError) {
        let name = ZipNameEncoding.decode(header.name, flags: header.flags, extra: header.extra)
        var traits: ZipMemberTable.Traits = []
        if header.isEncrypted { traits.insert(.encrypted) }
        if header.isSymbolicLink { traits.insert(.symbolicLink) }
        if name.wasNotUTF8 { traits.insert(.nameWasNotUTF8) }
        if name.mislabelledUTF8 { traits.insert(.nameMislabelledUTF8) }
        if zip_compression_method_supported(Int32(header.method), 0) != 0 { traits.insert(.compressionSupported) }
        guard let headerOffset = UInt32(exactly: header.fileOffset - directoryOffset),
            table.append(
                headerOffset: headerOffset,
                declaredSize: header.size,
                method: header.method,
                traits: traits,
                name: name.utf8
            )
        else { throw ArchiveError(.tooLarge, reason: "its central directory is larger than 4 GiB") }
    }

    /// Refuses a directory that cannot be where the end record says: past the end of the file, or overlapping the
    /// end record itself.
    private static func checkPlacement(
        of location: ZipCentralDirectory.Location,
        endRecordOffset: UInt64,
        path: String,
        fileSize: UInt64
    ) throws(ArchiveError) {
        let end = location.offset.addingReportingOverflow(location.size)
        guard location.offset >= fileSize || end.overflow || end.partialValue > endRecordOffset else { return }
        if let truncation = ZipDirectoryEnd.truncation(path: path) {
            throw ArchiveError(.truncated, reason: truncation)
        }
        if location.offset >= fileSize {
            throw ArchiveError(
                .inconsistent,
                reason: "damaged zip archive: its central directory lies past the end of the file (the file is cut "
                    + "short or its offsets are wrong)"
            )
        }
        throw ArchiveError(.inconsistent, reason: directoryDoesNotAddUp)
    }

    /// Reads a whole member into memory, refusing more than `limit` decompressed bytes.
    package func read(_ entry: ZipEntry, limit: Int? = nil) throws(ArchiveError) -> [UInt8] {
        let cap = limit ?? limits.maximumMemberBytes
        let stream = try self.stream(entry)
        var result: [UInt8] = []
        // The declared size is untrusted but the cap bounds it; reserving it whole spares the doubling copies of a
        // growing buffer (a peak of twice the member), and a lying size costs at most the cap.
        result.reserveCapacity(Int(min(declaredSize(at: entry.index), UInt64(cap))))
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

    /// The member named exactly `name`, if any: the last copy, as extractors keep it (a walk of every name: for
    /// one lookup; a reader that looks many up keeps an index of its own).
    package func entry(named name: String) -> ZipEntry? {
        entries.reversed().first { $0.name == name }
    }

    private func openMember(_ entry: ZipEntry) throws(ArchiveError) -> ZipMemberStream.Source {
        guard case .zip(let table, let directoryOffset, let file) = backend else { return try openFolderMember(entry) }
        guard !entry.isEncrypted else {
            throw ArchiveError(.encrypted, member: entry.name, reason: "member is encrypted")
        }
        guard entry.isCompressionSupported else {
            throw ArchiveError(
                .unsupportedCompression,
                member: entry.name,
                reason: "member is compressed with \(entry.compressionMethodInWords), which cannot be decompressed here"
            )
        }
        let headerOffset = directoryOffset + UInt64(table.headerOffsets[entry.index])
        guard let header = ZipCentralDirectory.header(in: file, at: headerOffset) else {
            throw ArchiveError(.damagedMember, member: entry.name, reason: "the file changed while it was being read")
        }
        // Stored and deflated members are read at their offset and inflated by ISA-L; another method through
        // libzip.
        guard header.method == 0 || header.method == 8 else {
            guard let member = libzip?.openMember(entry.index) else {
                throw ArchiveError(
                    .damagedMember,
                    member: entry.name,
                    reason: libzip?.lastError ?? "it could not be read"
                )
            }
            return .zip(member)
        }
        switch ZipRawMember.open(file: file, header: header) {
        case .success(let member): return .raw(member)
        case .failure(let problem): throw ArchiveError(.damagedMember, member: entry.name, reason: problem.reason)
        }
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

    private static func tooManyEntries(_ count: UInt64, limits: ArchiveLimits) -> ArchiveError {
        ArchiveError(
            .tooManyEntries,
            reason: "archive lists \(count) members, more than the \(limits.maximumEntries) accepted"
        )
    }
}
