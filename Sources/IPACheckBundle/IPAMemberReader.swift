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

    /// The most bytes of one member read whole (profiles, plists).
    package var maximumKeptBytes: Int { archive.limits.maximumMemberBytes }

    /// The most bytes of a CodeResources, which grows with the files it seals: 400 bytes a member of this archive.
    package var maximumSealBytes: Int { archive.limits.maximumSealBytes(memberCount: archive.memberCount) }

    /// The readable member named `member`, if there is one.
    func entry(named member: String) -> ZipEntry? {
        index.index(of: member, in: archive).map(archive.entry(at:))
    }

    /// Every readable member's name, in archive order.
    var memberNames: MemberNames { MemberNames(archive: archive, index: index) }

    /// The index of the readable member named `member` (its place in the archive), if there is one.
    func memberIndex(of member: String) -> Int? {
        index.index(of: member, in: archive)
    }

    /// Member `index`'s name.
    func name(at index: Int) -> String {
        archive.name(at: index)
    }

    /// Whether member `index` cannot be decompressed at all (encrypted, or compressed with a method that cannot be
    /// read): opening the archive reports it already, so a pass that fails to read it has nothing to add.
    func isUndecompressable(at index: Int) -> Bool {
        let entry = archive.entry(at: index)
        return entry.isEncrypted || !entry.isCompressionSupported
    }

    /// Every readable member's index, in archive order.
    var memberIndices: some Sequence<Int> {
        (0..<archive.memberCount).lazy.filter(index.isLive)
    }

    /// Opens a forward-only stream over member `index` (a readable member's, from ``memberIndex(of:)``).
    func stream(at index: Int) throws(InputError) -> ZipMemberStream {
        let entry = archive.entry(at: index)
        do {
            return try archive.stream(entry)
        } catch {
            throw InputError("unreadable-member", file: path, "\(entry.name): \(error.reason)")
        }
    }

    /// Member `index`'s declared size as an `Int` (0 when out of range): what balances work, never what is
    /// allocated.
    func declaredMemberSize(at index: Int) -> Int {
        Int(exactly: archive.declaredSize(at: index)) ?? 0
    }

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

}
