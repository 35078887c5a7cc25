import IPACheckArchive
import IPACheckReport

/// The members of an archive judged by their names and kinds before anything is read: unsafe names, duplicates,
/// case twins, legacy encodings, unreadable members and symbolic links.
extension IPAFile {
    /// Screens every member, in archive order: the index of those that are read, and the symbolic links among
    /// them (judged by ``screenLinks(_:in:index:findings:)``).
    static func screenMembers(
        _ archive: ZipArchive,
        findings: inout [ArchiveProblem]
    ) -> (index: MemberIndex, links: [Int]) {
        let twins = caseTwins(archive)
        var index = MemberIndex(memberCount: archive.memberCount)
        var links: [Int] = []
        for (position, entry) in zip(0..., archive.entries) {
            let name = entry.name
            if let problem = unsafeNameProblem(name) {
                findings.append(
                    ArchiveProblem(
                        .unsafeMemberPath,
                        "member \(String(reflecting: name)) \(problem); it is not read",
                        location: name
                    )
                )
                continue
            }
            if entry.nameMislabelledUTF8 {
                findings.append(
                    ArchiveProblem(
                        .nonUTF8Name,
                        "member name is marked UTF-8 but its bytes are not UTF-8; it was read as a legacy name",
                        location: name
                    )
                )
            } else if entry.nameWasNotUTF8 {
                findings.append(ArchiveProblem(.nonUTF8Name, "member name is not UTF-8", location: name))
            }
            if entry.isSymbolicLink { links.append(position) }
            if let earlier = index.insert(name, index: position, in: archive) {
                // A later copy replaces an earlier one, as every sequential extractor writes them. Swift compares
                // names by canonical equivalence, as Apple's file systems do: two spellings of one name in
                // different Unicode normalisation forms are one file there too.
                let spelling =
                    archive.name(at: earlier).utf8.elementsEqual(name.utf8)
                    ? "\(name) is stored more than once"
                    : "\(name) is stored twice, in two Unicode normalisation forms (one file on Apple's file systems)"
                findings.append(
                    ArchiveProblem(
                        .duplicateMember,
                        spelling + "; the last copy is read, as sequential extractors keep it (which one iOS's "
                            + "installer keeps is not documented)",
                        location: name
                    )
                )
                continue
            }
            if let other = twins[position], !entry.isDirectory {
                findings.append(
                    ArchiveProblem(
                        .caseCollision,
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
                findings.append(ArchiveProblem(.unreadableMember, "\(name) \(why)", location: name))
            }
        }
        return (index, links)
    }

    /// Each member whose name differs from an earlier one's only in case, with that earlier name; a later copy of a
    /// member is not its own twin (it is a duplicate).
    ///
    /// A pass of its own before the members are indexed, so that its table is gone before the index is built: at a
    /// million members the two together were the largest thing a run held.
    private static func caseTwins(_ archive: ZipArchive) -> [Int: String] {
        var names = CaseFoldedNames(capacity: archive.memberCount, members: archive.memberCount) {
            archive.name(at: $0)
        }
        var twins: [Int: String] = [:]
        var position = 0
        for name in archive.namesInOrder {
            defer { position += 1 }
            guard unsafeNameProblem(name) == nil else { continue }
            if case .sameButForCase(let other) = names.note(name, member: position) { twins[position] = other }
        }
        return twins
    }

    /// The symbolic links among the live members, judged as a folder's are: a link whose target is absolute or
    /// climbs above the app that holds it (`Payload/X.app`) is ARC012 and leaves the index; the others stay
    /// members, with their targets (a link's content), so no check reads them as files.
    static func screenLinks(
        _ links: [Int],
        in archive: ZipArchive,
        index: inout MemberIndex,
        findings: inout [ArchiveProblem]
    ) -> (targets: [String: String], escaping: [String]) {
        var targets: [String: String] = [:]
        var escaping: [String] = []
        for position in links where index.isLive(position) {
            let entry = archive.entry(at: position)
            let name = entry.name
            let target = (try? archive.read(entry, limit: 4096)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            if staysInItsApp(link: name, target: target) {
                targets[name] = target
            } else {
                index.remove(name, in: archive)
                escaping.append(name)
                findings.append(
                    ArchiveProblem(
                        .linkLeavesBundle,
                        "\(name) links to \(target), outside the bundle; it was not followed",
                        location: name
                    )
                )
            }
        }
        return (targets, escaping.sorted())
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
        if isPlainRelativeName(name) { return nil }
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

    /// Whether a name is plainly safe, decided in one pass over its bytes.
    ///
    /// Plainly safe: no leading slash, NUL, backslash or colon, and no segment starting with a dot. Nearly every
    /// member is, and the thorough judgement above (which splits the name) is then not needed; a name this test
    /// does not clear is judged by it.
    private static func isPlainRelativeName(_ name: String) -> Bool {
        let slash = UInt8(ascii: "/")
        guard name.utf8.first != slash else { return false }
        var previous = slash
        for byte in name.utf8 {
            switch byte {
            case 0, UInt8(ascii: "\\"), UInt8(ascii: ":"): return false
            case UInt8(ascii: ".") where previous == slash: return false
            default: break
            }
            previous = byte
        }
        return true
    }
}
