import Foundation
import IPACheckAASA
import IPACheckLinks
import IPACheckPlist
import IPACheckReport

/// Dynamic Links: domains (and continue URLs) that stopped working when Firebase shut the service down.
extension FirebaseChecks {
    package static func isDynamicLinksHost(_ host: String) -> Bool {
        let host = host.lowercased()
        return dynamicLinksSuffixes.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    static func deadDynamicLinkDomains(
        _ bundle: FirebaseBundleFacts,
        settings: FirebaseLinkSettings
    ) -> [Finding] {
        var findings: [Finding] = []
        for entry in bundle.associatedDomains where isDynamicLinksHost(entry.host) {
            findings.append(
                FirebaseChecks.rules.deadDynamicLinks.finding(
                    "Associated domain \(entry.entry) is a Firebase Dynamic Links domain; the service shut down on "
                        + "Aug 25, 2025.",
                    bundle: bundle.path,
                    domain: entry.host,
                    location: "com.apple.developer.associated-domains"
                )
            )
        }
        let customDomains = bundle.infoPlist["FirebaseDynamicLinksCustomDomains"]
        for (index, value) in (customDomains?.stringArray ?? []).enumerated() {
            let host = LinkURL(value).host ?? value
            guard isDynamicLinksHost(host) else { continue }
            findings.append(
                FirebaseChecks.rules.deadDynamicLinks.finding(
                    "Info.plist FirebaseDynamicLinksCustomDomains lists \(value), a Dynamic Links domain (shut down "
                        + "Aug 25, 2025).",
                    bundle: bundle.path,
                    domain: host,
                    location: "Info.plist:FirebaseDynamicLinksCustomDomains[\(index)]"
                )
            )
        }
        let leftovers = ["FirebaseDynamicLinksCustomDomains", "FirebaseDeepLinkPasteboardRetrievalEnabled"]
            .filter { bundle.infoPlist[$0] != nil }
        if !leftovers.isEmpty {
            findings.append(
                FirebaseChecks.rules.leftoverDynamicLinksConfig.finding(
                    "Info.plist still has \(leftovers.joined(separator: ", ")) for the shut-down Dynamic Links SDK.",
                    bundle: bundle.path,
                    location: "Info.plist"
                )
            )
        }
        if let linkDomain = settings.linkDomain, isDynamicLinksHost(linkDomain) {
            findings.append(
                FirebaseChecks.rules.deadDynamicLinks.finding(
                    "linkDomain \(linkDomain) is a Dynamic Links domain; email links must use a Firebase Hosting "
                        + "domain.",
                    bundle: bundle.path,
                    domain: linkDomain,
                    location: "linkDomain"
                )
            )
        }
        guard !bundle.isExtension else { return findings }
        for (index, text) in settings.continueURLs.enumerated() {
            guard let host = try? LinkURL.universalLinkHost(text), isDynamicLinksHost(host) else { continue }
            findings.append(
                FirebaseChecks.rules.deadDynamicLinks.finding(
                    "Continue URL \(text) is a Dynamic Links URL; the service shut down on Aug 25, 2025, so Continue "
                        + "leads nowhere after the email action.",
                    bundle: bundle.path,
                    domain: host,
                    url: text,
                    location: "firebase.continueURLs[\(index)]",
                    fix: "Pass a continue URL on a domain the app claims with applinks: (a universal link)."
                )
            )
        }
        return findings
    }
}
