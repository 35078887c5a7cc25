import ArgumentParser
import IPACheckCommands

/// How much of an ipa the commands that read one are willing to read.
struct ArchiveOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read ipas of up to N members (default \(ArchiveSettings.standardMemberCount), at most "
                + "\(ArchiveSettings.largestMemberCount)). Memory grows with the members an ipa has, about "
                + "\(ArchiveSettings.bytesPerMember) bytes each when its seal is checked; a lower N refuses larger ipas "
                + "before reading them.",
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
