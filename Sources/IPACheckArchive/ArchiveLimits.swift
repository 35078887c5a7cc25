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

    /// Sized so that every command stays within 64 MiB of memory.
    ///
    /// A 20,000-member ipa peaks at about 60 MiB through the resource-seal check (scripts/bench-memory). Most apps have a few thousand files; a larger one is refused
    /// with ``ArchiveError/Code/tooManyEntries`` rather than read past the budget (see ``allowing(entries:)``).
    /// Files read whole are small next to that: a seal of 20,000 files is about 6 MiB.
    package static let standard = ArchiveLimits(
        maximumEntries: 20_000,
        maximumMemberBytes: 8 * 1024 * 1024,
        maximumStreamedBytes: 4 * 1024 * 1024 * 1024
    )

    /// The most members anyone may ask for: the member table and its index then take about 300 MB, the seal
    /// check about 1.5 GB more (docs/performance.md, Memory).
    package static let largestEntryLimit = 2_000_000

    /// The standard limits with room for `entries` members (at most ``largestEntryLimit``), trading the memory
    /// budget for a larger app: files read whole (the seal lists every file, about 310 bytes each) get 400 bytes a
    /// member, and never less than the standard allows.
    package static func allowing(entries: Int) -> ArchiveLimits {
        let entries = min(max(entries, 1), largestEntryLimit)
        var limits = standard
        limits.maximumEntries = entries
        limits.maximumMemberBytes = max(standard.maximumMemberBytes, entries * 400)
        return limits
    }
}
