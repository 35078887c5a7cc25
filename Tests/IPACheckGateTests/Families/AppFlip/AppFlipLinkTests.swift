import Foundation
import IPACheckGate
import Testing

/// The incoming App Flip link: query items and order from Google's App Flip Test Tool (`client_id`, `scope`,
/// `state`, `redirect_uri`; github.com/googlesamples/identity-appflip-tester-ios), redirect URIs from Google's list
/// (developers.google.com/identity/account-linking/app-flip-ios), percent-encoding expected values computed
/// independently with Python's `urllib.parse.quote(value, safe="-._~")`.
struct AppFlipLinkTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let clientID: String
        let scopes: [String]
        let googleApp: String
        let sandbox: Bool
        let state: String
        let expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "tester defaults, Google Home production",
            clientID: "1234",
            scopes: ["devices"],
            googleApp: "com.google.Chromecast",
            sandbox: false,
            state: "thisisastate",
            expected: "https://flip.lightbulb-co.net/appflip?client_id=1234&scope=devices&state=thisisastate"
                + "&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.Chromecast"
        ),
        Case(
            name: "two scopes are space-separated, encoded %20",
            clientID: "lightbulb-client",
            scopes: ["devices", "profile"],
            googleApp: "com.google.Chromecast",
            sandbox: false,
            state: "thisisastate",
            expected: "https://flip.lightbulb-co.net/appflip?client_id=lightbulb-client&scope=devices%20profile"
                + "&state=thisisastate"
                + "&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.Chromecast"
        ),
        Case(
            name: "reserved characters in state, sandbox Assistant dev build",
            clientID: "1234",
            scopes: ["devices"],
            googleApp: "com.google.OPA.dev",
            sandbox: true,
            state: "s p+a/c=e&",
            expected: "https://flip.lightbulb-co.net/appflip?client_id=1234&scope=devices&state=s%20p%2Ba%2Fc%3De%26"
                + "&redirect_uri=https%3A%2F%2Foauth-redirect-sandbox.googleusercontent.com%2Fa%2Fcom.google.OPA.dev"
        ),
    ]

    @Test(arguments: cases)
    func exactLink(_ testCase: Case) throws {
        let link = try AppFlipLink.make(
            link: "https://flip.lightbulb-co.net/appflip",
            clientID: testCase.clientID,
            scopes: testCase.scopes,
            googleApp: try #require(GoogleApp.named(testCase.googleApp)),
            sandbox: testCase.sandbox,
            state: testCase.state
        )
        #expect(link.url == testCase.expected)
        #expect(link.state == testCase.state)
    }

    /// What the doc's own receiving code (`URLComponents(...).queryItems`) reads back out of the link.
    @Test func appSideDecodingRoundTrips() throws {
        let link = try AppFlipLink.make(
            link: "https://flip.lightbulb-co.net/appflip",
            clientID: "1234",
            scopes: ["devices", "profile"],
            state: "a+b c"
        )
        let items = try #require(URLComponents(string: link.url)?.queryItems)
        #expect(items.map(\.name) == ["client_id", "scope", "state", "redirect_uri"])
        #expect(items.first { $0.name == "scope" }?.value == "devices profile")
        #expect(items.first { $0.name == "state" }?.value == "a+b c")
        #expect(
            items.first { $0.name == "redirect_uri" }?.value
                == "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"
        )
    }

    @Test func freshStateWhenNoneGiven() throws {
        let first = try AppFlipLink.make(link: "https://flip.lightbulb-co.net/f", clientID: "1234", scopes: [])
        let second = try AppFlipLink.make(link: "https://flip.lightbulb-co.net/f", clientID: "1234", scopes: [])
        #expect(first.state != second.state)
        #expect(first.state.count == 32)
        #expect(first.state.allSatisfy { $0.isHexDigit })
    }

    @Test(arguments: [
        "http://flip.lightbulb-co.net/appflip",
        "https://flip.lightbulb-co.net/appflip?x=1",
        "https://flip.lightbulb-co.net/appflip#top",
        "https://flip.lightbulb-co.net:8443/appflip",
        "flip.lightbulb-co.net/appflip",
    ])
    func refusesUnusableLinks(_ link: String) {
        #expect(throws: AppFlipError.self) {
            try AppFlipLink.make(link: link, clientID: "1234", scopes: ["devices"], state: "s")
        }
    }

    /// The six bundle IDs × two hosts the seed documents list under "Modify your authorization endpoint".
    @Test func redirectURIsAreGooglesList() {
        let expected: Set<String> = [
            "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast.dev",
            "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast.enterprise",
            "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast",
            "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast.dev",
            "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast.enterprise",
            "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast",
            "https://oauth-redirect.googleusercontent.com/a/com.google.OPA.dev",
            "https://oauth-redirect.googleusercontent.com/a/com.google.OPA.enterprise",
            "https://oauth-redirect.googleusercontent.com/a/com.google.OPA",
            "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.OPA.dev",
            "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.OPA.enterprise",
            "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.OPA",
        ]
        #expect(Set(GoogleApp.allRedirectURIs) == expected)
        #expect(GoogleApp.allRedirectURIs.count == 12)
    }
}
