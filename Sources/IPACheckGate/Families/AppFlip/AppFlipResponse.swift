import Foundation
import IPACheckAASA

/// Judges the URL an app opens to end App Flip, the way the Google app will read it, so a developer can test the
/// answer before Google does (`ipacheck appflip response URL --state STATE`).
package enum AppFlipResponse {
    /// The `error` values Google's App Flip for iOS page defines, and what the Google app does after each.
    ///
    /// Source: the page's "unsuccessful result" table (docs/appflip-firebase.md cites it): `cancelled` and
    /// `invalid_request` are recoverable, and the Google app continues with your authorization URL (browser OAuth
    /// linking); `unrecoverable` and `access_denied` abort linking.
    package static let errorVocabulary: [String: AppFlipVerdict.Fallback] = [
        "cancelled": .browserOAuth,
        "invalid_request": .browserOAuth,
        "unrecoverable": .abort,
        "access_denied": .abort,
    ]

    /// Where the fallback behaviour comes from, printed with every error verdict.
    package static let fallbackSource =
        "Google's App Flip for iOS page, its table of unsuccessful results "
        + "(https://developers.google.com/identity/account-linking/app-flip-ios)"

    /// The query items Google reads from the answer.
    static let knownParameters: Set<String> = ["code", "state", "error", "error_description"]

    /// Judges `url`: it must open an App Flip redirect URI of a known Google app and carry either `code` plus the
    /// exact `state`, or a documented `error` (with `error_description` optional).
    ///
    /// - Parameter expectState: The `state` Google sent; `nil` when unknown (then only its presence is checked).
    package static func judge(url: String, expectState: String?) -> AppFlipVerdict {
        var verdict = AppFlipVerdict(url: url)
        let parsed = LinkURL(url)
        guard let scheme = parsed.scheme else {
            verdict.problem("notAURL", "\"\(url)\" is not an absolute URL")
            return verdict.finished()
        }
        judgeTarget(parsed, scheme: scheme, into: &verdict)
        guard let items = queryItems(parsed, into: &verdict) else { return verdict.finished() }
        judgeResult(items, expectState: expectState, into: &verdict)
        return verdict.finished()
    }

    private static func judgeTarget(_ components: LinkURL, scheme: String, into verdict: inout AppFlipVerdict) {
        if scheme != "https" {
            verdict.problem(
                "notHTTPS",
                "uses \(scheme):, but the redirect URI is the Google app's https universal link"
            )
        }
        let host = components.host ?? ""
        switch host {
        case GoogleApp.redirectHost: verdict.sandbox = false
        case GoogleApp.sandboxRedirectHost: verdict.sandbox = true
        default:
            verdict.problem(
                "foreignHost",
                "host \"\(host)\" is not \(GoogleApp.redirectHost) or \(GoogleApp.sandboxRedirectHost); only the "
                    + "redirect_uri Google sent may be opened"
            )
        }
        if components.port != nil || components.userInfo != nil {
            verdict.problem("notExactRedirect", "carries a port or user info; the redirect URI has neither")
        }
        if components.fragment != nil {
            verdict.warn("fragment", "has a #fragment, which Google's redirect URI does not have")
        }
        let path = components.path
        guard path.hasPrefix("/a/") else {
            let hint =
                path.hasPrefix("/r/")
                ? " (/r/PROJECT_ID is the browser OAuth redirect; App Flip answers on /a/GOOGLE_APP_BUNDLE_ID)" : ""
            verdict.problem("notAppFlipPath", "path \"\(path)\" is not /a/GOOGLE_APP_BUNDLE_ID\(hint)")
            return
        }
        let bundleID = String(path.dropFirst(3))
        if let app = GoogleApp.named(bundleID) {
            verdict.googleApp = app.bundleID
        } else {
            verdict.problem(
                "unknownGoogleApp",
                "\"\(bundleID)\" is not a Google app that starts App Flip; known: "
                    + GoogleApp.all.map(\.bundleID).joined(separator: ", ")
            )
        }
    }

    /// The query items by name (percent-decoded, `+` kept literally as iOS does), or `nil` after a fatal problem.
    private static func queryItems(
        _ components: LinkURL,
        into verdict: inout AppFlipVerdict
    ) -> [String: String]? {
        let decoded = components.queryItems
        guard !decoded.isEmpty else {
            verdict.problem("noQuery", "has no query; it must carry code and state, or error")
            return nil
        }
        var items: [String: String] = [:]
        var duplicates: [String] = []
        for (name, value) in decoded {
            if items[name] != nil, !duplicates.contains(name) { duplicates.append(name) }
            items[name] = value
        }
        for name in duplicates {
            verdict.problem("duplicateParameter", "parameter \(name) appears more than once, so its value is ambiguous")
        }
        let extra = items.keys.filter { !knownParameters.contains($0) }.sorted()
        if !extra.isEmpty {
            verdict.warn(
                "extraParameters",
                "unexpected parameter(s) \(extra.joined(separator: ", ")); Google reads only code, state, error and "
                    + "error_description"
            )
        }
        return duplicates.isEmpty ? items : nil
    }

    private static func judgeResult(
        _ items: [String: String],
        expectState: String?,
        into verdict: inout AppFlipVerdict
    ) {
        let code = items["code"]
        let error = items["error"]
        let state = items["state"]
        switch (code, error) {
        case (.some, .some):
            verdict.outcome = .both
            verdict.problem("codeAndError", "carries both code and error; send exactly one of them")
        case (nil, nil):
            verdict.problem("noResult", "carries neither code nor error")
        case (.some(let code), nil):
            verdict.outcome = .code
            if code.isEmpty { verdict.problem("emptyCode", "code is empty") }
            if items["error_description"] != nil {
                verdict.warn("descriptionWithCode", "error_description makes no sense beside a code")
            }
            judgeState(state, expected: expectState, required: true, into: &verdict)
        case (nil, .some(let error)):
            verdict.outcome = .error
            verdict.error = error
            verdict.errorDescription = items["error_description"]
            if let fallback = errorVocabulary[error] {
                verdict.fallback = fallback
                verdict.fallbackSource = fallbackSource
            } else {
                let sampleHint =
                    error == "user_not_authorized"
                    ? " (Google's sample app sends it, but the documentation does not define it)" : ""
                verdict.problem(
                    "unknownError",
                    "error \"\(error)\" is not one of cancelled, unrecoverable, invalid_request, access_denied"
                        + sampleHint
                )
            }
            judgeState(state, expected: expectState, required: false, into: &verdict)
        }
    }

    private static func judgeState(
        _ state: String?,
        expected: String?,
        required: Bool,
        into verdict: inout AppFlipVerdict
    ) {
        guard let state else {
            if required {
                verdict.problem("missingState", "state is missing; echo the exact state Google sent")
            } else {
                verdict.warn(
                    "missingState",
                    "no state: Google's sample error answer omits it, but the App Flip Test Tool treats error "
                        + "without state as a syntax error; echo the state Google sent"
                )
            }
            return
        }
        guard let expected else {
            verdict.warn("stateUnchecked", "state \"\(state)\" was not compared: no expected state was given")
            return
        }
        if state != expected {
            verdict.problem("wrongState", "state \"\(state)\" is not the state Google sent (\"\(expected)\")")
        }
    }
}

/// The judgement of an App Flip answer: valid or not, why, and what the Google app will do next.
package struct AppFlipVerdict: Hashable, Sendable, Codable {
    /// What the answer carries.
    package enum Outcome: String, Hashable, Sendable, Codable {
        /// An authorization code: linking completes.
        case code
        /// An error value.
        case error
        /// Both a code and an error (invalid).
        case both
        /// Neither (invalid).
        case none
    }

    /// What the Google app does after an error.
    package enum Fallback: String, Hashable, Sendable, Codable {
        /// A recoverable error: the Google app continues with your authorization URL (browser OAuth linking).
        case browserOAuth
        /// The Google app aborts account linking.
        case abort
    }

    /// One reason, with a stable code for scripts (`wrongState`) and a sentence for people.
    package struct Reason: Hashable, Sendable, Codable {
        /// Stable identifier of the reason.
        package let code: String
        /// What it means here.
        package let message: String
    }

    /// The URL judged.
    package var url: String
    /// Whether Google will accept it: true exactly when ``problems`` is empty.
    package var valid = false
    /// What it carries.
    package var outcome: Outcome = .none
    /// The Google app's bundle ID in the redirect URI, when it is a known one.
    package var googleApp: String?
    /// Whether the sandbox redirect host is used; `nil` when the host is not Google's.
    package var sandbox: Bool?
    /// The `error` value, for an error answer.
    package var error: String?
    /// The `error_description` value, when present.
    package var errorDescription: String?
    /// What the Google app does next, for a documented error value.
    package var fallback: Fallback?
    /// Where ``fallback`` comes from, and how sure it is.
    package var fallbackSource: String?
    /// What makes the answer invalid.
    package var problems: [Reason] = []
    /// What is dubious but does not make it invalid.
    package var warnings: [Reason] = []

    init(url: String) {
        self.url = url
    }

    mutating func problem(_ code: String, _ message: String) {
        problems.append(Reason(code: code, message: message))
    }

    mutating func warn(_ code: String, _ message: String) {
        warnings.append(Reason(code: code, message: message))
    }

    func finished() -> AppFlipVerdict {
        var verdict = self
        verdict.valid = problems.isEmpty
        return verdict
    }

    /// A few lines for people: the verdict, what Google does next, then each problem and warning.
    package var text: String {
        var lines = ["\(valid ? "valid" : "INVALID") App Flip response: \(url)"]
        if let googleApp {
            let app = GoogleApp.named(googleApp).map(\.description) ?? googleApp
            lines.append("  Google app: \(app)\(sandbox == true ? " [sandbox]" : "")")
        }
        switch outcome {
        case .code where valid:
            lines.append("  result: authorization code; linking completes (token exchange is server to server)")
        case .code:
            lines.append("  result: authorization code, but Google does not accept this answer (the errors below)")
        case .error:
            lines.append("  result: error \(error ?? "")\(errorDescription.map { " (\($0))" } ?? "")")
            switch valid ? fallback : nil {
            case .browserOAuth:
                lines.append("  then: recoverable; Google continues with your authorization URL (browser OAuth)")
            case .abort:
                lines.append("  then: not recoverable; Google aborts account linking")
            case nil where !valid:
                lines.append("  then: Google does not accept this answer (the errors below)")
            case nil:
                lines.append("  then: unknown; Google's documentation does not define this error")
            }
            if let fallbackSource { lines.append("  source: \(fallbackSource)") }
        case .both, .none:
            break
        }
        lines += problems.map { "  error: \($0.message)" }
        lines += warnings.map { "  warning: \($0.message)" }
        return lines.joined(separator: "\n")
    }
}
