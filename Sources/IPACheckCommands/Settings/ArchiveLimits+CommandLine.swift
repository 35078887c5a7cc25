package import IPACheckArchive

extension ArchiveLimits {
    /// The limits `--max-members` asks for (nil: the standard ones), refusing a member count outside the range the
    /// reader supports.
    package init(maxMembers: Int?) throws(UsageError) {
        guard let maxMembers else {
            self = .standard
            return
        }
        guard (1...Self.largestEntryLimit).contains(maxMembers) else {
            throw UsageError("--max-members must be between 1 and \(Self.largestEntryLimit)")
        }
        self = .allowing(entries: maxMembers)
    }
}
