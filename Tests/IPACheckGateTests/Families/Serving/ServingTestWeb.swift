import Foundation
import IPACheckFetching
import IPACheckLinks
import IPACheckReport
import IPACheckSites
import IPACheckTestSupport
import Testing

/// An in-memory web for ``AASASiteFetcher``: each absolute URL answers per user agent; any other URL answers 404.
///
/// As `HTTPFetching`'s documentation says of a real fetcher, a body longer than the request's `bodyLimit` comes back
/// cut at the limit and marked truncated.
struct Web: HTTPFetching {
    typealias Answer = @Sendable (_ userAgent: String) -> FetchOutcome

    let routes: [String: Answer]
    let log = RequestLog()

    /// `host` (`example.com` by default) with its `.well-known` answer, a 404 at the root path, and Apple's CDN
    /// answer (by default a copy of `goodFile`, fetched from the `.well-known` URL).
    static func site(
        _ host: String = ServingRuleTests.host,
        wellKnown: @escaping Answer = { _ in ServingRuleTests.file(ServingRuleTests.goodFile) },
        cdn: FetchOutcome? = nil
    ) -> Web {
        let wellKnownURL = "https://\(host)/.well-known/apple-app-site-association"
        let cdnAnswer = cdn ?? ServingRuleTests.cdnCopy(ServingRuleTests.goodFile, from: wellKnownURL)
        return Web(routes: [
            wellKnownURL: wellKnown,
            "https://app-site-association.cdn-apple.com/a/v1/\(host)": { _ in cdnAnswer },
        ])
    }

    func fetch(_ request: FetchRequest) async -> FetchOutcome {
        let url = request.url.absoluteString
        let agent = request.headers.first { $0.name.lowercased() == "user-agent" }?.value ?? ""
        await log.record(url)
        let outcome = routes[url]?(agent) ?? ServingRuleTests.status(404)
        guard case .response(var response) = outcome, response.body.count > request.bodyLimit else { return outcome }
        response.body = Array(response.body.prefix(request.bodyLimit))
        response.bodyTruncated = true
        return .response(response)
    }
}

/// The URLs a ``Web`` was asked for, in order.
actor RequestLog {
    private(set) var urls: [String] = []

    func record(_ url: String) {
        urls.append(url)
    }
}

extension AASASiteReport {
    /// The rule IDs of the findings.
    var ruleIDs: Set<String> { Set(findings.map(\.rule)) }

    /// Every finding, one per line, for failure messages.
    var dump: String {
        findings.map { "\($0.rule) \($0.severity.rawValue) [\($0.domain ?? "-")] \($0.message)" }
            .joined(separator: "\n")
    }
}
