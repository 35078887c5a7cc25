import ArgumentParser
import IPACheckCommands

/// The network options every fetching subcommand shares (docs/configuration.md); their defaults are
/// ``NetworkSettings``'.
struct NetworkOptions: ParsableArguments {
    // Unconditional: `--timeout -5` is a value to refuse with its reason, not a missing one.
    @Option(parsing: .unconditional, help: "Seconds per request (default \(Int(NetworkSettings().timeout))).")
    var timeout: Double = NetworkSettings().timeout

    @Option(help: ArgumentHelp("Extra trust anchors (PEM), on top of the system's.", valueName: "pem"))
    var caFile: String?

    @Option(
        help: ArgumentHelp(
            "Connect to ADDRESS for HOST:PORT, keeping TLS name and Host header (repeatable, as curl).",
            valueName: "host:port:address"
        )
    )
    var resolve: [String] = []

    @Option(help: ArgumentHelp("Base URL of Apple's AASA CDN.", valueName: "url"))
    var cdnURL: String = NetworkSettings().cdnURL

    @Flag(help: "Do not ask Apple's CDN.")
    var noCDN = false

    @Flag(help: "Touch no network: read DIR/HOST/apple-app-site-association (needs --aasa-dir).")
    var offline = false

    @Option(
        help: ArgumentHelp(
            "With --offline: the folder holding HOST/apple-app-site-association files.",
            valueName: "dir"
        )
    )
    var aasaDir: String?

    @OptionGroup var time: TimeOptions

    func validate() throws {
        do { try settings.validate() } catch { throw ValidationError(error) }
    }

    /// The settings asked for.
    var settings: NetworkSettings {
        var settings = NetworkSettings()
        settings.timeout = timeout
        settings.caFile = caFile
        settings.resolve = resolve
        settings.cdnURL = cdnURL
        settings.noCDN = noCDN
        settings.offline = offline
        settings.aasaDir = aasaDir
        settings.now = time.date
        return settings
    }
}
