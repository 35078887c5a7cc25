import Foundation
import IPACheckLinks
import IPACheckPlist
import IPACheckReport
import IPACheckSigning

/// The redirect allowlist the config declares.
extension AppFlipChecks {
    static func checkRedirects(_ config: AppFlipConfig, _ bundle: String?) -> [Finding] {
        var findings: [Finding] = []
        let googleHomeURI = GoogleApp.googleHome.redirectURI()
        if !config.googleApps.contains(.googleHome) {
            findings.append(
                AppFlipChecks.rules.googleHomeMissing.finding(
                    "The App Flip config's googleApps omit Google Home (com.google.Chromecast), the app every flip "
                        + "starts from after the account-linking migration.",
                    bundle: bundle,
                    url: googleHomeURI,
                    location: "googleApps"
                )
            )
        }
        guard let redirectURIs = config.redirectURIs else { return findings }
        let accepted = Set(GoogleApp.allRedirectURIs)
        for (index, uri) in redirectURIs.enumerated() where !accepted.contains(uri) {
            findings.append(
                AppFlipChecks.rules.foreignRedirectURI.finding(
                    "Redirect URI \(uri) is not one of Google's App Flip redirect URIs.",
                    bundle: bundle,
                    url: uri,
                    location: "redirectURIs[\(index)]"
                )
            )
        }
        if !redirectURIs.contains(googleHomeURI) {
            findings.append(
                AppFlipChecks.rules.googleHomeMissing.finding(
                    "The redirect allowlist lacks \(googleHomeURI), so flips from Google Home are rejected.",
                    bundle: bundle,
                    url: googleHomeURI,
                    location: "redirectURIs"
                )
            )
        }
        for app in config.googleApps where app != .googleHome {
            for sandbox in config.sandbox ? [false, true] : [false]
            where !redirectURIs.contains(app.redirectURI(sandbox: sandbox)) {
                findings.append(
                    AppFlipChecks.rules.listedAppRedirectMissing.finding(
                        "The redirect allowlist lacks \(app.redirectURI(sandbox: sandbox)) although googleApps "
                            + "lists \(app.name).",
                        bundle: bundle,
                        url: app.redirectURI(sandbox: sandbox),
                        location: "redirectURIs",
                        fix: "Add it, or drop \(app.bundleID) from googleApps."
                    )
                )
            }
        }
        return findings
    }
}
