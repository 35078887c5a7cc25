import Foundation
import IPACheckAASA
import IPACheckFetching
import IPACheckLinks
import IPACheckReport

/// Apple's CDN copy: its failure headers decoded, and compared with the origin's file by meaning.
extension AASASiteFetcher {
    struct CDNPart {
        var observation: CDNObservation
        var problems: [SiteProblem]
        var document: ParsedAASA?
    }

    func lookUpCDN(_ target: AASAFetchTarget, fetcher: any HTTPFetching) async -> CDNPart? {
        guard target.usesCDN, !options.skipCDN, let base = options.cdnBase else { return nil }
        let host = target.fetchHost
        var text = base.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        guard let url = URL(string: text + host) else { return nil }
        let outcome = await fetcher.fetch(request(url, userAgent: "ipacheck"))
        let observation = CDNObservation(url: url.absoluteString, outcome: outcome)
        var part = CDNPart(observation: observation, problems: [])
        let wellKnown = "https://\(host)/.well-known/apple-app-site-association"
        if let from = observation.from, from != wellKnown {
            part.problems.append(
                SiteProblem(
                    .fetchedElsewhere,
                    "Apple's CDN fetched \(from), not \(wellKnown)",
                    domain: host,
                    url: url.absoluteString
                )
            )
        }
        switch outcome {
        case .failure(let failure):
            part.problems.append(
                SiteProblem(
                    .unavailable,
                    "\(url.absoluteString) could not be fetched: \(failure.detail)",
                    domain: host,
                    url: url.absoluteString
                )
            )
        case .response(let response) where response.status == 200:
            if response.bodyTruncated {
                part.problems.append(
                    SiteProblem(
                        .unavailable,
                        "Apple's CDN copy is larger than the body cap (\(response.body.count) bytes)",
                        domain: host,
                        url: url.absoluteString
                    )
                )
                break
            }
            switch AASABody.read(response.body, now: options.now) {
            case .success(let parsed):
                part.document = parsed
            case .failure(let problem):
                part.problems.append(
                    SiteProblem(
                        .unavailable,
                        "Apple's CDN copy does not parse: \(problem)",
                        domain: host,
                        url: url.absoluteString
                    )
                )
            }
        case .response(let response) where response.status == 404 || observation.failureReason != nil:
            let reason = observation.failureReason
            part.problems.append(
                SiteProblem(
                    .noCopy,
                    "Apple's CDN has no copy of \(host)'s file: \(observation.summary)",
                    domain: host,
                    url: url.absoluteString,
                    fix: reason?.advice.replacingOccurrences(of: "HOST", with: host)
                )
            )
        case .response(let response):
            part.problems.append(
                SiteProblem(
                    .unavailable,
                    "Apple's CDN answered \(response.status) for \(host)"
                        + (response.status == 405 ? " (it answers 405 for names it cannot use)" : ""),
                    domain: host,
                    url: url.absoluteString
                )
            )
        }
        return part
    }

    func compareFindings(
        _ differences: [AASAAppIDDifference],
        host: String,
        cdn: CDNObservation
    ) -> [SiteProblem] {
        guard !differences.isEmpty else {
            var message = "Apple's CDN copy means the same as the origin's file"
            if let fresh = cdn.freshForSeconds { message += " (this answer is fresh for \(fresh) more seconds)" }
            return [SiteProblem(.current, message, domain: host, url: cdn.url)]
        }
        return differences.map {
            SiteProblem(.stale, $0.detail, domain: host, url: cdn.url, location: "\($0.service):\($0.appID)")
        }
    }
}
