import IPACheckArchive

/// How much of an ipa the commands that read one are willing to read.
package struct ArchiveSettings: Sendable {
    /// The most members an ipa may have (nil: the default, ``standardMemberCount``).
    package var maxMembers: Int?

    /// Settings with every default.
    package init() {}

    /// The member cap without `--max-members`.
    package static let standardMemberCount = ArchiveLimits.standard.maximumEntries

    /// About how many bytes of memory a member costs when an ipa's seal is checked.
    package static let bytesPerMember = ArchiveLimits.approximateBytesPerMember

    /// The largest `--max-members` allowed.
    package static let largestMemberCount = ArchiveLimits.largestEntryLimit

    /// Refuses a member count outside the range the reader supports.
    package func validate() throws(UsageError) {
        if let maxMembers, !(1...Self.largestMemberCount).contains(maxMembers) {
            throw UsageError("--max-members must be between 1 and \(Self.largestMemberCount)")
        }
    }

    /// The limits asked for.
    var limits: ArchiveLimits {
        maxMembers.map(ArchiveLimits.allowing(entries:)) ?? .standard
    }
}
