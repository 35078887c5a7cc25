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
    /// docs/performance.md): `info` takes about 42 MiB at 200,000 members, the seal check of `verify` and `check`
    /// about 84 MiB there and 245 MiB at 1,000,000. Files read whole (plists, profiles) are capped at 8 MiB
    /// whatever the member count; a CodeResources, which lists every file, at ``maximumSealBytes(memberCount:)``.
    package static let standard = ArchiveLimits(
        maximumEntries: 1_000_000,
        maximumMemberBytes: 8 * 1024 * 1024,
        maximumStreamedBytes: 4 * 1024 * 1024 * 1024
    )

    /// The most members anyone may ask for (about 500 MB through the seal check).
    package static let largestEntryLimit = 2_000_000

    /// About how many bytes of memory each member of an ipa costs through the seal check, at scale: the seal's
    /// entry, the digests taken, the member table and its index (245 MiB at 1,001,009 members, less the 25 MiB any
    /// run takes; scripts/bench-memory).
    package static let approximateBytesPerMember = 230

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
