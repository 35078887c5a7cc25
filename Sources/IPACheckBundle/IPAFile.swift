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
    package let findings: [Finding]
    /// The symbolic links of the bundles, by member name, with their targets: links are links in every container,
    /// never read as files (one that leaves its app is ARC012 and not a member at all).
    package let linkTargets: [String: String]
    /// The symbolic links that leave their app (ARC012), by name: codesign refuses a bundle holding one, so the
    /// bundles that hold one are not valid (``BundleSealCheck``).
    package let escapingLinks: [String]

    /// Reads the members, on the thread that opened the file.
    package let reader: IPAMemberReader
    /// Readable member names, each mapped to its entry (the first one, for duplicates).
    private var members: [String: ZipEntry] { reader.members }

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
                "\(error.reason) (the standard limit keeps a run within 64 MiB of memory; --max-members raises it, "
                    + "at about 2 KB of memory a member)"
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
        var findings: [Finding] = []
        if let reason = archive.leniencyReason {
            findings.append(
                ArchiveRules.rules.inconsistentDirectory.finding(
                    "\(reason); the archive was read from its central directory"
                )
            )
        }
        for link in archive.escapingLinks {
            findings.append(
                ArchiveRules.rules.linkLeavesBundle.finding(
                    "\(link.name) links to \(link.target), outside the bundle; it was not followed",
                    location: link.name
                )
            )
        }
        let screened = Self.screenMembers(archive.entries, findings: &findings)
        let (members, linkTargets, escaping) = Self.screenLinks(screened, archive: archive, findings: &findings)
        self.linkTargets = linkTargets
        self.escapingLinks = archive.escapingLinks.map(\.name) + escaping
        reader = IPAMemberReader(path: path, archive: archive, members: members)
        let names = members.keys.sorted()

        let root = try Self.locateMainApp(names: names, file: path, isFolder: archive.isFolder, findings: &findings)
        var bundles: [AppBundle] = []
        let main = Self.loadBundle(
            at: root,
            kind: .app,
            parent: nil,
            archive: archive,
            members: members,
            findings: &findings
        )
        switch main {
        case .success(let main): bundles.append(main)
        case .failure(let problem): throw InputError("bad-info-plist", file: path, problem.finding.message)
        }
        Self.collectNested(
            under: root,
            depth: 1,
            names: names,
            archive: archive,
            members: members,
            bundles: &bundles,
            findings: &findings
        )
        self.bundles = bundles
        self.findings = findings.sorted()
    }

    /// Whether the archive holds a readable member with this exact name.
    package func contains(_ member: String) -> Bool {
        members[member] != nil
    }

    /// The archive's own copy of a member's name, if it holds that member: a key that shares the index's storage,
    /// for tables that have an entry for every member (a name built from parts would be one more string each).
    package func storedName(_ member: String) -> String? {
        members.index(forKey: member).map { members[$0].key }
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

    /// The bundle's own files, relative to its folder, excluding nested bundles' contents and folders.
    ///
    /// This is the set `_CodeSignature/CodeResources` seals.
    package func files(of bundle: AppBundle) -> [String] {
        let prefix = bundle.path + "/"
        let nestedPrefixes = bundles.filter { $0.parent == bundle.path }.map { $0.path + "/" }
        return members.keys.filter { name in
            name.hasPrefix(prefix) && !name.hasSuffix("/") && !nestedPrefixes.contains { name.hasPrefix($0) }
        }
        .map { String($0.dropFirst(prefix.count)) }
        .sorted()
    }

    /// The declared uncompressed size of a member (informative only).
    package func declaredSize(of member: String) -> UInt64? {
        members[member]?.declaredSize
    }

    /// Every readable member's name.
    package var memberNames: Dictionary<String, ZipEntry>.Keys { members.keys }

    /// The given members in the order they are stored in the archive, so a pass reads the file front to back.
    package func inArchiveOrder(_ names: [String]) -> [String] {
        names.sorted { (members[$0]?.index ?? Int.max, $0) < (members[$1]?.index ?? Int.max, $1) }
    }

    // MARK: - Screening and discovery

    private static func screenMembers(_ entries: [ZipEntry], findings: inout [Finding]) -> [String: ZipEntry] {
        var members: [String: ZipEntry] = [:]
        var names = CaseFoldedNames()
        for entry in entries {
            let name = entry.name
            if let problem = unsafeNameProblem(name) {
                findings.append(
                    ArchiveRules.rules.unsafeMemberPath.finding(
                        "member \(String(reflecting: name)) \(problem); it is not read",
                        location: name
                    )
                )
                continue
            }
            if entry.nameMislabelledUTF8 {
                findings.append(
                    ArchiveRules.rules.nonUTF8Name.finding(
                        "member name is marked UTF-8 but its bytes are not UTF-8; it was read as a legacy name",
                        location: name
                    )
                )
            } else if entry.nameWasNotUTF8 {
                findings.append(ArchiveRules.rules.nonUTF8Name.finding("member name is not UTF-8", location: name))
            }
            if let earlier = members[name] {
                // A later copy replaces an earlier one, as every sequential extractor writes them. Swift compares
                // names by canonical equivalence, as Apple's file systems do: two spellings of one name in
                // different Unicode normalisation forms are one file there too.
                let spelling =
                    earlier.name.utf8.elementsEqual(name.utf8)
                    ? "\(name) is stored more than once"
                    : "\(name) is stored twice, in two Unicode normalisation forms (one file on Apple's file systems)"
                findings.append(
                    ArchiveRules.rules.duplicateMember.finding(
                        spelling + "; the last copy is read, as sequential extractors keep it (which one iOS's "
                            + "installer keeps is not documented)",
                        location: name
                    )
                )
                members[name] = entry
                continue
            }
            if let other = names.sameButForCase(name), !entry.isDirectory {
                findings.append(
                    ArchiveRules.rules.caseCollision.finding(
                        "\(name) and \(other) differ only in case; on a case-insensitive file system one hides "
                            + "the other",
                        location: name
                    )
                )
            }
            if entry.isEncrypted || !entry.isCompressionSupported {
                let why =
                    entry.isEncrypted
                    ? "is encrypted" : "uses unsupported compression method \(entry.compressionMethod)"
                findings.append(ArchiveRules.rules.unreadableMember.finding("\(name) \(why)", location: name))
            }
            members[name] = entry
        }
        return members
    }

    /// The symbolic links among `members`, judged as a folder's are: a link whose target is absolute or climbs
    /// above the app that holds it (`Payload/X.app`) is ARC012 and not a member; the others stay members, with
    /// their targets (a link's content), so no check reads them as files.
    private static func screenLinks(
        _ members: [String: ZipEntry],
        archive: ZipArchive,
        findings: inout [Finding]
    ) -> (members: [String: ZipEntry], targets: [String: String], escaping: [String]) {
        var kept = members
        var targets: [String: String] = [:]
        var escaping: [String] = []
        for (name, entry) in members where entry.isSymbolicLink {
            let target = (try? archive.read(entry, limit: 4096)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            if staysInItsApp(link: name, target: target) {
                targets[name] = target
            } else {
                kept[name] = nil
                escaping.append(name)
                findings.append(
                    ArchiveRules.rules.linkLeavesBundle.finding(
                        "\(name) links to \(target), outside the bundle; it was not followed",
                        location: name
                    )
                )
            }
        }
        return (kept, targets, escaping.sorted())
    }

    /// Whether a link's target, read from the link's folder, stays inside the app that holds the link (or the
    /// archive, for a link outside any app).
    static func staysInItsApp(link: String, target: String) -> Bool {
        guard !target.isEmpty, !target.hasPrefix("/") else { return false }
        let parts = link.split(separator: "/").dropLast()
        let appEnd = parts.firstIndex { $0.hasSuffix(".app") }.map { $0 + 1 } ?? parts.startIndex
        var depth = parts.count - (appEnd - parts.startIndex)
        for segment in target.split(separator: "/") {
            if segment == ".." {
                depth -= 1
                if depth < 0 { return false }
            } else if segment != "." {
                depth += 1
            }
        }
        return true
    }

    /// Why a member's name is unsafe to extract, in words, or `nil`: only a name that leaves the archive is said
    /// to, and one whose `..` stays inside says where it resolves (extractors differ on such names).
    static func unsafeNameProblem(_ name: String) -> String? {
        if name.hasPrefix("/") { return "is an absolute path: an extractor would write it outside its folder" }
        if name.contains("\0") { return "contains a NUL character, which ends the name for some extractors" }
        if let first = name.first, first.isASCII, first.isLetter, name.dropFirst().hasPrefix(":") {
            return "names a drive (\(name.prefix(2))), which Windows extractors write outside their folder"
        }
        if name.contains("\\") {
            return "contains a backslash, which Windows tools read as a folder separator and iOS as a character"
        }
        var depth = 0
        var resolved: [Substring] = []
        for segment in name.split(separator: "/", omittingEmptySubsequences: false) {
            if segment == ".." {
                depth -= 1
                if depth < 0 { return "climbs out of the archive with `..`" }
                resolved.removeLast()
            } else if segment != "." {
                depth += 1
                resolved.append(segment)
            }
        }
        guard name.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." })
        else { return nil }
        let target = resolved.joined(separator: "/")
        return "has a `.` or `..` segment: it stays inside the archive (it resolves to \(target)), but extractors "
            + "differ on such names"
    }

    private static func locateMainApp(
        names: [String],
        file: String,
        isFolder: Bool,
        findings: inout [Finding]
    ) throws(InputError) -> String {
        var topLevel: Set<String> = []
        var nested: Set<String> = []
        // `__MACOSX/` holds Finder's AppleDouble shadows of every file; they are never the app.
        for name in names where !name.hasPrefix("__MACOSX/") {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard
                let appIndex = parts.indices.first(where: { index in
                    index > 0 && parts[index].hasSuffix(".app") && parts[index].count > 4
                        && parts[index - 1] == "Payload"
                        && index < parts.count - 1
                })
            else { continue }
            let root = parts[0...appIndex].joined(separator: "/")
            if appIndex == 1 { topLevel.insert(root) } else { nested.insert(root) }
        }
        if let first = firstApp(of: Array(topLevel), in: "Payload", location: "Payload/", findings: &findings) {
            return first
        }
        if let first = nested.sorted(by: { ($0.count, $0) < ($1.count, $1) }).first {
            findings.append(
                ArchiveRules.rules.nestedPayload.finding(
                    "the app is at \(first), not at Payload/ in the archive's root; iOS will not install this ipa",
                    location: first
                )
            )
            return first
        }
        // An .app folder, or an .xcarchive's app, is read where it is, under its real path.
        let appsAtTheTop =
            isFolder ? names.filter(Self.isAppAtTheTop).map { String($0.dropLast("/Info.plist".count)) } : []
        if let first = firstApp(of: appsAtTheTop, in: "the folder", location: nil, findings: &findings) {
            return first
        }
        // A zipped .app (the bundle at the archive's root, as device farms ship it) is read where it is.
        let zippedApps = Set(
            names.compactMap { name -> String? in
                let parts = name.split(separator: "/", maxSplits: 1)
                guard parts.count == 2, parts[0].hasSuffix(".app"), parts[0].count > 4, parts[1] == "Info.plist"
                else { return nil }
                return String(parts[0])
            }
        )
        if !isFolder,
            let first = firstApp(of: Array(zippedApps), in: "the archive's root", location: nil, findings: &findings)
        {
            findings.append(
                ArchiveRules.rules.nestedPayload.finding(
                    "the app is at the archive's root (\(first), a zipped .app), not under Payload/: a device farm "
                        + "installs the .app itself, but iOS installs no ipa without Payload/ at its root",
                    location: first
                )
            )
            return first
        }
        throw InputError("no-app-bundle", file: file, noAppMessage(names: names, isFolder: isFolder))
    }

    /// The first of `apps` in name order, which is the one checked; several are ARC005, naming them (`place` is where
    /// they are, `location` the finding's, the first app when nil).
    private static func firstApp(
        of apps: [String],
        in place: String,
        location: String?,
        findings: inout [Finding]
    ) -> String? {
        let sorted = apps.sorted()
        guard let first = sorted.first else { return nil }
        if sorted.count > 1 {
            findings.append(
                ArchiveRules.rules.severalApps.finding(
                    "\(place) holds \(sorted.count) apps (\(sorted.joined(separator: ", "))); checking \(first)",
                    location: location ?? first
                )
            )
        }
        return first
    }

    /// Whether `name` is the Info.plist of an app at the top of a folder target: `X.app/Info.plist` (an .app) or
    /// `Products/Applications/X.app/Info.plist` (an .xcarchive).
    private static func isAppAtTheTop(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        let app =
            parts.count == 2 ? 0 : parts.count == 4 && parts[0] == "Products" && parts[1] == "Applications" ? 2 : nil
        guard let app else { return false }
        return parts[app].hasSuffix(".app") && parts[app].count > 4 && parts[app + 1] == "Info.plist"
    }

    private static func noAppMessage(names: [String], isFolder: Bool) -> String {
        if isFolder {
            // A folder is read as the ipa unpacked: say what it is, not "archive".
            return names.isEmpty
                ? "is an empty folder (or one this user may not list), not an ipa, an .app or an .xcarchive"
                : "is a folder with no Payload/*.app in it (\(names.count) file\(names.count == 1 ? "" : "s")), not an unpacked ipa"
        }
        let firstComponents = Set(names.compactMap { $0.split(separator: "/").first.map(String.init) })
        if let app = firstComponents.sorted().first(where: { $0.hasSuffix(".app") }) {
            if names.contains("\(app)/Contents/Info.plist") {
                return "no Payload/*.app: this is a zipped macOS app (\(app)/Contents/), not an iOS ipa"
            }
            return "no Payload/*.app: \(app) is at the archive's root, so this is a zipped .app, not an ipa "
                + "(an ipa keeps the app under Payload/)"
        }
        if names.isEmpty { return "no Payload/*.app: the archive is empty" }
        return "no Payload/*.app in the archive (\(names.count) member\(names.count == 1 ? "" : "s"), "
            + "none under Payload/*.app/)"
    }

    private static func collectNested(
        under parentPath: String,
        depth: Int,
        names: [String],
        archive: ZipArchive,
        members: [String: ZipEntry],
        bundles: inout [AppBundle],
        findings: inout [Finding]
    ) {
        guard depth <= maximumNesting else { return }
        for container in BundleKind.containers {
            let prefix = "\(parentPath)/\(container.folder)/"
            var children: Set<String> = []
            for name in names where name.hasPrefix(prefix) && !name.hasSuffix("/") {
                // Only folders holding at least one file count: an empty `X.framework/` entry is no bundle.
                let rest = name.dropFirst(prefix.count)
                guard let slash = rest.firstIndex(of: "/") else { continue }
                let folder = rest[..<slash]
                if folder.hasSuffix(container.suffix) && folder.count > container.suffix.count {
                    children.insert(prefix + folder)
                }
            }
            for child in children.sorted() {
                let loaded = loadBundle(
                    at: child,
                    kind: container.kind,
                    parent: parentPath,
                    archive: archive,
                    members: members,
                    findings: &findings
                )
                switch loaded {
                case .success(let bundle): bundles.append(bundle)
                case .failure(let problem):
                    findings.append(problem.finding)
                    continue
                }
                collectNested(
                    under: child,
                    depth: depth + 1,
                    names: names,
                    archive: archive,
                    members: members,
                    bundles: &bundles,
                    findings: &findings
                )
            }
        }
    }

    /// Why a bundle cannot be read, as the finding that reports it.
    struct UnreadableBundle: Error {
        let finding: Finding

        init(_ message: String, bundle: String, location: String) {
            finding = ArchiveRules.rules.bundleInfoPlist.finding(message, bundle: bundle, location: location)
        }
    }

    /// Reads the bundle at `path`, or says why it cannot be read (an ``ArchiveRules/bundleInfoPlist`` finding:
    /// a nested bundle's is reported, the main app's makes the ipa unreadable).
    private static func loadBundle(
        at path: String,
        kind: BundleKind,
        parent: String?,
        archive: ZipArchive,
        members: [String: ZipEntry],
        findings: inout [Finding]
    ) -> Result<AppBundle, UnreadableBundle> {
        // iOS bundles are shallow (Info.plist at the root); macOS-style frameworks keep it in Resources/.
        let candidates = ["\(path)/Info.plist", "\(path)/Resources/Info.plist", "\(path)/Contents/Info.plist"]
        guard let infoPath = candidates.first(where: { members[$0] != nil }), let entry = members[infoPath] else {
            return .failure(
                UnreadableBundle("\(path) has no Info.plist", bundle: path, location: path)
            )
        }
        let info: PlistValue
        let infoDigests: FileDigests
        do {
            let bytes = try archive.read(entry, limit: maximumInfoPlistBytes)
            infoDigests = FileDigests(of: bytes)
            info = try PlistParser.parse(bytes)
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
            if members[member] != nil {
                executable = member
            } else {
                findings.append(
                    ArchiveRules.rules.missingExecutable.finding(
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
                provisioningProfile: members[profile] != nil ? profile : nil,
                codeResources: members[seal] != nil ? seal : nil,
                infoPlistPath: infoPath,
                infoPlist: info,
                infoPlistDigests: infoDigests
            )
        )
    }
}
