import Foundation

/// A folder read as if it were an ipa: an `.app` bundle, an `.xcarchive`, or an unpacked ipa (a folder holding
/// `Payload/`), each member named by its real path in the folder given (`App.app/…`, `Products/Applications/App.app/…`,
/// `Payload/App.app/…`), and read as a zip's members are, so every check gives the same answer whichever container
/// the bytes come in.
///
/// The walk never follows a symbolic link. A link is a member whose content is its target, as a zip stores it;
/// one that points outside the bundle is not a member at all but is listed in ``escapingLinks`` for the caller to
/// report. The member cap is checked while walking, before anything is kept for the members past it.
struct FolderArchive: Sendable {
    /// What a member is on disk.
    enum Member: Sendable, Hashable {
        /// A regular file.
        case file(URL)
        /// A symbolic link inside the bundle: its content is the target path.
        case link(target: [UInt8])
        /// A folder (listed as `name/`, as zips list them).
        case folder
    }

    /// The members in name order, each with its entry.
    let entries: [ZipEntry]
    /// Where each entry's bytes are, by entry index.
    let members: [Member]
    /// Links that point outside the bundle: the member name they would have had, and their target.
    let escapingLinks: [(name: String, target: String)]

    /// Walks the folder at `root`.
    ///
    /// - Throws: ``ArchiveError`` when an `.xcarchive` holds no app, or the folder more members than `limits` allow.
    init(root: URL, limits: ArchiveLimits) throws(ArchiveError) {
        let followed = Self.followingLink(root)
        let walks = try Self.layout(of: followed.folder, named: followed.name)
        var found: [(name: String, member: Member, size: UInt64)] = []
        var escaping: [(name: String, target: String)] = []
        for walk in walks {
            try Self.walk(walk.folder, as: walk.prefix, limits: limits, into: &found, escaping: &escaping)
        }
        found.sort { $0.name < $1.name }
        entries = found.enumerated().map { index, item in
            var isLink = false
            if case .link = item.member { isLink = true }
            return ZipEntry(
                index: index,
                name: item.name,
                nameWasNotUTF8: false,
                isSymbolicLink: isLink,
                sizeEstimate: item.size,
                compressionMethod: 0,
                isEncrypted: false,
                isCompressionSupported: true
            )
        }
        members = found.map(\.member)
        escapingLinks = escaping
    }

    /// The folder `root` names and the name to lay it out by, following `root` once when the user's path is itself
    /// a symbolic link (a link to an `.app` in a build folder): the walk starts at the real folder, and never follows
    /// a link inside it.
    ///
    /// The real folder's name decides the layout (`Payload/App.app/`), unless only the link's name says `.app` or
    /// `.xcarchive`.
    static func followingLink(_ root: URL) -> (folder: URL, name: String) {
        let linkName = root.standardizedFileURL.lastPathComponent
        let isLink = (try? root.resourceValues(forKeys: [.isSymbolicLinkKey]))?.isSymbolicLink == true
        guard isLink else { return (root, linkName) }
        let target = root.resolvingSymlinksInPath()
        let targetName = target.standardizedFileURL.lastPathComponent
        let known = [".app", ".xcarchive"]
        if !known.contains(where: targetName.hasSuffix), known.contains(where: linkName.hasSuffix) {
            return (target, linkName)
        }
        return (target, targetName)
    }

    /// One folder to walk, and the prefix of its members' names.
    typealias Walk = (folder: URL, prefix: String)

    /// Which folders to walk and under which names: an `.app` as `Payload/App.app/`, an `.xcarchive`'s
    /// `Products/Applications/*.app` the same way, any other folder whole, as an unpacked ipa.
    private static func layout(of root: URL, named name: String) throws(ArchiveError) -> [Walk] {
        // A bundle is named by its real path: `X.app` for an .app folder, `Products/Applications/X.app` in an
        // .xcarchive (the caller finds the app there), never an ipa's `Payload/X.app` it does not have.
        if name.hasSuffix(".app") { return [(root, "\(name)/")] }
        if name.hasSuffix(".xcarchive") {
            let applications = root.appendingPathComponent("Products/Applications")
            let apps = ((try? FileManager.default.contentsOfDirectory(atPath: applications.path)) ?? [])
                .filter { $0.hasSuffix(".app") }.sorted()
            guard !apps.isEmpty else {
                throw ArchiveError(.notAZip, reason: "is an .xcarchive without Products/Applications/*.app")
            }
            return apps.map { (applications.appendingPathComponent($0), "Products/Applications/\($0)/") }
        }
        // An unpacked ipa: read whole, as its zip would be (the caller looks for Payload/*.app in it).
        return [(root, "")]
    }

    private static func walk(
        _ folder: URL,
        as prefix: String,
        limits: ArchiveLimits,
        into found: inout [(name: String, member: Member, size: UInt64)],
        escaping: inout [(name: String, target: String)]
    ) throws(ArchiveError) {
        let keys: [URLResourceKey] = [.isSymbolicLinkKey, .isDirectoryKey, .isRegularFileKey, .fileSizeKey]
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else {
            throw ArchiveError(.unreadable, reason: "cannot list the folder")
        }
        let base = folder.standardizedFileURL.path
        for case let url as URL in enumerator {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(base + "/") else { continue }
            let relative = String(path.dropFirst(base.count + 1))
            let values = try? url.resourceValues(forKeys: Set(keys))
            let name = prefix + relative
            if values?.isSymbolicLink == true {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) ?? ""
                if Self.staysInside(target, from: relative) {
                    found.append((name, .link(target: Array(target.utf8)), UInt64(target.utf8.count)))
                } else {
                    escaping.append((name, target))
                }
            } else if values?.isDirectory == true {
                found.append((name + "/", .folder, 0))
            } else if values?.isRegularFile == true {
                found.append((name, .file(url), UInt64(values?.fileSize ?? 0)))
            } else {
                continue  // sockets, devices, FIFOs: nothing an app holds
            }
            guard found.count <= limits.maximumEntries else {
                throw ArchiveError(
                    .tooManyEntries,
                    reason: "the folder holds more than the \(limits.maximumEntries) members accepted"
                )
            }
        }
    }

    /// Whether a link at `relative` (inside the walked folder) to `target` resolves inside that folder: relative,
    /// and never climbing above the folder's root.
    static func staysInside(_ target: String, from relative: String) -> Bool {
        guard !target.isEmpty, !target.hasPrefix("/") else { return false }
        var depth = relative.split(separator: "/").count - 1
        for component in target.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                depth -= 1
                if depth < 0 { return false }
            default: depth += 1
            }
        }
        return true
    }
}
