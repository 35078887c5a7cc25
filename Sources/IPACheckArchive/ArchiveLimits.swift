/// Caps that keep a hostile archive from costing unbounded time or memory.
///
/// Declared sizes in a zip are never trusted for allocation: buffers grow with the bytes actually decompressed,
/// and reading stops with ``ArchiveError/Code/tooLarge`` at these limits.
package struct ArchiveLimits: Sendable, Hashable {
    /// The most members an archive may list.
    package var maximumEntries: Int
    /// The most bytes one member may decompress to when held in memory (plists, profiles, CodeResources).
    package var maximumMemberBytes: Int
    /// The most bytes streamed through one member without being kept (skipping to a code signature).
    package var maximumStreamedBytes: Int

    /// Creates limits.
    package init(maximumEntries: Int, maximumMemberBytes: Int, maximumStreamedBytes: Int) {
        self.maximumEntries = maximumEntries
        self.maximumMemberBytes = maximumMemberBytes
        self.maximumStreamedBytes = maximumStreamedBytes
    }

    /// The limits without `--max-members`: apps of up to a million members are read without asking.
    ///
    /// Memory grows with the members an ipa has (``approximateBytesPerMember``; scripts/bench-memory,
    /// docs/performance.md): `info` takes about 34 MiB at 200,000 members and 50 MiB at 1,000,000, the seal check
    /// of `verify` and `check` about 44 MiB there and 61 MiB at 1,000,000. Files read whole (plists, profiles) are
    /// capped at 8 MiB whatever the member count; a CodeResources, which lists every file, at
    /// ``maximumSealBytes(memberCount:)`` (it streams past, never held).
    package static let standard = ArchiveLimits(
        maximumEntries: 1_000_000,
        maximumMemberBytes: 8 * 1024 * 1024,
        maximumStreamedBytes: 4 * 1024 * 1024 * 1024
    )

    /// The most members anyone may ask for (the member index keeps an index below it beside an 11-bit tag in 4
    /// bytes).
    package static let largestEntryLimit = 2_000_000

    /// About how many bytes of memory each member of an ipa costs through the seal check, at scale.
    ///
    /// The member table (its name front-coded, its size's magnitude, where its header is) and the index by name: 44
    /// MiB at 200,209 members, 61 MiB at 1,001,009 (scripts/bench-memory). The seal's entries stream past, never
    /// held.
    package static let approximateBytesPerMember = 22

    /// The standard limits with room for `entries` members (at least 1, at most ``largestEntryLimit``).
    package static func allowing(entries: Int) -> ArchiveLimits {
        var limits = standard
        limits.maximumEntries = min(max(entries, 1), largestEntryLimit)
        return limits
    }

    /// The most bytes a CodeResources may have in an archive of `memberCount` members: 400 bytes a member (codesign
    /// writes about 310 for each file it seals), never less than any file read whole may have.
    ///
    /// The limit follows the archive actually read, not the cap: a small hostile archive cannot claim a large seal.
    package func maximumSealBytes(memberCount: Int) -> Int {
        let (scaled, overflow) = max(memberCount, 0).multipliedReportingOverflow(by: 400)
        return max(maximumMemberBytes, overflow ? Int.max : scaled)
    }
}
