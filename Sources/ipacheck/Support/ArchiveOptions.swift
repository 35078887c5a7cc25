import ArgumentParser
import IPACheckArchive
import IPACheckCommands

/// How much of an ipa the commands that read one are willing to read.
struct ArchiveOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read ipas of up to N members (default \(ArchiveLimits.standard.maximumEntries), at most "
                + "\(ArchiveLimits.largestEntryLimit)). Memory grows with the members an ipa has, about "
                + "\(ArchiveLimits.approximateBytesPerMember) bytes each when its seal is checked; a lower N refuses larger ipas "
                + "before reading them.",
            valueName: "n"
        )
    )
    var maxMembers: Int?

    func validate() throws {
        do { _ = try settings } catch { throw ValidationError(error) }
    }

    /// The limits asked for.
    var settings: ArchiveLimits {
        get throws(UsageError) { try ArchiveLimits(maxMembers: maxMembers) }
    }
}
