import Foundation
import IPACheckAASA
import IPACheckBundle
import IPACheckFetching
import IPACheckLinks
public import IPACheckReport
import IPACheckSites

/// The path a tap on a link takes, step by step, for support triage: "why does this link open Safari?".
public struct LinkExplanation: Encodable, Sendable {
    /// One step of the path and how it went.
    public struct Step: Encodable, Sendable {
        /// How the step went.
        public enum Status: String, Encodable, Sendable {
            /// The step holds.
            case pass
            /// The step breaks the path: the link opens in the browser.
            case fail
            /// A fact worth knowing that decides nothing.
            case info
        }

        /// What the step checks (`URL`, `claim`, `mode`, `AASA`, `rules`).
        public let name: String
        /// How it went.
        public let status: Status
        /// What was found, one line each.
        public let details: [String]
    }

    /// The URL explained.
    public let url: String
    /// The steps, in the order iOS takes them.
    public let steps: [Step]
    /// Whether the link opens the app.
    public let opensApp: Bool
    /// The bundle it opens, when it does.
    public let bundle: String?
    /// One line saying where it breaks, or which bundle opens it.
    public let conclusion: String

    /// The explanation for people; the URL, the details and the conclusion quote inputs (the ipa, the AASA, a
    /// server's answer), so each is made visible (``UntrustedText``) before it is styled.
    public func text(style: TextStyle = .plain) -> String {
        let visible = UntrustedText.visibleOnOneLine
        var out = style.bold(visible(url)) + "\n"
        for (index, step) in steps.enumerated() {
            let mark: String
            switch step.status {
            case .pass: mark = style.green("✓")
            case .fail: mark = style.red("✗")
            case .info: mark = style.dim("·")
            }
            out += "\(index + 1). \(mark) \(visible(step.name))\n"
            for detail in step.details { out += "     \(visible(detail))\n" }
        }
        let ending = visible(conclusion)
        out += "\n" + (opensApp ? style.green(ending) : style.red(ending)) + "\n"
        return out
    }
}

/// Walks the path of a tap: which bundle claims the host, in which mode, what the CDN and origin serve, and
/// which rule decides.
public enum LinkExplainer {
    /// Explains what happens when `url` is tapped with the app in `path` installed.
    ///
    /// - Throws: ``InputError`` when the ipa cannot be read.
    public static func explain(
        url: String,
        ipaPath: String,
        options: GateOptions
    ) async throws(InputError)
        -> LinkExplanation
    {
        var steps: [LinkExplanation.Step] = []
        func finish(_ conclusion: String, bundle: String? = nil, opens: Bool = false) -> LinkExplanation {
            LinkExplanation(url: url, steps: steps, opensApp: opens, bundle: bundle, conclusion: conclusion)
        }
        let components: LinkURL
        do {
            components = try LinkURL.universalLink(url)
        } catch {
            steps.append(.init(name: "URL", status: .fail, details: [error.reason]))
            return finish("✗ not a URL iOS could open as a universal link (\(error.reason))")
        }
        let host = components.host ?? ""
        guard components.scheme == "https" else {
            steps.append(.init(name: "URL", status: .fail, details: ["universal links are https only"]))
            return finish("✗ breaks at the URL: http scheme; only https links open apps")
        }
        steps.append(
            .init(
                name: "URL",
                status: .pass,
                details: [
                    "https link to \(host), path \(components.path.isEmpty ? "/" : components.path)"
                ]
            )
        )

        let ipa = try IPAFile(path: ipaPath, limits: options.archiveLimits)
        let facts = try BundleFacts.gatherAll(ipa: ipa, now: options.now)
        let claims = facts.flatMap { fact in
            fact.domains.filter { $0.service == .applinks && $0.covers(host: host) }.map { (fact, $0) }
        }
        guard !claims.isEmpty else {
            let near = facts.flatMap(\.domains).filter { $0.service == .applinks }.map(\.entry)
            var details = ["no bundle's signed entitlements contain applinks:\(host) or a *. entry covering it"]
            if facts.flatMap(\.domains).contains(where: { $0.wildcard && $0.host == host }) {
                details.append("*.\(host) covers subdomains only, never \(host) itself (add applinks:\(host))")
            }
            details.append(
                near.isEmpty
                    ? "the build claims no applinks domains" : "applinks entries: " + near.joined(separator: ", ")
            )
            steps.append(.init(name: "claim", status: .fail, details: details))
            return finish("✗ breaks at the claim: no bundle claims applinks:\(host)")
        }
        steps.append(
            .init(
                name: "claim",
                status: .pass,
                details: claims.map {
                    "\($0.0.bundle.path) claims \($0.1.entry) as \($0.0.appID ?? "(no application-identifier)")"
                }
            )
        )

        var usable: [(BundleFacts, AssociatedDomain, AASAFetchTarget)] = []
        var modeDetails: [String] = []
        for (fact, domain) in claims {
            if !domain.isUsable {
                modeDetails.append(
                    "\(domain.entry): iOS ignores it (\(domain.problems.map(\.message).joined(separator: "; ")))"
                )
            } else if let target = ReleaseGate.fetchTarget(domain, signing: fact.signingKind) {
                if let mode = domain.mode {
                    modeDetails.append(
                        "\(domain.entry): only devices in \(mode.rawValue) mode; fetched from the origin, not the CDN"
                    )
                }
                usable.append((fact, domain, target))
            } else {
                modeDetails.append("\(domain.entry): skipped, since ?mode=developer needs a development-signed build")
            }
        }
        guard !usable.isEmpty else {
            steps.append(.init(name: "mode", status: .fail, details: modeDetails))
            return finish("✗ breaks at the entitlement: every entry claiming \(host) is ignored by iOS for this build")
        }
        if !modeDetails.isEmpty { steps.append(.init(name: "mode", status: .info, details: modeDetails)) }

        let targets = usable.map(\.2)
        let sites = await AASASiteFetcher(fetcher: options.fetcher, options: options.fetch).check(targets)
        var aasaDetails: [String] = []
        var anyDocument = false
        var lastProblem = "no apple-app-site-association could be read"
        var described: Set<String> = []
        for (target, site) in zip(targets, sites) {
            guard described.insert("\(target.fetchHost)|\(target.mode?.rawValue ?? "")").inserted else { continue }
            let origin = site.origin?.document
            let cdn = site.cdn?.document
            let originLine =
                site.report.origin.map { observation in
                    observation.status.map { "HTTP \($0)" } ?? observation.failure.map {
                        "\($0.kind.summary): \($0.detail)"
                    } ?? "no answer"
                } ?? "not fetched"
            aasaDetails.append("\(target.fetchHost): origin \(originLine)\(origin == nil ? " (unusable)" : "")")
            if let observation = site.report.cdn {
                let status = observation.status.map { "HTTP \($0)" } ?? "no answer"
                let reason = observation.failureReason.map { " · \($0.raw)" } ?? ""
                aasaDetails.append(
                    "\(target.fetchHost): Apple's CDN \(status)\(reason)\(cdn == nil ? " (no usable copy)" : "")"
                )
            } else {
                aasaDetails.append(
                    "\(target.fetchHost): Apple's CDN not asked (\(target.mode != nil ? "mode bypasses it" : "offline or --no-cdn"))"
                )
            }
            if origin != nil || cdn != nil { anyDocument = true }
            if let error = site.report.findings.first(where: { $0.severity == .error }) { lastProblem = error.message }
        }
        guard anyDocument else {
            steps.append(.init(name: "AASA", status: .fail, details: aasaDetails))
            return finish("✗ breaks at the AASA: \(lastProblem)")
        }
        steps.append(.init(name: "AASA", status: .pass, details: aasaDetails))

        var ruleDetails: [String] = []
        var verdicts: [String] = []
        let documents = SiteDocuments(sites)
        for (fact, _, target) in usable {
            guard let appID = fact.appID, let judged = documents.judged(target) else { continue }
            let explanation = judged.document.matcher(for: appID, domain: target.host).explain(url)
            ruleDetails.append("\(appID) against \(judged.name):")
            ruleDetails += explanation.textLines.map { "  " + $0 }
            if explanation.result.verdict == .match {
                steps.append(.init(name: "rules", status: .pass, details: ruleDetails))
                steps.append(.init(name: "reminders", status: .info, details: reminders))
                return finish(
                    "✓ opens \(fact.bundle.path) (\(explanation.result.why))",
                    bundle: fact.bundle.path,
                    opens: true
                )
            }
            verdicts.append("\(fact.bundle.folderName): \(explanation.result.why)")
        }
        steps.append(.init(name: "rules", status: .fail, details: ruleDetails))
        return finish("✗ breaks at the AASA rules: " + verdicts.joined(separator: "; "))
    }

    /// What makes a correctly configured link still open Safari (aasa.md §5, item 14).
    static let reminders = [
        "a URL typed or pasted into Safari's address bar never opens the app; tap it from another app or page",
        "a link to the same domain as the page showing it stays in Safari",
        "if the user once chose 'Open in Safari' for this domain, iOS remembers it until they choose the app again",
    ]
}
