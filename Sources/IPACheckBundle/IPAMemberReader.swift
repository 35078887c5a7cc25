package import IPACheckArchive
package import IPACheckReport

/// Reads an ipa's screened members by name.
///
/// Not `Sendable` (the archive it reads may hold a libzip handle); a pass that reads on several threads gives each a
/// ``Reopening`` and opens one reader per thread from it.
package final class IPAMemberReader {
    /// What another thread needs to open its own reader on the same file: the path, the archive's member table and
    /// the index over it, shared rather than read again.
    package struct Reopening: Sendable {
        let path: String
        let archive: ZipArchive.Reopening
        let index: MemberIndex

        /// Opens a second reader on the file.
        ///
        /// - Throws: ``InputError`` when the file cannot be opened again or changed in between.
        package func open() throws(InputError) -> IPAMemberReader {
            do {
                let archive = try ZipArchive(reopening: archive)
                return IPAMemberReader(path: path, archive: archive, index: index)
            } catch {
                throw InputError("unreadable", file: path, error.reason)
            }
        }
    }

    /// The path the user gave.
    package let path: String
    let archive: ZipArchive
    /// The readable members by name (the last copy, for duplicates).
    let index: MemberIndex

    init(path: String, archive: ZipArchive, index: MemberIndex) {
        self.path = path
        self.archive = archive
        self.index = index
    }

    /// How to open another reader on the same file, for another thread.
    package var reopening: Reopening {
        Reopening(path: path, archive: archive.reopening, index: index)
    }

    /// The number of entries the archive lists.
    package var memberCount: Int { archive.memberCount }

    /// The most members the archive may list, which also caps what its seals may list together.
    package var maximumEntries: Int { archive.limits.maximumEntries }

    /// The most bytes of one member read whole (profiles, plists, CodeResources).
    package var maximumKeptBytes: Int { archive.limits.maximumMemberBytes }

    /// The readable member named `member`, if there is one.
    func entry(named member: String) -> ZipEntry? {
        index.index(of: member, in: archive).map(archive.entry(at:))
    }

    /// Every readable member's name, in archive order.
    var memberNames: MemberNames { MemberNames(archive: archive, index: index) }

    /// Reads a member whole (bounded by `limit`, default the archive's per-member limit).
    package func read(_ member: String, limit: Int? = nil) throws(InputError) -> [UInt8] {
        guard let entry = entry(named: member) else {
            throw InputError("missing-member", file: path, "\(member) is not in the archive")
        }
        do {
            return try archive.read(entry, limit: limit)
        } catch {
            throw InputError("unreadable-member", file: path, "\(member): \(error.reason)")
        }
    }

    /// Opens a forward-only stream over a member, to take only the parts of a large file that matter.
    package func stream(_ member: String) throws(InputError) -> ZipMemberStream {
        guard let entry = entry(named: member) else {
            throw InputError("missing-member", file: path, "\(member) is not in the archive")
        }
        do {
            return try archive.stream(entry)
        } catch {
            throw InputError("unreadable-member", file: path, "\(member): \(error.reason)")
        }
    }

    /// The declared size as an `Int` (0 when absent or out of range): what a stream scanner sizes its view by,
    /// never what anything is allocated by.
    package func declaredMemberSize(_ member: String) -> Int {
        entry(named: member).flatMap { Int(exactly: $0.declaredSize) } ?? 0
    }
}
