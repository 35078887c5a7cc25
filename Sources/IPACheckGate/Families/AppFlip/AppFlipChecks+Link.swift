import Foundation
import IPACheckAASA
import IPACheckLinks
import IPACheckPlist
import IPACheckReport
import IPACheckSigning

/// The App Flip link: its host among the associated domains, and the AASA file that must route its path.
extension AppFlipChecks {
    static func checkLink(
        _ config: AppFlipConfig,
        _ domains: [AssociatedDomain],
        _ appID: String,
        _ signing: SigningKind,
        _ matcher: AASALinkMatcher?,
        _ bundle: String?
    ) -> [Finding] {
        let url = config.appFlipURL
        let problems = AppFlipLinkShape.problems(of: url)
        var findings: [Finding] = []
        if !problems.isEmpty {
            findings.append(
                AppFlipChecks.rules.linkShape.finding(
                    "App Flip link \(url) \(problems.joined(separator: "; ")).",
                    bundle: bundle,
                    url: url,
                    location: "appFlipURL"
                )
            )
        }
        guard let host = linkHost(url) else { return findings }
        if let reason = PlaceholderHost.reason(host, mode: nil) {
            findings.append(
                AppFlipChecks.rules.placeholderDomain.finding(
                    "App Flip link host \(host) \(reason).",
                    bundle: bundle,
                    domain: host,
                    url: url
                )
            )
        }
        guard let coverage = LinkHostCoverage.find(host: host, in: domains) else {
            findings.append(notAssociated(host: host, url: url, domains: domains, bundle: bundle))
            return findings
        }
        if let mode = coverage.entry.mode {
            let ignored = signing == .distribution && mode == .developer
            let message =
                ignored
                ? "App Flip host \(host) is claimed only by \(coverage.entry.entry), which iOS ignores in this "
                    + "distribution-signed build: the App Flip link never opens the app."
                : "App Flip host \(host) is claimed only by \(coverage.entry.entry), so App Flip works only on "
                    + (mode == .developer ? "developer-mode devices." : "MDM-managed devices.")
            findings.append(
                (ignored ? AppFlipChecks.rules.hostIgnoredMode : AppFlipChecks.rules.hostAlternateModeOnly).finding(
                    message,
                    bundle: bundle,
                    domain: host,
                    url: url,
                    location: "com.apple.developer.associated-domains"
                )
            )
        }
        guard let matcher, problems.isEmpty else { return findings }
        // Developer-mode domains are fetched from the origin directly; the CDN copy matters otherwise.
        let copies: [AASACopy] =
            coverage.entry.mode?.requiresDevelopmentSigning == true
            ? [.origin] : matcher.copies(of: coverage.aasaHost)
        let links = probeLinks(config: config)
        for copy in copies {
            let failures = links.compactMap { link -> (AppFlipLink, AASAMatchOutcome)? in
                let outcome = matcher(
                    AASAMatchRequest(host: coverage.aasaHost, url: link.url, appID: appID, copy: copy)
                )
                return outcome == .match ? nil : (link, outcome)
            }
            guard let (link, outcome) = failures.first,
                let finding = aasaFinding(
                    link,
                    outcome,
                    copy,
                    host: coverage.aasaHost,
                    appID: appID,
                    of: failures.count,
                    links.count,
                    bundle
                )
            else { continue }
            findings.append(finding)
        }
        return findings
    }

    static func notAssociated(
        host: String,
        url: String,
        domains: [AssociatedDomain],
        bundle: String?
    ) -> Finding {
        let applinks = domains.filter { $0.service == .applinks }
        var message = "App Flip host \(host) is not claimed by any applinks: entry of the app"
        if applinks.contains(where: { $0.wildcard && $0.host == host.lowercased() }) {
            message += " (*.\(host) covers only its subdomains, not \(host) itself)"
        } else if applinks.isEmpty {
            message += " (the app has no applinks: entries)"
        } else {
            message += " (it has \(applinks.map(\.entry).joined(separator: ", ")))"
        }
        return AppFlipChecks.rules.hostNotAssociated.finding(
            message + "; the Google app cannot flip into it.",
            bundle: bundle,
            domain: host,
            url: url,
            location: "com.apple.developer.associated-domains",
            fix: "Add applinks:\(host) to the main app's Associated Domains and re-sign."
        )
    }

    static func aasaFinding(
        _ link: AppFlipLink,
        _ outcome: AASAMatchOutcome,
        _ copy: AASACopy,
        host: String,
        appID: String,
        of failures: Int,
        _ total: Int,
        _ bundle: String?
    ) -> Finding? {
        let copyName = copy == .cdn ? "Apple's CDN copy of the AASA of \(host)" : "The AASA of \(host)"
        let others = failures > 1 ? " (\(failures) of \(total) redirect_uri variants fail)" : ""
        let message: String
        var rule = AppFlipChecks.rules.aasaNoMatch
        switch outcome {
        case .match:
            return nil
        case .block(let why):
            message = "\(copyName) blocks the App Flip link for \(appID): \(why)\(others)."
        case .none(let why):
            message = "\(copyName) has no rule opening the App Flip link in \(appID): \(why)\(others)."
        case .unavailable(let why):
            message = "\(copyName) could not be read, so the App Flip link cannot open \(appID): \(why)."
            if copy == .cdn { rule = AppFlipChecks.rules.cdnCopyUnavailable }
        }
        return rule.finding(message, bundle: bundle, domain: host, url: link.url)
    }

    static func linkHost(_ url: String) -> String? {
        guard let host = LinkURL(url).host, !host.isEmpty else { return nil }
        return host
    }
}
