/// A Google iOS app that can start App Flip, and the redirect URIs (its universal links) it listens on.
///
/// Source: Google's "App Flip for iOS" page, section "Modify your authorization endpoint to support App Flip",
/// which lists exactly these six bundle IDs, each under `oauth-redirect` and `oauth-redirect-sandbox`.
package struct GoogleApp: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The Google app's bundle ID, the last path component of its redirect URI (`com.google.Chromecast`).
    package let bundleID: String
    /// A name for people (`Google Home`, `Google Assistant (dev)`).
    package let name: String

    private init(_ bundleID: String, _ name: String) {
        self.bundleID = bundleID
        self.name = name
    }

    /// Google Home, the app every App Flip starts from after Google's account-linking migration (Oct 30, 2026).
    package static let googleHome = GoogleApp("com.google.Chromecast", "Google Home")
    /// Google Assistant, the app App Flip used to start from before the Google Home migration.
    package static let googleAssistant = GoogleApp("com.google.OPA", "Google Assistant")

    /// Every Google app the App Flip documentation lists, production builds first.
    package static let all: [GoogleApp] = [
        googleHome,
        GoogleApp("com.google.Chromecast.dev", "Google Home (dev)"),
        GoogleApp("com.google.Chromecast.enterprise", "Google Home (enterprise)"),
        googleAssistant,
        GoogleApp("com.google.OPA.dev", "Google Assistant (dev)"),
        GoogleApp("com.google.OPA.enterprise", "Google Assistant (enterprise)"),
    ]

    /// The known app with this exact (case-sensitive) bundle ID.
    package static func named(_ bundleID: String) -> GoogleApp? {
        all.first { $0.bundleID == bundleID }
    }

    /// The host Google's production App Flip redirect URIs live on.
    package static let redirectHost = "oauth-redirect.googleusercontent.com"
    /// The host of the sandbox (testing) App Flip redirect URIs.
    package static let sandboxRedirectHost = "oauth-redirect-sandbox.googleusercontent.com"

    /// The universal link your app opens to hand the result back: `https://HOST/a/BUNDLE_ID`.
    package func redirectURI(sandbox: Bool = false) -> String {
        "https://\(sandbox ? Self.sandboxRedirectHost : Self.redirectHost)/a/\(bundleID)"
    }

    /// Every accepted App Flip redirect URI (both hosts, every known app).
    package static var allRedirectURIs: [String] {
        all.flatMap { [$0.redirectURI(sandbox: false), $0.redirectURI(sandbox: true)] }
    }

    /// `Google Home (com.google.Chromecast)`.
    package var description: String { "\(name) (\(bundleID))" }
}
