import ArgumentParser
import IPACheckReport

/// `--app-id`, for the commands that read a project's entitlements file as a build (`check`, `domains`, `explain`,
/// `links`).
struct AppIDOption: ParsableArguments {
    @Option(help: "The application identifier (TEAMID.BUNDLE) of an entitlements file that names none.")
    var appID: String?
}

/// `--fail-on`, for the commands whose threshold is theirs alone (`aasa`, `lint`, `profile`); `check` reads its
/// default from the config file, and `diff`'s help points at its own lists.
struct FailOnOption: ParsableArguments {
    @Option(help: "Exit 1 when a finding is at least this severe: error, warning or note.")
    var failOn: Severity = .error
}
