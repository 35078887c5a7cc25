import IPACheckArchive
import IPACheckReport

/// Where the main app is in an archive or folder: under `Payload/`, at the root of a zipped `.app`, or an `.app`
/// folder or `.xcarchive` named by its real path.
extension IPAFile {
    /// `Payload/X.app` when `name` lies inside it (something follows the `.app` folder's slash), as the general
    /// search below would find it; `nil` for every other name, which that search then judges.
    ///
    /// A slash followed by a non-ASCII byte is left to the general search: a combining mark there would join the
    /// slash into one character, which the search does not split at.
    private static func topLevelAppRoot(of name: String) -> Substring? {
        guard name.hasPrefix("Payload/") else { return nil }
        let bytes = name.utf8
        let start = bytes.index(bytes.startIndex, offsetBy: "Payload/".utf8.count)
        guard let slash = bytes[start...].firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let next = bytes.index(after: slash)
        guard next == bytes.endIndex || bytes[next] < 0x80 else { return nil }
        let folder = name[start..<slash]
        guard folder.hasSuffix(".app"), folder.count > 4 else { return nil }
        return name[..<slash]
    }

    static func locateMainApp(
        names: some Sequence<String>,
        memberCount: Int,
        file: String,
        isFolder: Bool,
        findings: inout [ArchiveProblem]
    ) throws(InputError) -> String {
        var topLevel: Set<String> = []
        var nested: Set<String> = []
        // `__MACOSX/` holds Finder's AppleDouble shadows of every file; they are never the app.
        var lastTopLevel: Substring = ""
        for name in names where !name.hasPrefix("__MACOSX/") {
            // Nearly every member lies in `Payload/X.app/`: its root is found without splitting the name, and is
            // inserted only when it differs from the previous member's.
            if let root = topLevelAppRoot(of: name) {
                if root != lastTopLevel { topLevel.insert(String(root)) }
                lastTopLevel = root
                continue
            }
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
                ArchiveProblem(
                    .nestedPayload,
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
                ArchiveProblem(
                    .nestedPayload,
                    "the app is at the archive's root (\(first), a zipped .app), not under Payload/: a device farm "
                        + "installs the .app itself, but iOS installs no ipa without Payload/ at its root",
                    location: first
                )
            )
            return first
        }
        throw InputError(
            "no-app-bundle",
            file: file,
            noAppMessage(names: names, memberCount: memberCount, isFolder: isFolder)
        )
    }

    /// The first of `apps` in name order, which is the one checked; several are ARC005, naming them (`place` is where
    /// they are, `location` the finding's, the first app when nil).
    static func firstApp(
        of apps: [String],
        in place: String,
        location: String?,
        findings: inout [ArchiveProblem]
    ) -> String? {
        let sorted = apps.sorted()
        guard let first = sorted.first else { return nil }
        if sorted.count > 1 {
            findings.append(
                ArchiveProblem(
                    .severalApps,
                    "\(place) holds \(sorted.count) apps (\(sorted.joined(separator: ", "))); checking \(first)",
                    location: location ?? first
                )
            )
        }
        return first
    }

    /// Whether `name` is the Info.plist of an app at the top of a folder target: `X.app/Info.plist` (an .app) or
    /// `Products/Applications/X.app/Info.plist` (an .xcarchive).
    static func isAppAtTheTop(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        let app =
            parts.count == 2 ? 0 : parts.count == 4 && parts[0] == "Products" && parts[1] == "Applications" ? 2 : nil
        guard let app else { return false }
        return parts[app].hasSuffix(".app") && parts[app].count > 4 && parts[app + 1] == "Info.plist"
    }

    /// Why no app was found, counting every member the archive lists (`memberCount`), read or not.
    static func noAppMessage(names: some Sequence<String>, memberCount count: Int, isFolder: Bool) -> String {
        if isFolder {
            // A folder is read as the ipa unpacked: say what it is, not "archive".
            return count == 0
                ? "is an empty folder (or one this user may not list), not an ipa, an .app or an .xcarchive"
                : "is a folder with no Payload/*.app in it (\(count) file\(count == 1 ? "" : "s")), not an unpacked ipa"
        }
        let firstComponents = Set(names.compactMap { $0.split(separator: "/").first.map(String.init) })
        if let app = firstComponents.sorted().first(where: { $0.hasSuffix(".app") }) {
            if names.contains("\(app)/Contents/Info.plist") {
                return "no Payload/*.app: this is a zipped macOS app (\(app)/Contents/), not an iOS ipa"
            }
            return "no Payload/*.app: \(app) is at the archive's root, so this is a zipped .app, not an ipa "
                + "(an ipa keeps the app under Payload/)"
        }
        if count == 0 { return "no Payload/*.app: the archive is empty" }
        // A zipped .xcarchive, as CI jobs upload them: say what it is and what ipacheck reads instead.
        if let archive = firstComponents.sorted().first(where: { $0.hasSuffix(".xcarchive") }),
            names.contains(where: { $0.hasPrefix("\(archive)/Products/Applications/") })
        {
            return "no Payload/*.app: this is a zipped .xcarchive (\(archive)); unzip it and give the .xcarchive "
                + "folder, or export an ipa from it"
        }
        return "no Payload/*.app in the archive (\(count) member\(count == 1 ? "" : "s"), "
            + "none under Payload/*.app/)"
    }
}
