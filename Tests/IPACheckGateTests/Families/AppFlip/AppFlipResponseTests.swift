import Foundation
import IPACheckGate
import Testing

/// The answer an app opens at the end of App Flip.
///
/// Expected values come from Google's App Flip for iOS page (seed
/// copies): redirect URIs `https://oauth-redirect[-sandbox].googleusercontent.com/a/GOOGLE_APP_BUNDLE_ID`, success =
/// `code` + the exact `state`, failure = `error` ∈ {cancelled, unrecoverable, invalid_request, access_denied} with
/// optional `error_description`; cancelled and invalid_request are recoverable (Google continues with the
/// authorization URL), unrecoverable and access_denied abort linking.
struct AppFlipResponseTests {
    static let home = "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"
    static let state = "thisisastate"

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let url: String
        var expectState: String? = AppFlipResponseTests.state
        let valid: Bool
        var problems: [String] = []
        var warnings: [String] = []
        var outcome: AppFlipVerdict.Outcome? = nil
        var fallback: AppFlipVerdict.Fallback? = nil
        var sandbox: Bool? = nil
        var googleApp: String? = nil
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "code with the exact state",
            url: "\(home)?code=AUTH_CODE&state=\(state)",
            valid: true,
            outcome: .code,
            sandbox: false,
            googleApp: "com.google.Chromecast"
        ),
        Case(
            name: "cancelled is recoverable",
            url: "\(home)?error=cancelled&state=\(state)",
            valid: true,
            outcome: .error,
            fallback: .browserOAuth
        ),
        Case(
            name: "unrecoverable aborts",
            url: "\(home)?error=unrecoverable&state=\(state)",
            valid: true,
            outcome: .error,
            fallback: .abort
        ),
        Case(
            name: "invalid_request as in Google's sample (no state)",
            url: "\(home)?error=invalid_request&error_description=Invalid%20Request",
            valid: true,
            warnings: ["missingState"],
            outcome: .error,
            fallback: .browserOAuth
        ),
        Case(
            name: "access_denied aborts",
            url: "\(home)?error=access_denied&state=\(state)",
            valid: true,
            outcome: .error,
            fallback: .abort
        ),
        Case(
            name: "wrong state",
            url: "\(home)?code=AUTH_CODE&state=otherstate",
            valid: false,
            problems: ["wrongState"],
            outcome: .code
        ),
        Case(
            name: "error with a wrong state",
            url: "\(home)?error=cancelled&state=otherstate",
            valid: false,
            problems: ["wrongState"],
            outcome: .error,
            fallback: .browserOAuth
        ),
        Case(
            name: "code without state",
            url: "\(home)?code=AUTH_CODE",
            valid: false,
            problems: ["missingState"],
            outcome: .code
        ),
        Case(
            name: "missing code",
            url: "\(home)?state=\(state)",
            valid: false,
            problems: ["noResult"],
            outcome: AppFlipVerdict.Outcome.none
        ),
        Case(
            name: "empty code",
            url: "\(home)?code=&state=\(state)",
            valid: false,
            problems: ["emptyCode"],
            outcome: .code
        ),
        Case(
            name: "both code and error",
            url: "\(home)?code=AUTH_CODE&error=cancelled&state=\(state)",
            valid: false,
            problems: ["codeAndError"],
            outcome: .both
        ),
        Case(
            name: "foreign host",
            url: "https://oauth.lightbulb-co.net/a/com.google.Chromecast?code=AUTH_CODE&state=\(state)",
            valid: false,
            problems: ["foreignHost"]
        ),
        Case(
            name: "http scheme",
            url: "http://oauth-redirect.googleusercontent.com/a/com.google.Chromecast?code=AUTH_CODE&state=\(state)",
            valid: false,
            problems: ["notHTTPS"]
        ),
        Case(
            name: "sandbox host",
            url: "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast?code=C&state=\(state)",
            valid: true,
            outcome: .code,
            sandbox: true,
            googleApp: "com.google.Chromecast"
        ),
        Case(
            name: "enterprise Assistant build",
            url: "https://oauth-redirect.googleusercontent.com/a/com.google.OPA.enterprise?code=C&state=\(state)",
            valid: true,
            outcome: .code,
            googleApp: "com.google.OPA.enterprise"
        ),
        Case(
            name: "unknown Google app",
            url: "https://oauth-redirect.googleusercontent.com/a/com.google.Maps?code=AUTH_CODE&state=\(state)",
            valid: false,
            problems: ["unknownGoogleApp"]
        ),
        Case(
            name: "browser OAuth redirect path",
            url: "https://oauth-redirect.googleusercontent.com/r/my-project?code=AUTH_CODE&state=\(state)",
            valid: false,
            problems: ["notAppFlipPath"]
        ),
        Case(
            name: "extra parameters",
            url: "\(home)?code=AUTH_CODE&state=\(state)&scope=devices",
            valid: true,
            warnings: ["extraParameters"],
            outcome: .code
        ),
        Case(
            name: "Google sample's user_not_authorized",
            url: "\(home)?error=user_not_authorized&state=\(state)",
            valid: false,
            problems: ["unknownError"],
            outcome: .error
        ),
        Case(
            name: "duplicate state",
            url: "\(home)?code=AUTH_CODE&state=\(state)&state=\(state)",
            valid: false,
            problems: ["duplicateParameter"]
        ),
        Case(name: "no query", url: home, valid: false, problems: ["noQuery"]),
        Case(
            name: "state not known to the caller",
            url: "\(home)?code=AUTH_CODE&state=\(state)",
            expectState: nil,
            valid: true,
            warnings: ["stateUnchecked"],
            outcome: .code
        ),
    ]

    @Test(arguments: cases)
    func judge(_ testCase: Case) {
        let verdict = AppFlipResponse.judge(url: testCase.url, expectState: testCase.expectState)
        #expect(verdict.valid == testCase.valid)
        #expect(verdict.problems.map(\.code) == testCase.problems)
        #expect(verdict.warnings.map(\.code) == testCase.warnings)
        if let outcome = testCase.outcome { #expect(verdict.outcome == outcome) }
        #expect(verdict.fallback == testCase.fallback)
        if let sandbox = testCase.sandbox { #expect(verdict.sandbox == sandbox) }
        if let googleApp = testCase.googleApp { #expect(verdict.googleApp == googleApp) }
    }

    @Test func errorDescriptionIsDecoded() {
        let verdict = AppFlipResponse.judge(
            url: "\(Self.home)?error=invalid_request&error_description=Invalid%20Request&state=\(Self.state)",
            expectState: Self.state
        )
        #expect(verdict.error == "invalid_request")
        #expect(verdict.errorDescription == "Invalid Request")
    }

    @Test func jsonIsCamelCase() throws {
        let verdict = AppFlipResponse.judge(url: "\(Self.home)?error=cancelled&state=x", expectState: "x")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(String(data: try encoder.encode(verdict), encoding: .utf8))
        #expect(json.contains("\"fallback\":\"browserOAuth\""))
        #expect(json.contains("\"valid\":true"))
        #expect(json.contains("\"googleApp\":\"com.google.Chromecast\""))
        #expect(json.contains("\"fallbackSource\":"))
    }

    @Test func textNamesTheFallbackAndItsSource() {
        let text = AppFlipResponse.judge(url: "\(Self.home)?error=access_denied&state=x", expectState: "x").text
        #expect(text.hasPrefix("valid App Flip response"))
        #expect(text.contains("aborts account linking"))
        // The source is Google's page, named by its address, not how this repository read it.
        #expect(text.contains("source: Google's App Flip for iOS page"))
        #expect(text.contains("https://developers.google.com/identity/account-linking/app-flip-ios"))
        #expect(!text.contains("stored") && !text.contains("re-checked"))
        let invalid = AppFlipResponse.judge(url: "\(Self.home)?code=c&state=y", expectState: "x").text
        #expect(invalid.hasPrefix("INVALID"))
        #expect(invalid.contains("error: state \"y\""))
    }

    /// An answer Google refuses never says linking completes or what Google does next (an example: a
    /// redirect to another host was INVALID and "linking completes" at once).
    @Test func anInvalidAnswerNeverSaysLinkingCompletes() {
        let foreign = AppFlipResponse.judge(url: "https://evil.example/a?code=x", expectState: nil).text
        #expect(foreign.hasPrefix("INVALID"))
        #expect(!foreign.contains("linking completes"))
        #expect(foreign.contains("Google does not accept this answer"))
        let wrongState = AppFlipResponse.judge(url: "\(Self.home)?error=cancelled&state=y", expectState: "x").text
        #expect(wrongState.hasPrefix("INVALID"))
        #expect(!wrongState.contains("recoverable"))
        #expect(wrongState.contains("then: Google does not accept this answer"))
    }
}
