import ArgumentParser
import IPACheckArchive

/// How much of an ipa the commands that read one are willing to read.
struct ArchiveOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read ipas of up to N members (default 20000, at most 500000). The default keeps a run within 64 MiB of "
                + "memory; a larger app needs about 2 KB more a member.",
            valueName: "n"
        )
    )
    var maxMembers: Int?

    func validate() throws {
        if let maxMembers, !(1...ArchiveLimits.largestEntryLimit).contains(maxMembers) {
            throw ValidationError("--max-members must be between 1 and \(ArchiveLimits.largestEntryLimit)")
        }
    }

    /// The limits asked for.
    var limits: ArchiveLimits {
        maxMembers.map(ArchiveLimits.allowing(entries:)) ?? .standard
    }
}
