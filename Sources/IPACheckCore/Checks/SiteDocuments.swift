import IPACheckAASA
import IPACheckReport

/// The AASA files the gate fetched, parsed once: per host and mode, the origin's document and Apple's CDN copy.
struct SiteDocuments {
    /// One fetched host's documents.
    struct Site {
        /// The origin's document, when it was served and parses.
        var origin: AASADocument?
        /// Apple's CDN copy, when it was served and parses.
        var cdn: AASADocument?
        /// Why the origin's file is unusable, in a few words (for roll-up messages).
        var originProblem: String?
    }

    private struct Key: Hashable {
        let host: String
        let mode: AASAFetchTarget.Mode?
    }

    private var sites: [Key: Site] = [:]
    /// What each host served, once per host and mode.
    private(set) var reports: [AASASiteReport] = []
    /// Serving, CDN, parse and lint findings, once per host and mode.
    private(set) var findings: [Finding] = []
    private var documentSet = AASADocumentSet()

    init(_ results: [AASASiteResult]) {
        for result in results {
            let key = Key(host: result.report.fetchHost, mode: result.report.mode)
            guard sites[key] == nil else { continue }
            reports.append(result.report)
            findings += result.report.findings
            var site = Site()
            let host = result.report.fetchHost
            // The fetcher parsed each file once and reported unusable ones (SERVE050, CDN004) itself.
            if let origin = result.origin {
                site.origin = origin.document
                findings += origin.findings.map { finding in
                    var copy = finding
                    copy.domain = copy.domain ?? host
                    return copy
                }
                findings += AASALinter.lint(origin.document, domain: host)
                documentSet.add(origin.document, host: host, copy: .origin)
            } else {
                let worst = result.report.findings.filter { $0.severity == .error }.first?.message
                site.originProblem = worst ?? "not served"
                documentSet.addFailure(site.originProblem ?? "not served", host: host, copy: .origin)
            }
            if let cdn = result.cdn {
                site.cdn = cdn.document
                documentSet.add(cdn.document, host: host, copy: .cdn)
            } else if result.report.cdn == nil, let origin = site.origin {
                // The CDN was not asked (offline, --no-cdn, or a mode that bypasses it): devices would get what
                // the origin serves, so questions about "the CDN copy" are answered from the origin's file.
                documentSet.add(origin, host: host, copy: .cdn)
            } else {
                documentSet.addFailure("Apple's CDN copy of \(host) was not available", host: host, copy: .cdn)
            }
            sites[key] = site
        }
    }

    /// The documents serving `target`.
    func site(for target: AASAFetchTarget) -> Site? {
        sites[Key(host: target.fetchHost, mode: target.mode)]
    }

    /// The matcher the App Flip and Firebase checks take.
    var linkMatcher: AASALinkMatcher { documentSet.matcher }
}
