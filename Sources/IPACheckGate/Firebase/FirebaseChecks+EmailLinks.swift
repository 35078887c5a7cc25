import Foundation
import IPACheckAASA
import IPACheckLinks
import IPACheckPlist
import IPACheckReport

/// Email-link sign-in: the link domain in the entitlements and its AASA file.
extension FirebaseChecks {
    static func checkEmailLinks(
        _ bundle: FirebaseBundleFacts,
        settings: FirebaseLinkSettings,
        matcher: AASALinkMatcher?
    ) -> [Finding] {
        var findings: [Finding] = []
        let projects = projectIDs(bundle)
        let applinks = bundle.associatedDomains.filter { $0.service == .applinks }
        for entry in applinks where !entry.wildcard {
            for suffix in [".firebaseapp.com", ".web.app"] where entry.host.hasSuffix(suffix) {
                let project = String(entry.host.dropLast(suffix.count))
                guard !projects.isEmpty, !projects.contains(project) else { continue }
                findings.append(
                    FirebaseChecks.rules.otherProjectDomain.finding(
                        "Associated domain \(entry.entry) belongs to Firebase project \(project), but the bundled "
                            + "GoogleService-Info.plist is for \(projects.joined(separator: ", ")).",
                        bundle: bundle.path,
                        domain: entry.host,
                        location: "com.apple.developer.associated-domains"
                    )
                )
            }
        }
        if let linkDomain = settings.linkDomain?.lowercased() {
            if linkDomain.hasSuffix(".firebaseapp.com") || linkDomain.hasSuffix(".web.app") {
                findings.append(
                    FirebaseChecks.rules.defaultLinkDomain.finding(
                        "linkDomain \(linkDomain) is a default Firebase Hosting domain.",
                        bundle: bundle.path,
                        domain: linkDomain,
                        location: "linkDomain"
                    )
                )
            }
        } else if !settings.emailLinkSignIn {
            return findings
        }
        for host in linkHosts(bundle, settings: settings) {
            findings += checkEmailLinkHost(host, settings: settings, bundle: bundle, matcher: matcher)
        }
        return findings
    }

    static func checkEmailLinkHost(
        _ host: String,
        settings: FirebaseLinkSettings,
        bundle: FirebaseBundleFacts,
        matcher: AASALinkMatcher?
    ) -> [Finding] {
        guard let coverage = LinkHostCoverage.find(host: host, in: bundle.associatedDomains),
            coverage.entry.isPublic
        else {
            let webApp = host.replacingOccurrences(of: ".firebaseapp.com", with: ".web.app")
            let hasWebApp =
                settings.linkDomain == nil && webApp != host
                && LinkHostCoverage.find(host: webApp, in: bundle.associatedDomains) != nil
            return [
                (hasWebApp ? FirebaseChecks.rules.emailLinkDomainMoved : FirebaseChecks.rules.emailLinkDomainMissing)
                    .finding(
                        hasWebApp
                            ? "Email links arrive on \(host) (the migration guide's default), but the app claims only "
                                + "\(webApp)."
                            : "Email links arrive on \(host), but the app has no plain applinks:\(host) entry.",
                        bundle: bundle.path,
                        domain: host,
                        location: "com.apple.developer.associated-domains",
                        fix: "Add applinks:\(host) to Associated Domains."
                    )
            ]
        }
        guard let matcher, let appID = bundle.appID else { return [] }
        let url = sampleEmailLink(host: host)
        var findings: [Finding] = []
        for copy in matcher.copies(of: coverage.aasaHost) {
            let outcome = matcher(AASAMatchRequest(host: coverage.aasaHost, url: url, appID: appID, copy: copy))
            let source =
                copy == .cdn
                ? "Apple's CDN copy of the AASA of \(coverage.aasaHost)" : "The AASA of \(coverage.aasaHost)"
            let message: String
            var rule = FirebaseChecks.rules.emailLinkAASA
            switch outcome {
            case .match: continue
            case .block(let why): message = "\(source) blocks /__/auth/links for \(appID): \(why)."
            case .none(let why): message = "\(source) does not open /__/auth/links in \(appID): \(why)."
            case .unavailable(let why):
                message = "\(source) could not be read: \(why)."
                if copy == .cdn { rule = FirebaseChecks.rules.emailLinkCDNUnavailable }
            }
            findings.append(rule.finding(message, bundle: bundle.path, domain: host, url: url))
        }
        return findings
    }
}
