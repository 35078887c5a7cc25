import ArgumentParser
import IPACheckCommands

/// `ipacheck appflip`: helpers for testing Google App Flip by hand.
struct AppFlipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appflip",
        abstract: "Google App Flip helpers: build the link Google opens, judge what your app sends back.",
        discussion: """
            App Flip checks against a build run with `ipacheck check App.ipa --appflip appflip.json`.

            Examples:
              ipacheck appflip url --link https://example.com/appflip --client-id my-client --scope profile
              xcrun simctl openurl booted "$(ipacheck appflip url --link https://example.com/appflip --client-id c)"
              ipacheck appflip response "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast?code=x&state=s" --expect-state s
            """,
        subcommands: [URLCommand.self, ResponseCommand.self]
    )

    /// Without `url` or `response` there is nothing to do: show the help on stderr and exit 64.
    func run() async throws {
        Console.diagnose(Self.helpMessage())
        throw ExitCode(64)
    }

    /// `ipacheck appflip url`: the incoming universal link Google would open.
    struct URLCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "url",
            abstract: "Print the universal link a Google app opens to start App Flip (with a fresh state)."
        )

        @Option(help: "Your App Flip universal link (https, no query or fragment).")
        var link: String

        @Option(help: "The OAuth client ID you registered with Google.")
        var clientID: String

        @Option(help: "A scope to request (repeatable).")
        var scope: [String] = []

        @Option(help: "The Google app that opens the link (bundle ID). Default: com.google.Chromecast (Google Home).")
        var googleApp: String = AppFlipRun.defaultGoogleApp

        @Flag(help: "Use Google's sandbox redirect host.")
        var sandbox = false

        @Option(help: "Use this state instead of a random one (for repeatable tests).")
        var state: String?

        @OptionGroup var output: FormatOption

        func run() async throws {
            try AppFlipRun.url(
                link: link,
                clientID: clientID,
                scopes: scope,
                googleApp: googleApp,
                sandbox: sandbox,
                state: state,
                format: output.format
            )
        }
    }

    /// `ipacheck appflip response URL`, which judges whether what the app sent back is acceptable to Google.
    struct ResponseCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "response",
            abstract: "Judge the redirect your app opened at the end of App Flip (exit 0 valid, 1 not).",
            discussion: """
                The app must open an accepted redirect_uri (https://oauth-redirect.googleusercontent.com/a/BUNDLE_ID or the sandbox host, for a known Google app) carrying either code plus the exact state, or an error from the App Flip vocabulary (cancelled, unrecoverable, invalid_request, access_denied).
                """
        )

        @Argument(help: "The URL the app opened.")
        var url: String

        @Option(help: "The state Google sent (from `ipacheck appflip url`).")
        var expectState: String?

        @OptionGroup var output: FormatOption

        func run() async throws {
            try AppFlipRun.response(url: url, expectState: expectState, format: output.format)
        }
    }
}
