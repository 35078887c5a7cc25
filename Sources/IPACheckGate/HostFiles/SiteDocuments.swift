package import IPACheckAASA
package import IPACheckLinks
import IPACheckReport
package import IPACheckSites

/// The copy of a host's AASA a verdict is judged on, and how findings name it.
package struct JudgedDocument: Sendable {
    /// The document.
    package let document: AASADocument
    /// Which copy it is.
    package let copy: AASACopy
    /// How a finding names it: `example.com's AASA`, `Apple's CDN copy of example.com's AASA (the origin's file
    /// could not be read)`.
    package let name: String
}

/// The copy of a host's AASA that devices read, as one run saw it: the copy devices use was read, or devices
/// have none (and why).
package enum DeviceCopy: Sendable {
    /// Devices read this copy; `source` says which and why, in a few words.
    case readable(JudgedDocument, source: String)
    /// Devices have no usable copy; `reason` says why, `source` which copy they would read.
    case missing(reason: String, source: String)

    /// Which copy devices read, and why that one.
    package var source: String {
        switch self {
        case .readable(_, let source), .missing(_, let source): source
        }
    }

    /// The document, when devices have one.
    package var judged: JudgedDocument? {
        if case .readable(let judged, _) = self { return judged }
        return nil
    }
}

extension AASASiteResult {
    /// The origin's copy (or, when it cannot be read, a CDN copy devices still live on): what the gate's
    /// cross-checks judge (``SiteDocuments/judged(_:)``), or `nil` when neither copy could be read.
    package var judged: JudgedDocument? {
        SiteDocuments([self]).judged(report.target)
    }

    /// The copy devices read (``SiteDocuments/deviceCopy(_:)``, the one place this is decided).
    package var deviceCopy: DeviceCopy? {
        SiteDocuments([self]).deviceCopy(report.target)
    }
}

/// The AASA files a run fetched, parsed once: per host and mode, the origin's document and Apple's CDN copy, and
/// the one decision of which copy a verdict uses (``judged(_:)``).
struct SiteDocuments: Sendable {
    /// One fetched host's documents.
    struct Site: Sendable {
        /// What the run observed of the host.
        var report: AASASiteReport
        /// The origin's document (or the `--aasa-dir` file), when it was served and parses.
        var origin: AASADocument?
        /// Apple's CDN copy, when it was asked, served and parses.
        var cdn: AASADocument?
        /// Whether Apple's CDN was asked for this host.
        var cdnAsked: Bool
        /// Whether the origin's file came from `--aasa-dir`.
        var isOffline: Bool
        /// Why the origin's file is unusable, in a few words.
        var originProblem: String?
    }

    private struct Key: Hashable, Sendable {
        let host: String
        let mode: AASAFetchTarget.Mode?
    }

    private var sites: [Key: Site] = [:]
    /// What each host served, once per host and mode.
    private(set) var reports: [AASASiteReport] = []
    /// Serving, CDN, parse and lint findings, once per host and mode.
    private(set) var findings: [Finding] = []
    /// Whether any document (origin or CDN copy) parsed, so the AASA lint rules ran.
    private(set) var anyDocument = false
    private var documentSet = AASADocumentSet()

    init(_ results: [AASASiteResult]) {
        for result in results {
            let key = Key(host: result.report.fetchHost, mode: result.report.mode)
            guard sites[key] == nil else { continue }
            reports.append(result.report)
            findings += result.report.findings
            let host = result.report.fetchHost
            var site = Site(
                report: result.report,
                cdnAsked: result.report.cdn != nil,
                isOffline: result.report.origin?.location == .offlineFile
            )
            // The fetcher parsed each file once and reported unusable ones (SERVE050, CDN004) itself.
            if let origin = result.origin {
                site.origin = origin.document
                anyDocument = true
                // One cause, one finding: a file served over 128 KB is SERVE020, which the content's AASA010 repeats.
                let servedTooLarge = result.report.findings.contains { $0.rule == ServingRules.rules.tooLarge.id }
                let oversize = AASARules.document.overSizeLimit.id
                findings += AASAFileReading.findings(of: origin.document).filter {
                    !servedTooLarge || $0.rule != oversize
                }.map { finding in
                    var copy = finding
                    copy.domain = copy.domain ?? host
                    return copy
                }
                findings += AASALinter.lint(origin.document, domain: host)
                documentSet.add(origin.document, host: host, copy: .origin)
            } else {
                let worst = result.report.findings.first { $0.severity == .error }?.message
                site.originProblem = worst ?? "not served"
                documentSet.addFailure(site.originProblem ?? "not served", host: host, copy: .origin)
            }
            if let cdn = result.cdn {
                site.cdn = cdn.document
                anyDocument = true
                documentSet.add(cdn.document, host: host, copy: .cdn)
            } else if site.cdnAsked {
                documentSet.addFailure("Apple's CDN copy of \(host) could not be read", host: host, copy: .cdn)
            }
            sites[key] = site
        }
    }

    /// The documents serving `target`.
    func site(for target: AASAFetchTarget) -> Site? {
        sites[Key(host: target.fetchHost, mode: target.mode)]
    }

    /// What the run observed of `target`'s host.
    func report(for target: AASAFetchTarget) -> AASASiteReport? {
        site(for: target)?.report
    }

    /// The copy every verdict about `target` is judged on, or `nil` when neither copy could be read.
    ///
    /// Entries devices read from the origin (``AASAFetchTarget/usesCDN``): only the origin counts. Other entries are
    /// served to devices by Apple's CDN, which refetches the origin's file within about a day: the origin's file
    /// is judged (what the CDN is about to serve), and how the CDN copy differs is reported apart (LINK005,
    /// LINK009). When the origin's file cannot be read but the CDN still has a copy, devices live on that copy
    /// until the CDN refreshes, so it is judged, and the name says so.
    func judged(_ target: AASAFetchTarget) -> JudgedDocument? {
        guard let site = site(for: target) else { return nil }
        let host = target.fetchHost
        if let origin = site.origin {
            let name = site.isOffline ? "the AASA of \(host) in --aasa-dir" : "\(host)'s AASA"
            return JudgedDocument(document: origin, copy: .origin, name: name)
        }
        if target.usesCDN, let cdn = site.cdn {
            return JudgedDocument(
                document: cdn,
                copy: .cdn,
                name: "Apple's CDN copy of \(host)'s AASA (the origin's file could not be read)"
            )
        }
        return nil
    }

    /// The copy devices read for `target`: what `explain`, live `match` and the link model decide a URL on.
    ///
    /// An entry is read by devices from Apple's CDN, so its copy is the CDN's; when the CDN has none, devices have
    /// none, however good the origin's file is. A developer-mode entry is read from the origin by the devices it
    /// applies to, and so is a managed one when the MDM enables direct downloads (``AASAFetchTarget/usesCDN``).
    /// When the CDN was not asked (`--no-cdn`, `--offline`), the origin's file (or the `--aasa-dir` file) stands in
    /// for it, and the source says so.
    func deviceCopy(_ target: AASAFetchTarget) -> DeviceCopy? {
        guard let site = site(for: target) else { return nil }
        let host = target.fetchHost
        let condition = target.mode == nil ? "" : " (\(target.copyCondition))"
        if target.usesCDN && site.cdnAsked {
            let source = "Apple's CDN copy of \(host)'s AASA\(condition)"
            if let cdn = site.cdn {
                return .readable(
                    JudgedDocument(document: cdn, copy: .cdn, name: "Apple's CDN copy of \(host)'s AASA"),
                    source: source
                )
            }
            return .missing(reason: "Apple's CDN has no usable copy of \(host)'s AASA", source: source)
        }
        let source: String
        let name: String
        if site.isOffline {
            name = "the AASA of \(host) in --aasa-dir"
            source =
                target.usesCDN
                ? "the --aasa-dir file, standing in for Apple's CDN copy (offline: the CDN was not asked)\(condition)"
                : "the --aasa-dir file, as the origin's copy\(condition)"
        } else {
            name = "\(host)'s AASA"
            source =
                target.usesCDN
                ? "the origin's copy, standing in for Apple's CDN copy (--no-cdn: the CDN was not asked)\(condition)"
                : "the origin's copy\(condition)"
        }
        guard let origin = site.origin else {
            return .missing(reason: site.originProblem ?? "\(host)'s AASA could not be read", source: source)
        }
        return .readable(JudgedDocument(document: origin, copy: .origin, name: name), source: source)
    }

    /// The matcher the App Flip and Firebase checks take: it knows which copies were fetched.
    var linkMatcher: AASALinkMatcher { documentSet.matcher }
}
