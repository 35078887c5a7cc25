import ArgumentParser
import IPACheckCommands

/// What the project says about its build, shared by `check`, `explain` and `links` so that all judge the same
/// build the same way: the config file, what the build is for, and the App Flip config.
struct ProjectOptions: ParsableArguments {
    @Option(help: "App Flip config (JSON) to check the main app against.")
    var appflip: String?

    @Option(help: "Config file, JSON or YAML (default: .ipacheck.json or .ipacheck.yml in the current folder).")
    var config: String?

    @Option(help: "What the build is for: app-store, ad-hoc, enterprise or development (default: its profile's kind).")
    var distribution: CommandLineChoices.Distribution?

    /// The settings asked for.
    var settings: ProjectSettings {
        var settings = ProjectSettings()
        settings.appflip = appflip
        settings.config = config
        settings.distribution = distribution
        return settings
    }
}
