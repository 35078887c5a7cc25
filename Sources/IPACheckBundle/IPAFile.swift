package import IPACheckArchive
import IPACheckPlist
package import IPACheckReport
import IPACheckSigning

/// An opened ipa: its bundles (main app first), found without unpacking anything to disk.
///
/// Holds the libzip handle, so it is not `Sendable`; open one per task.
package final class IPAFile {
    /// The path the user gave.
    package let path: String
    /// Every bundle: the main app first, then nested bundles depth first in name order.
    package let bundles: [AppBundle]
    /// Problems with the archive itself (unsafe names, duplicates, nested Payload, unreadable nested bundles).
    package let problems: [ArchiveProblem]
    /// The symbolic links of the bundles, by member name, with their targets: links are links in every container,
    /// never read as files (one that leaves its app is ARC012 and not a member at all).
    package let linkTargets: [String: String]
    /// The symbolic links that leave their app (ARC012), by name: codesign refuses a bundle holding one, so the
    /// bundles that hold one are not valid (``BundleSealCheck``).
    package let escapingLinks: [String]

    /// Reads the members, on the thread that opened the file.
    package let reader: IPAMemberReader

    /// The deepest bundle nesting followed (app → watch app → extension → framework is 4).
    static let maximumNesting = 6
    /// The largest Info.plist read: real ones are a few kilobytes, and a large one costs about three times its size
    /// while it is parsed.
    static let maximumInfoPlistBytes = 1024 * 1024

    /// The main app.
    package var mainApp: AppBundle {
        // `init` throws unless it found the main app, so `bundles` is never empty.
        bundles[0]
    }

    /// Opens `path` and finds its bundles, reading at most as many members as `limits` allow.
    ///
    /// - Throws: ``InputError`` when the file is not a zip, has no `Payload/*.app`, or the main app's Info.plist is
    ///   missing or malformed.
    package init(path: String, limits: ArchiveLimits = .standard) throws(InputError) {
        self.path = path
        let archive: ZipArchive
        do {
            archive = try ZipArchive(path: path, limits: limits)
        } catch  where error.code == .tooManyEntries {
            throw InputError(
                "too-many-members",
                file: path,
                "\(error.reason) (--max-members raises the limit up to \(ArchiveLimits.largestEntryLimit), at about "
                    + "\(ArchiveLimits.approximateBytesPerMember) bytes of memory a member)"
            )
        } catch  where error.code == .unreadable {
            // The system's reason, in the words every command uses (not libzip's "Can't open file").
            throw InputError.unreadableFile(path)
        } catch  where error.code == .notAZip {
            // Not a zip: say what it is in the words every command uses for the same file.
            switch try TargetKind.of(path: path) {
            case .machO:
                throw InputError(
                    "not-a-zip",
                    file: path,
                    "is a Mach-O executable, not an ipa: `ipacheck verify` and `ipacheck entitlements` read a bare "
                        + "Mach-O"
                )
            case .propertyList:
                throw InputError(
                    "not-a-zip",
                    file: path,
                    "is a property list, not a build: `ipacheck domains` and `ipacheck check` read an entitlements "
                        + "file"
                )
            case .archive:
                throw InputError("not-a-zip", file: path, error.reason)
            }
        } catch {
            let code =
                switch error.code {
                case .notAZip: "not-a-zip"
                case .truncated: "truncated"
                default: "unreadable"
                }
            throw InputError(code, file: path, error.reason)
        }
        var findings: [ArchiveProblem] = []
        if let reason = archive.leniencyReason {
            findings.append(
                ArchiveProblem(
                    .inconsistentDirectory,
                    "\(reason); the archive was read from its central directory"
                )
            )
        }
        for link in archive.escapingLinks {
            findings.append(
                ArchiveProblem(
                    .linkLeavesBundle,
                    "\(link.name) links to \(link.target), outside the bundle; it was not followed",
                    location: link.name
                )
            )
        }
        var (index, links) = Self.screenMembers(archive, findings: &findings)
        let (linkTargets, escaping) = Self.screenLinks(links, in: archive, index: &index, findings: &findings)
        self.linkTargets = linkTargets
        self.escapingLinks = archive.escapingLinks.map(\.name) + escaping
        let reader = IPAMemberReader(path: path, archive: archive, index: index)
        self.reader = reader

        let root = try Self.locateMainApp(
            names: reader.memberNames,
            memberCount: archive.memberCount,
            file: path,
            isFolder: archive.isFolder,
            findings: &findings
        )
        var bundles: [AppBundle] = []
        let main = Self.loadBundle(at: root, kind: .app, parent: nil, reader: reader, findings: &findings)
        switch main {
        case .success(let main): bundles.append(main)
        case .failure(let problem): throw InputError("bad-info-plist", file: path, problem.problem.message)
        }
        Self.collectNested(
            under: root,
            depth: 1,
            folders: Self.nestedBundleFolders(in: reader.memberNames),
            reader: reader,
            bundles: &bundles,
            findings: &findings
        )
        self.bundles = bundles
        self.problems = findings
    }

    /// Whether the archive holds a readable member with this exact name.
    package func contains(_ member: String) -> Bool {
        reader.memberIndex(of: member) != nil
    }

    /// Reads a member whole (bounded by `limit`, default the archive's per-member limit); a symbolic link is not a
    /// file and is refused, saying where it points.
    package func read(_ member: String, limit: Int? = nil) throws(InputError) -> [UInt8] {
        try refuseLink(member)
        return try reader.read(member, limit: limit)
    }

    /// Opens a forward-only stream over a member, to take only the parts of a large file that matter.
    package func stream(_ member: String) throws(InputError) -> ZipMemberStream {
        try refuseLink(member)
        return try reader.stream(member)
    }

    private func refuseLink(_ member: String) throws(InputError) {
        guard let target = linkTargets[member] else { return }
        throw InputError("link", file: path, "\(member) is a symbolic link to \(target), not a file")
    }

    /// The bundle's own files, relative to its folder, excluding nested bundles' contents and folders, sorted.
    ///
    /// This is the set `_CodeSignature/CodeResources` seals.
    package func files(of bundle: AppBundle) -> [String] {
        bundleFiles(of: bundle).sorted()
    }

    /// The files of ``files(of:)`` in archive order, each made as it is reached: a large app's list is never held
    /// (it took about 80 bytes a file).
    package func bundleFiles(of bundle: AppBundle) -> some Sequence<String> {
        bundleMembers(of: bundle).lazy.map(\.path)
    }

    /// The bundle's files as ``bundleFiles(of:)`` gives them, each with its member index.
    func bundleMembers(of bundle: AppBundle) -> some Sequence<(member: Int, path: String)> {
        let prefix = bundle.path + "/"
        let nestedPrefixes = bundles.filter { $0.parent == bundle.path }.map { $0.path + "/" }
        return reader.memberNames.withIndices.lazy.filter { _, name in
            name.hasPrefix(prefix) && !name.hasSuffix("/") && !nestedPrefixes.contains { name.hasPrefix($0) }
        }
        .map { (member: $0.member, path: String($0.name.dropFirst(prefix.count))) }
    }

    /// The declared uncompressed size of a member (informative only).
    package func declaredSize(of member: String) -> UInt64? {
        reader.memberIndex(of: member).map { reader.archive.declaredSize(at: $0) }
    }

    /// Every readable member's name, in archive order (decoded as they are walked).
    package var memberNames: MemberNames { reader.memberNames }

    /// Reads the bundles nested under `parentPath` (from `folders`: ``nestedBundleFolders(in:)``), and theirs.
    private static func collectNested(
        under parentPath: String,
        depth: Int,
        folders: [String: [(container: Int, path: String)]],
        reader: IPAMemberReader,
        bundles: inout [AppBundle],
        findings: inout [ArchiveProblem]
    ) {
        guard depth <= maximumNesting else { return }
        let children = folders[parentPath] ?? []
        for (containerIndex, container) in BundleKind.containers.enumerated() {
            let paths = Set(children.filter { $0.container == containerIndex }.map(\.path))
            for child in paths.sorted() {
                let loaded = loadBundle(
                    at: child,
                    kind: container.kind,
                    parent: parentPath,
                    reader: reader,
                    findings: &findings
                )
                switch loaded {
                case .success(let bundle): bundles.append(bundle)
                case .failure(let problem):
                    findings.append(problem.problem)
                    continue
                }
                collectNested(
                    under: child,
                    depth: depth + 1,
                    folders: folders,
                    reader: reader,
                    bundles: &bundles,
                    findings: &findings
                )
            }
        }
    }

    /// Every folder that may be a nested bundle, by the folder holding it, from one walk of the names: a member
    /// `P/PlugIns/X.appex/…` makes `P/PlugIns/X.appex` a candidate under `P` (only folders holding at least one
    /// file count: an empty `X.framework/` entry is no bundle).
    static func nestedBundleFolders(in names: some Sequence<String>) -> [String: [(container: Int, path: String)]] {
        var folders: [String: [(container: Int, path: String)]] = [:]
        var seen: Set<String> = []
        for name in names where !name.hasSuffix("/") && hasContainerFolderSegment(name) {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 4 else { continue }
            for folderIndex in 1..<(parts.count - 2) {
                let child = parts[folderIndex + 1]
                for (containerIndex, container) in BundleKind.containers.enumerated()
                where parts[folderIndex] == container.folder && child.hasSuffix(container.suffix)
                    && child.count > container.suffix.count
                {
                    let parent = parts[..<folderIndex].joined(separator: "/")
                    let path = "\(parent)/\(container.folder)/\(child)"
                    guard seen.insert("\(containerIndex)\u{0}\(path)").inserted else { continue }
                    folders[parent, default: []].append((containerIndex, path))
                }
            }
        }
        return folders
    }

    /// The names of the folders nested bundles live in, as bytes, and their lengths.
    private static let containerFolders = Set(BundleKind.containers.map { Array($0.folder.utf8) })
    private static let containerFolderLengths = Set(containerFolders.map(\.count))

    /// Whether a path has a segment, followed by a slash, named as a folder nested bundles live in: a test over the
    /// name's bytes that spares splitting every member into segments (a member without one is in no nested bundle).
    private static func hasContainerFolderSegment(_ name: String) -> Bool {
        let bytes = name.utf8
        var start = bytes.startIndex
        var length = 0
        for index in bytes.indices {
            guard bytes[index] == UInt8(ascii: "/") else {
                length += 1
                continue
            }
            if containerFolderLengths.contains(length), containerFolders.contains(Array(bytes[start..<index])) {
                return true
            }
            start = bytes.index(after: index)
            length = 0
        }
        return false
    }

    /// Why a bundle cannot be read, as the problem that reports it.
    struct UnreadableBundle: Error {
        let problem: ArchiveProblem

        init(_ message: String, bundle: String, location: String) {
            problem = ArchiveProblem(.bundleInfoPlist, message, bundle: bundle, location: location)
        }
    }

    /// Reads the bundle at `path`, or says why it cannot be read (a `bundleInfoPlist` problem:
    /// a nested bundle's is reported, the main app's makes the ipa unreadable).
    private static func loadBundle(
        at path: String,
        kind: BundleKind,
        parent: String?,
        reader: IPAMemberReader,
        findings: inout [ArchiveProblem]
    ) -> Result<AppBundle, UnreadableBundle> {
        // iOS bundles are shallow (Info.plist at the root); macOS-style frameworks keep it in Resources/.
        let candidates = ["\(path)/Info.plist", "\(path)/Resources/Info.plist", "\(path)/Contents/Info.plist"]
        guard let infoPath = candidates.first(where: { reader.entry(named: $0) != nil }),
            let entry = reader.entry(named: infoPath)
        else {
            return .failure(
                UnreadableBundle("\(path) has no Info.plist", bundle: path, location: path)
            )
        }
        let info: PlistValue
        let infoDigests: FileDigests
        do {
            let bytes = try reader.archive.read(entry, limit: maximumInfoPlistBytes)
            infoDigests = FileDigests(of: bytes)
            info = try PlistParser.parse(bytes)
        } catch let error as ArchiveError {
            // The member is named once, first.
            return .failure(
                UnreadableBundle("\(infoPath) cannot be read: \(error.reason)", bundle: path, location: infoPath)
            )
        } catch {
            return .failure(
                UnreadableBundle("\(infoPath) cannot be read: \(error)", bundle: path, location: infoPath)
            )
        }
        guard info.dictionaryValue != nil else {
            return .failure(
                UnreadableBundle(
                    "\(infoPath) is \(info.typeNameWithArticle), not a dictionary",
                    bundle: path,
                    location: infoPath
                )
            )
        }
        let folder = path.split(separator: "/").last.map(String.init) ?? path
        let defaultExecutable = kind == .framework ? String(folder.prefix(while: { $0 != "." })) : nil
        let executableName = info["CFBundleExecutable"]?.stringValue ?? defaultExecutable
        var executable: String? = nil
        if let executableName, !executableName.isEmpty, !executableName.contains("/") {
            let member = "\(path)/\(executableName)"
            if reader.entry(named: member) != nil {
                executable = member
            } else {
                findings.append(
                    ArchiveProblem(
                        .missingExecutable,
                        "\(path) names executable \(executableName), which is not in the bundle",
                        bundle: path,
                        location: infoPath
                    )
                )
            }
        }
        let profile = "\(path)/embedded.mobileprovision"
        let seal = "\(path)/_CodeSignature/CodeResources"
        return .success(
            AppBundle(
                path: path,
                kind: kind,
                parent: parent,
                bundleID: info["CFBundleIdentifier"]?.stringValue,
                name: info["CFBundleDisplayName"]?.stringValue ?? info["CFBundleName"]?.stringValue,
                version: info["CFBundleShortVersionString"]?.stringValue,
                build: info["CFBundleVersion"]?.stringValue,
                platform: info["DTPlatformName"]?.stringValue ?? info["CFBundleSupportedPlatforms"]?.stringArray?.first,
                minimumOSVersion: info["MinimumOSVersion"]?.stringValue ?? info["LSMinimumSystemVersion"]?.stringValue,
                executable: executable,
                provisioningProfile: reader.entry(named: profile) != nil ? profile : nil,
                codeResources: reader.entry(named: seal) != nil ? seal : nil,
                infoPlistPath: infoPath,
                infoPlist: info,
                infoPlistDigests: infoDigests
            )
        )
    }
}
