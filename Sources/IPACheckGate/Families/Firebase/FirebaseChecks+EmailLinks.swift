import Foundation
import IPACheckAASA
import IPACheckLinks
import IPACheckPlist
import IPACheckReport

/// Email actions: the link domain in the entitlements, and whether its AASA file opens the link of every declared
/// action in the app.
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
        } else if settings.emailActions.isEmpty {
            return findings
        }
        for host in linkHosts(emailLinksOf: bundle, settings: settings) {
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
        let links = emailActionLinks(host: host, settings: settings)
        var findings: [Finding] = []
        for copy in matcher.copies(of: coverage.aasaHost) {
            let source =
                copy == .cdn
                ? "Apple's CDN copy of the AASA of \(coverage.aasaHost)" : "The AASA of \(coverage.aasaHost)"
            // One finding per distinct answer: an AASA that lists no rule for the app fails every action the same
            // way, and says so once, naming the actions.
            var failures: [(outcome: AASAMatchOutcome, links: [EmailActionLink])] = []
            for link in links {
                let outcome = matcher(
                    AASAMatchRequest(host: coverage.aasaHost, url: link.url, appID: appID, copy: copy)
                )
                guard outcome != .match else { continue }
                if let index = failures.firstIndex(where: { $0.outcome == outcome }) {
                    failures[index].links.append(link)
                } else {
                    failures.append((outcome, [link]))
                }
            }
            for failure in failures {
                let paths = failure.links.map(\.path).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
                let what =
                    "the \(failure.links.map(\.action.rawValue).joined(separator: ", ")) "
                    + "link\(failure.links.count == 1 ? "" : "s") (\(paths.joined(separator: ", ")))"
                let message: String
                var rule = FirebaseChecks.rules.emailLinkAASA
                switch failure.outcome {
                case .match: continue
                case .block(let why): message = "\(source) blocks \(what) for \(appID): \(why)."
                case .none(let why): message = "\(source) does not open \(what) in \(appID): \(why)."
                case .unavailable(let why):
                    message = "\(source) could not be read: \(why)."
                    if copy == .cdn { rule = FirebaseChecks.rules.emailLinkCDNUnavailable }
                }
                // Hosting writes the file of its default domains; on a custom domain the fix is the file itself.
                let isDefaultDomain = [".firebaseapp.com", ".web.app"].contains { coverage.aasaHost.hasSuffix($0) }
                let fix =
                    isDefaultDomain || rule != FirebaseChecks.rules.emailLinkAASA
                    ? nil
                    : "Add a component that opens \(paths.joined(separator: " and ")) for \(appID) to the AASA of "
                        + "\(coverage.aasaHost) (before any exclude rule that matches it)."
                findings.append(
                    rule.finding(message, bundle: bundle.path, domain: host, url: failure.links[0].url, fix: fix)
                )
            }
        }
        return findings
    }
}
