import Foundation
import IPACheckAASA
import IPACheckLinks
import IPACheckReport

/// One link Firebase sends for an email action, as the AASA is asked about it.
struct EmailActionLink: Hashable, Sendable {
    /// The action.
    var action: FirebaseEmailAction
    /// The path the AASA must open (`/__/auth/links` or `/__/auth/action`).
    var path: String
    /// The whole URL, query included.
    var url: String
}

/// Email actions and continue URLs: the link Firebase sends for each declared action, and whether each continue URL
/// brings the user back into the app.
extension FirebaseChecks {
    /// The path of Firebase Auth's action handler on a Hosting domain.
    static let actionHandlerPath = "/__/auth/action"
    /// The path of the mobile links Hosting sends since Dynamic Links shut down.
    static let mobileLinkPath = "/__/auth/links"

    /// The link Firebase sends for `action` on `host`, for asking the AASA.
    ///
    /// The action handler link is `https://HOST/__/auth/action?mode=MODE&oobCode=…&apiKey=…&continueUrl=…&lang=…`:
    /// Firebase's "Passing state in email actions" guide names its query parameters `oobCode`, `mode`,
    /// `apiKey` and `continueUrl`, and firebase-admin-node's generated links show it (`…/__/auth/action?apiKey…&mode=signIn&
    /// oobCode…&continueUrl…&lang…`). Since FirebaseAuth 11.8.0 a mobile link (`handleCodeInApp`, which sign-in
    /// requires) wraps it on the same Hosting domain: `https://HOST/__/auth/links?link=https://HOST/__/auth/action?
    /// apiKey%3D…%26mode%3DsignIn%26oobCode%3D…%26continueUrl%3D…%26lang%3Den` (firebase-ios-sdk #14600), and
    /// Firebase Hosting's AASA opens both (`/__/auth/links` and the action handler paths). So an action the app
    /// requests with `ActionCodeSettings` (``FirebaseEmailAction/takesActionCodeSettings``) and handles itself
    /// arrives as the mobile link; `recoverEmail` and `revertSecondFactorAddition`, which Firebase sends by itself,
    /// arrive as the action handler link.
    ///
    /// - Parameter continueURL: The continue URL the link carries; `https://HOST/` when none is declared.
    static func emailActionLink(
        _ action: FirebaseEmailAction,
        host: String,
        continueURL: String? = nil
    ) -> EmailActionLink {
        let continueURL = continueURL ?? "https://\(host)/"
        guard action.takesActionCodeSettings else {
            // No ActionCodeSettings, so no continue URL.
            let url =
                "https://\(host)\(actionHandlerPath)?mode=\(action.rawValue)&oobCode=OOB_CODE&apiKey=API_KEY&lang=en"
            return EmailActionLink(action: action, path: actionHandlerPath, url: url)
        }
        let inner =
            "https://\(host)\(actionHandlerPath)?apiKey=API_KEY&mode=\(action.rawValue)&oobCode=OOB_CODE"
            + "&continueUrl=\(queryEncoded(continueURL))&lang=en"
        return EmailActionLink(
            action: action,
            path: mobileLinkPath,
            url: "https://\(host)\(mobileLinkPath)?link=\(queryEncoded(inner))"
        )
    }

    /// The links the declared actions arrive as on `host` (the sign-in link when only a `linkDomain` is declared).
    static func emailActionLinks(host: String, settings: FirebaseLinkSettings) -> [EmailActionLink] {
        let actions = settings.emailActions.isEmpty ? [.signIn] : settings.emailActions
        return actions.map { emailActionLink($0, host: host, continueURL: settings.continueURLs.first) }
    }

    /// `text` as a query value: everything but unreserved characters and `:` `/` `?` percent-encoded (as Firebase
    /// writes the nested `link=` value).
    private static func queryEncoded(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~:/?")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Each continue URL against the app: a universal link the app claims, whose AASA opens it (Firebase's "Passing state in email actions").
    ///
    /// After the web action handler, "Continue" opens the continue URL; only a universal link of the app brings the
    /// user back into it, anything else stays in Safari. An AASA that could not be read is left to the serving
    /// rules of that host, which the app claims and ipacheck therefore fetches.
    static func checkContinueURLs(
        _ bundle: FirebaseBundleFacts,
        settings: FirebaseLinkSettings,
        matcher: AASALinkMatcher?
    ) -> [Finding] {
        guard !bundle.isExtension else { return [] }
        var findings: [Finding] = []
        for (index, text) in settings.continueURLs.enumerated() {
            let location = "firebase.continueURLs[\(index)]"
            let url: LinkURL
            do {
                url = try LinkURL.universalLink(text)
            } catch {
                findings.append(
                    FirebaseChecks.rules.continueURLNotClaimed.finding(
                        "Continue URL \(text) is not a universal link (\(error.reason)): after the email action, "
                            + "Continue cannot return to the app.",
                        bundle: bundle.path,
                        url: text,
                        location: location
                    )
                )
                continue
            }
            guard let host = url.host, !isDynamicLinksHost(host) else { continue }  // FIRE007 says why
            guard let coverage = LinkHostCoverage.find(host: host, in: bundle.associatedDomains),
                coverage.entry.isPublic
            else {
                findings.append(continueURLNotClaimed(text, host: host, bundle: bundle, location: location))
                continue
            }
            guard let matcher, let appID = bundle.appID else { continue }
            for copy in matcher.copies(of: coverage.aasaHost) {
                let source =
                    copy == .cdn
                    ? "Apple's CDN copy of the AASA of \(coverage.aasaHost)" : "The AASA of \(coverage.aasaHost)"
                let message: String
                switch matcher(AASAMatchRequest(host: coverage.aasaHost, url: text, appID: appID, copy: copy)) {
                case .match, .unavailable: continue
                case .block(let why): message = "\(source) blocks continue URL \(text) for \(appID): \(why)"
                case .none(let why): message = "\(source) does not open continue URL \(text) in \(appID): \(why)"
                }
                findings.append(
                    FirebaseChecks.rules.continueURLAASA.finding(
                        message + "; after the email action, Continue returns the user to Safari, not the app.",
                        bundle: bundle.path,
                        domain: host,
                        url: text,
                        location: location
                    )
                )
            }
        }
        return findings
    }

    private static func continueURLNotClaimed(
        _ text: String,
        host: String,
        bundle: FirebaseBundleFacts,
        location: String
    ) -> Finding {
        let applinks = bundle.associatedDomains.filter { $0.service == .applinks && $0.covers(host: host) }
        let why =
            applinks.isEmpty
            ? "no applinks: entry of the app claims \(host)"
            : "\(host) is claimed only by \(applinks.map(\.entry).joined(separator: ", ")), not on every device"
        return FirebaseChecks.rules.continueURLNotClaimed.finding(
            "Continue URL \(text) is not a universal link of the app (\(why)): after the email action, Continue "
                + "returns the user to Safari, not the app.",
            bundle: bundle.path,
            domain: host,
            url: text,
            location: location,
            fix: "Add applinks:\(host) to Associated Domains (and the app to its AASA), or pass a continue URL on a "
                + "domain the app claims."
        )
    }

    /// The hosts whose AASA the continue-URL check asks about: the file host of each continue URL the app claims.
    static func continueURLHosts(_ bundle: FirebaseBundleFacts, settings: FirebaseLinkSettings) -> [String] {
        guard !bundle.isExtension else { return [] }
        return settings.continueURLs.compactMap { text in
            guard let host = try? LinkURL.universalLinkHost(text),
                let coverage = LinkHostCoverage.find(host: host, in: bundle.associatedDomains),
                coverage.entry.isPublic
            else { return nil }
            return coverage.aasaHost
        }
    }
}
