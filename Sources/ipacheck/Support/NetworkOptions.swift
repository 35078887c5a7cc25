import ArgumentParser
import IPACheckCommands
import IPACheckFetching

/// The network options every fetching subcommand shares (docs/configuration.md): their help is here, their
/// defaults are ``FetchOptions``' and their checks its command-line initializer's.
struct NetworkOptions: ParsableArguments {
    // Unconditional: `--timeout -5` is a value to refuse with its reason, not a missing one.
    @Option(parsing: .unconditional, help: "Seconds per request (default \(FetchOptions.defaultTimeoutSeconds)).")
    var timeout = Double(FetchOptions.defaultTimeoutSeconds)

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
    var cdnURL = FetchOptions.appleCDN

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
        do { _ = try settings } catch { throw ValidationError(error) }
    }

    /// The fetch options asked for.
    var settings: FetchOptions {
        get throws(UsageError) {
            try FetchOptions(
                timeoutSeconds: timeout,
                caFile: caFile,
                resolve: resolve,
                cdnURL: cdnURL,
                noCDN: noCDN,
                offline: offline,
                aasaDir: aasaDir,
                now: time.date
            )
        }
    }
}
