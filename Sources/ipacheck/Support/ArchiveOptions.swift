import ArgumentParser
import IPACheckCommands

/// How much of an ipa the commands that read one are willing to read.
struct ArchiveOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read ipas of up to N members (default \(ArchiveSettings.standardMemberCount), at most "
                + "\(ArchiveSettings.largestMemberCount)). The default keeps a run within 64 MiB of memory; a larger "
                + "app needs about 1 KB more a member.",
            valueName: "n"
        )
    )
    var maxMembers: Int?

    func validate() throws {
        do { try settings.validate() } catch { throw ValidationError(error) }
    }

    /// The settings asked for.
    var settings: ArchiveSettings {
        var settings = ArchiveSettings()
        settings.maxMembers = maxMembers
        return settings
    }
}
