import ArgumentParser
import IPACheckCommands

/// What the project says about its build, shared by `check`, `explain` and `links` so that all judge the same
/// build the same way: the config file, what the build is for, and the App Flip config.
struct ProjectOptions: ParsableArguments {
    @Option(help: "App Flip config (JSON) to check the main app against.")
    var appflip: String?

    @Option(help: "Config file, JSON or YAML (default: .ipacheck.json or .ipacheck.yml in the current folder).")
    var config: String?

    @Option(
        help: """
            What the build is for, a release policy check judges: app-store, ad-hoc, enterprise or development \
            (default: the kind of its profile, App Store, ad hoc or enterprise; a development profile is never \
            assumed, so check fails a development build unless --distribution development). explain, links and \
            match --build say what a device does, which this does not change.
            """
    )
    var distribution: CommandLineChoices.Distribution?

    @Flag(
        help: """
            Judge ?mode=managed entries as on a device whose MDM enables direct downloads \
            (AssociatedDomainsEnableDirectDownloads): the origin's file instead of Apple's CDN copy.
            """
    )
    var mdmDirectDownloads = false

    /// The settings asked for.
    var settings: ProjectSettings {
        var settings = ProjectSettings()
        settings.appflip = appflip
        settings.config = config
        settings.distribution = distribution
        settings.mdmDirectDownloads = mdmDirectDownloads
        return settings
    }
}
