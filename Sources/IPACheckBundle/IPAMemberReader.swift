package import IPACheckArchive
package import IPACheckReport

/// Reads an ipa's screened members by name, through one libzip handle.
///
/// A libzip handle must stay on one thread, so this is not `Sendable`; a pass that reads on several threads gives
/// each a ``Reopening`` and opens one reader per thread from it.
package final class IPAMemberReader {
    /// What another thread needs to open its own reader on the same file: the path, and what the first open
    /// listed, so that a file changed in between is noticed rather than read.
    package struct Reopening: Sendable {
        let path: String
        let archive: ZipArchive.Reopening
        let members: [String: ZipEntry]

        /// Opens a second handle on the file.
        ///
        /// - Throws: ``InputError`` when the file cannot be opened again or no longer lists the same members.
        package func open() throws(InputError) -> IPAMemberReader {
            do {
                let archive = try ZipArchive(reopening: archive)
                return IPAMemberReader(path: path, archive: archive, members: members)
            } catch {
                throw InputError("unreadable", file: path, error.reason)
            }
        }
    }

    /// The path the user gave.
    package let path: String
    private let archive: ZipArchive
    /// Readable member names, each mapped to its entry (the first one, for duplicates).
    let members: [String: ZipEntry]

    init(path: String, archive: ZipArchive, members: [String: ZipEntry]) {
        self.path = path
        self.archive = archive
        self.members = members
    }

    /// How to open another reader on the same file, for another thread.
    package var reopening: Reopening {
        Reopening(path: path, archive: archive.reopening, members: members)
    }

    /// The number of entries the archive lists.
    package var memberCount: Int { archive.entries.count }

    /// The most members the archive may list, which also caps what its seals may list together.
    package var maximumEntries: Int { archive.limits.maximumEntries }

    /// The most bytes of one member read whole (profiles, plists, CodeResources).
    package var maximumKeptBytes: Int { archive.limits.maximumMemberBytes }

    /// Reads a member whole (bounded by `limit`, default the archive's per-member limit).
    package func read(_ member: String, limit: Int? = nil) throws(InputError) -> [UInt8] {
        guard let entry = members[member] else {
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
        guard let entry = members[member] else {
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
        members[member].flatMap { Int(exactly: $0.declaredSize) } ?? 0
    }
}
