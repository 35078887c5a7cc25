import Foundation
import IPACheckAASA
package import IPACheckFetching
import IPACheckLinks

/// Fetches and judges hosts' AASA files the way Apple's CDN and devices fetch them, and compares Apple's CDN copy
/// with the origin's file by meaning.
///
/// Per host: `https://HOST/.well-known/apple-app-site-association` (the root path only as a fallback) with
/// Apple's user agent, every serving rule (docs/checks.md) judged as a problem; the same URL again with the other
/// Apple user agent and a browser's, to expose WAF blocking; Apple's CDN copy (`<cdn-base><host>`) with its
/// failure headers decoded. All hosts run at once (up to a cap that bounds open connections); a failed host never
/// stops the others.
package struct AASASiteFetcher: Sendable {
    /// The user agent of Apple's CDN fetcher.
    package static let cdnUserAgent = "AASA-Bot/1.0.0"
    /// A user agent like the one devices use when they fetch directly (developer and managed modes).
    package static let deviceUserAgent = "com.apple.swcd (unknown version) CFNetwork/1496.0.7 Darwin/23.5.0"
    /// A user agent no allow-list names: TN3155 (2025-05-15) asks sites to "accept all user agent requests" and to
    /// verify it "by setting a random user agent" (its example: `curl -A "MyAgent-Bot/*"`).
    package static let arbitraryUserAgent = "MyAgent-Bot/1.0"
    /// A desktop Safari user agent, for comparison with Apple's fetchers.
    package static let browserUserAgent =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        + "Version/17.5 Safari/605.1.15"
    /// Apple's archived size limit for the decompressed file.
    package static let appleSizeLimit = 131_072
    /// The CDN's observed origin timeout; slower answers are reported.
    package static let cdnOriginTimeout: Duration = .seconds(5)

    let fetcher: (any HTTPFetching)?
    let options: FetchOptions

    /// Creates a site fetcher.
    ///
    /// - Parameters:
    ///   - fetcher: Performs the requests; may be `nil` when `options` are offline (nothing is fetched then).
    ///   - options: Timeouts, body cap, CDN base, offline folder.
    package init(fetcher: (any HTTPFetching)?, options: FetchOptions) {
        self.fetcher = fetcher
        self.options = options
    }

    /// Checks every target at once (up to `options.maximumConcurrentHosts`), so that many slow hosts cost one
    /// timeout; results in the targets' order.
    ///
    /// Targets that need the same fetch (`example.com` and `*.example.com`, both via the CDN) are fetched once.
    package func check(_ targets: [AASAFetchTarget]) async -> [AASASiteResult] {
        struct Key: Hashable {
            var host: String
            var mode: AASAFetchTarget.Mode?
            var mdmDirectDownloads: Bool
        }
        var unique: [Key] = []
        var seen: Set<Key> = []
        for target in targets {
            let key = Key(host: target.fetchHost, mode: target.mode, mdmDirectDownloads: target.mdmDirectDownloads)
            if seen.insert(key).inserted { unique.append(key) }
        }
        var results: [Key: AASASiteResult] = [:]
        await withTaskGroup(of: (Key, AASASiteResult).self) { group in
            var next = 0
            func addNext() {
                guard next < unique.count else { return }
                let key = unique[next]
                next += 1
                group.addTask {
                    let target = AASAFetchTarget(
                        host: key.host,
                        mode: key.mode,
                        mdmDirectDownloads: key.mdmDirectDownloads
                    )
                    return (key, await check(target))
                }
            }
            for _ in 0..<min(options.maximumConcurrentHosts, unique.count) { addNext() }
            while let (key, result) = await group.next() {
                results[key] = result
                addNext()
            }
        }
        return targets.compactMap { target in
            let key = Key(host: target.fetchHost, mode: target.mode, mdmDirectDownloads: target.mdmDirectDownloads)
            guard var result = results[key] else { return nil }
            result.report.host = target.host
            return result
        }
    }

    /// Checks one target: origin, user agents, CDN, comparison.
    package func check(_ target: AASAFetchTarget) async -> AASASiteResult {
        let host = target.fetchHost
        var report = AASASiteReport(host: target.host, fetchHost: host, mode: target.mode)
        if target.mdmDirectDownloads { report.mdmDirectDownloads = true }
        guard Self.isFetchableHost(host) else {
            report.problems = [
                SiteProblem(
                    .invalidHost,
                    "'\(target.host)' is not a host name that can be fetched",
                    domain: host
                )
            ]
            return AASASiteResult(report: report)
        }
        if let directory = options.offlineDirectory {
            return readOffline(target, directory: directory, report: report)
        }
        guard let fetcher else {
            report.problems = [
                SiteProblem(.unreachable, "no network fetcher was configured", domain: host)
            ]
            return AASASiteResult(report: report)
        }
        async let cdnPart = lookUpCDN(target, fetcher: fetcher)
        let origin = await fetchOrigin(target, fetcher: fetcher)
        let cdn = await cdnPart

        report.origin = origin.observation
        report.userAgents = origin.userAgents
        var problems = origin.problems
        var result = AASASiteResult(report: report, origin: origin.document)
        if let cdn {
            result.report.cdn = cdn.observation
            problems += cdn.problems
            if let copy = cdn.document {
                result.cdn = copy
                if let served = origin.document {
                    let differences = AASAAppIDDifference.between(origin: served.document, cdn: copy.document)
                    result.report.cdnDifferences = differences
                    problems += compareFindings(differences, host: host, cdn: cdn.observation)
                } else {
                    // The origin has no usable file (error status, failure, or an unusable body): devices live on the CDN copy.
                    problems.append(
                        SiteProblem(
                            .servingDespiteOriginFailure,
                            "Apple's CDN still serves a copy (\(cdn.observation.summary)) but the origin has no usable file now",
                            domain: host,
                            url: cdn.observation.url
                        )
                    )
                }
            }
        } else if !target.usesCDN {
            problems.append(
                SiteProblem(
                    .skippedForMode,
                    "mode=\(target.mode?.rawValue ?? "") entries: \(target.copyCondition)",
                    domain: host
                )
            )
        }
        result.report.problems = problems
        return result
    }

    // MARK: - Helpers

    /// Whether `host` can be put in an https URL as is: LDH labels (plus `_`), dots, no empty label.
    static func isFetchableHost(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 253 else { return false }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63
                && label.unicodeScalars.allSatisfy {
                    $0.isASCII && (Character($0).isLetter || Character($0).isNumber || $0 == "-" || $0 == "_")
                }
        }
    }

    static func format(_ seconds: Double) -> String {
        String(format: "%.1f", seconds)
    }
}
