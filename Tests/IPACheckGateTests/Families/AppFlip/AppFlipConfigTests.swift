import Foundation
import IPACheckGate
import Testing

/// The App Flip config file: the schema documented on ``AppFlipConfig`` and docs/appflip-firebase.md, values as
/// Google's App Flip Test Tool names them (github.com/googlesamples/identity-appflip-tester-ios), Google app bundle
/// IDs as Google's "App Flip for iOS" guide lists them (developers.google.com/identity/account-linking/app-flip-ios).
struct AppFlipConfigTests {
    private func parse(_ json: String) throws(AppFlipError) -> AppFlipConfig {
        try AppFlipConfig.parse(Array(json.utf8), file: "appflip.json")
    }

    @Test func fullConfig() throws {
        let config = try parse(
            """
            {"appFlipURL": "https://flip.lightbulb-co.net/appflip", "clientID": "1234", "scopes": ["devices"],
             "googleApps": ["com.google.Chromecast", "com.google.Chromecast.dev"], "sandbox": true,
             "redirectURIs": ["https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"]}
            """
        )
        #expect(config.appFlipURL == "https://flip.lightbulb-co.net/appflip")
        #expect(config.clientID == "1234")
        #expect(config.scopes == ["devices"])
        #expect(config.googleApps.map(\.bundleID) == ["com.google.Chromecast", "com.google.Chromecast.dev"])
        #expect(config.sandbox)
        #expect(config.redirectURIs == ["https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"])
    }

    @Test func defaultsForOptionalKeys() throws {
        let config = try parse(#"{"appFlipURL": "https://flip.lightbulb-co.net/appflip", "clientID": "1234"}"#)
        #expect(config.scopes.isEmpty)
        #expect(config.googleApps.map(\.bundleID) == ["com.google.Chromecast", "com.google.OPA"])
        #expect(config.sandbox == false)
        #expect(config.redirectURIs == nil)
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        let json: String
        let code: AppFlipError.Code
        let context: String
        var testDescription: String { "\(code): \(json)" }
    }

    static let bad: [Bad] = [
        Bad(json: "", code: .unreadable, context: "appflip.json"),
        Bad(json: "{\"appFlipURL\": ", code: .malformedJSON, context: "appflip.json"),
        Bad(json: "[1, 2]", code: .notAnObject, context: "appflip.json"),
        Bad(json: #"{"clientID": "1234"}"#, code: .missingKey, context: "appflip.json: appFlipURL"),
        Bad(
            json: #"{"appFlipURL": "https://a.lightbulb-co.net/f"}"#,
            code: .missingKey,
            context: "appflip.json: clientID"
        ),
        Bad(
            json: #"{"appFlipURL": "https://a.lightbulb-co.net/f", "clientID": 1234}"#,
            code: .wrongType,
            context: "appflip.json: clientID"
        ),
        Bad(
            json: #"{"appFlipURL": "https://a.lightbulb-co.net/f", "clientID": "  "}"#,
            code: .invalidValue,
            context: "appflip.json: clientID"
        ),
        Bad(
            json: #"{"appFlipURL": "https://a.lightbulb-co.net/f", "clientID": "1", "scopes": "devices"}"#,
            code: .wrongType,
            context: "appflip.json: scopes"
        ),
        Bad(
            json: #"{"appFlipURL": "https://a.lightbulb-co.net/f", "clientID": "1", "scopes": ["devices profile"]}"#,
            code: .invalidValue,
            context: "appflip.json: scopes[0]"
        ),
        Bad(
            json:
                #"{"appFlipURL": "https://a.lightbulb-co.net/f", "clientID": "1", "googleApps": ["com.google.Maps"]}"#,
            code: .invalidValue,
            context: "appflip.json: googleApps[0]"
        ),
        Bad(
            json: #"{"appFlipURL": "https://a.lightbulb-co.net/f", "clientID": "1", "sandbox": 1}"#,
            code: .wrongType,
            context: "appflip.json: sandbox"
        ),
        Bad(
            json: #"{"appFlipUrl": "https://a.lightbulb-co.net/f", "clientID": "1"}"#,
            code: .unknownKey,
            context: "appflip.json: appFlipUrl"
        ),
    ]

    @Test(arguments: bad)
    func rejects(_ bad: Bad) {
        #expect {
            try parse(bad.json)
        } throws: { error in
            guard let error = error as? AppFlipError else { return false }
            return error.code == bad.code && error.context == bad.context && error.description.hasPrefix(bad.context)
        }
    }

    @Test func oversizedFileIsRefusedBeforeParsing() {
        let huge = [UInt8](repeating: UInt8(ascii: " "), count: AppFlipConfig.maximumSize + 1)
        #expect(throws: AppFlipError.self) { try AppFlipConfig.parse(huge, file: "big.json") }
    }

    @Test func deepNestingDoesNotCrash() {
        let deep = String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)
        #expect(throws: AppFlipError.self) { try parse(deep) }
    }

    @Test func encodesBackToTheSchema() throws {
        let config = AppFlipConfig(appFlipURL: "https://a.lightbulb-co.net/f", clientID: "1", scopes: ["devices"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(String(data: try encoder.encode(config), encoding: .utf8))
        let reparsed = try parse(json)
        #expect(reparsed == config)
        #expect(json.contains(#""googleApps":["com.google.Chromecast","com.google.OPA"]"#))
    }
}
