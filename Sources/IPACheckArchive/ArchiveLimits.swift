/// Caps that keep a hostile archive from costing unbounded time or memory.
///
/// Declared sizes in a zip are never trusted for allocation: buffers grow with the bytes actually decompressed,
/// and reading stops with ``ArchiveError/Code/tooLarge`` at these limits.
public struct ArchiveLimits: Sendable, Hashable {
    /// The most members an archive may list.
    public var maximumEntries: Int
    /// The most bytes one member may decompress to when held in memory (plists, profiles, CodeResources).
    public var maximumMemberBytes: Int
    /// The most bytes streamed through one member without being kept (skipping to a code signature).
    public var maximumStreamedBytes: Int

    /// Creates limits.
    public init(maximumEntries: Int, maximumMemberBytes: Int, maximumStreamedBytes: Int) {
        self.maximumEntries = maximumEntries
        self.maximumMemberBytes = maximumMemberBytes
        self.maximumStreamedBytes = maximumStreamedBytes
    }

    /// Generous for real apps (a 4 GB ipa holds far fewer than 500,000 files), tight enough for bombs.
    public static let standard = ArchiveLimits(
        maximumEntries: 500_000,
        maximumMemberBytes: 64 * 1024 * 1024,
        maximumStreamedBytes: 4 * 1024 * 1024 * 1024
    )
}
