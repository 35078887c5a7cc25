import Foundation
import IPACheckLinks
import IPACheckPlist
import IPACheckReport
import IPACheckSigning

/// What the Info.plist and the executable show of the App Flip handling.
extension AppFlipChecks {
    /// Every string the heuristics look for in the main executable (searched while it streams past).
    package static let executableNeedles: [String] = [
        "madeby.google.com/home-app", "assistant-settings://", GoogleApp.redirectHost, GoogleApp.sandboxRedirectHost,
        GoogleApp.googleAssistant.bundleID, GoogleApp.googleHome.bundleID, "UniversalLinksOnly", "universalLinksOnly",
        "user_not_authorized",
    ]

    static func legacyDeepLinks(
        infoPlist: PlistValue?,
        executable: BinaryStrings?,
        bundle: String?
    ) -> [Finding] {
        var findings: [Finding] = []
        let schemes = infoPlist?["LSApplicationQueriesSchemes"]?.stringArray ?? []
        if schemes.contains(where: { $0.lowercased() == "assistant-settings" }) {
            findings.append(
                AppFlipChecks.rules.legacyDeepLink.finding(
                    "Info.plist LSApplicationQueriesSchemes lists assistant-settings, the retired Google Assistant "
                        + "account-linking deep link.",
                    bundle: bundle,
                    location: "Info.plist:LSApplicationQueriesSchemes"
                )
            )
        }
        guard let executable else { return findings }
        for needle in ["madeby.google.com/home-app", "assistant-settings://"] where executable.contains(needle) {
            findings.append(
                AppFlipChecks.rules.legacyDeepLink.finding(
                    "The main executable contains \(needle), a retired Google account-linking deep link (heuristic).",
                    bundle: bundle,
                    location: "main executable"
                )
            )
        }
        return findings
    }

    static func binaryHeuristics(_ executable: BinaryStrings, bundle: String?) -> [Finding] {
        func has(_ needle: String) -> Bool { executable.contains(needle) }
        var findings: [Finding] = []
        let production = has(GoogleApp.redirectHost)
        let sandbox = has(GoogleApp.sandboxRedirectHost)
        if !production && !sandbox {
            findings.append(
                AppFlipChecks.rules.binaryNoRedirectCheck.finding(
                    "The main executable never mentions \(GoogleApp.redirectHost) (heuristic; frameworks not "
                        + "searched).",
                    bundle: bundle,
                    location: "main executable"
                )
            )
        } else if sandbox && !production {
            findings.append(
                AppFlipChecks.rules.binarySandboxOnly.finding(
                    "The main executable mentions \(GoogleApp.sandboxRedirectHost) only (heuristic).",
                    bundle: bundle,
                    location: "main executable"
                )
            )
        }
        if has(GoogleApp.googleAssistant.bundleID) && !has(GoogleApp.googleHome.bundleID) {
            findings.append(
                AppFlipChecks.rules.binaryAssistantOnly.finding(
                    "The main executable refers to a/com.google.OPA (Google Assistant) but never to "
                        + "a/com.google.Chromecast (Google Home) (heuristic).",
                    bundle: bundle,
                    location: "main executable"
                )
            )
        }
        if !has("UniversalLinksOnly") && !has("universalLinksOnly") {
            findings.append(
                AppFlipChecks.rules.binaryNoUniversalLinksOnly.finding(
                    "The main executable does not reference UIApplicationOpenURLOptionUniversalLinksOnly (heuristic; "
                        + "frameworks not searched); the answer may open in Safari instead of the Google app.",
                    bundle: bundle,
                    location: "main executable"
                )
            )
        }
        if has("user_not_authorized") {
            findings.append(
                AppFlipChecks.rules.binarySampleErrorValue.finding(
                    "The main executable contains user_not_authorized, Google's sample error value, which the App Flip "
                        + "documentation does not define (heuristic).",
                    bundle: bundle,
                    location: "main executable"
                )
            )
        }
        return findings
    }
}
