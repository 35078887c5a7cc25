import Foundation
import IPACheckAASA
import IPACheckFetching
import IPACheckLinks
import IPACheckReport

/// The origin's file: fetched with Apple's user agent and judged by every serving rule.
extension AASASiteFetcher {
    struct OriginPart {
        var observation: OriginObservation?
        var userAgents: [UserAgentObservation] = []
        var problems: [SiteProblem] = []
        var document: ParsedAASA?
    }

    func request(_ url: URL, userAgent: String) -> FetchRequest {
        FetchRequest(
            url: url,
            headers: [HTTPHeaderField("User-Agent", userAgent), HTTPHeaderField("Accept", "*/*")],
            timeout: options.timeout,
            bodyLimit: options.bodyLimit
        )
    }

    func fetchOrigin(_ target: AASAFetchTarget, fetcher: any HTTPFetching) async -> OriginPart {
        let host = target.fetchHost
        var part = OriginPart()
        guard let wellKnown = URL(string: "https://\(host)/.well-known/apple-app-site-association"),
            let root = URL(string: "https://\(host)/apple-app-site-association")
        else {
            part.problems = [SiteProblem(.invalidHost, "cannot build a URL for '\(host)'", domain: host)]
            return part
        }
        // The CDN fetches as AASA-Bot; devices in developer/managed mode fetch directly with CFNetwork.
        let primaryAgent = target.usesCDN ? Self.cdnUserAgent : Self.deviceUserAgent
        let primary = await fetcher.fetch(request(wellKnown, userAgent: primaryAgent))
        var servedURL = wellKnown
        var served = primary
        var location = OriginObservation.Location.wellKnown

        if case .response(let response) = primary, response.status == 404 || response.status == 410 {
            let fallback = await fetcher.fetch(request(root, userAgent: primaryAgent))
            if case .response(let rootResponse) = fallback, rootResponse.status == 200 {
                part.problems.append(
                    SiteProblem(
                        .rootOnly,
                        "\(wellKnown.absoluteString) answers \(response.status) but \(root.absoluteString) serves "
                            + "the file",
                        domain: host,
                        url: wellKnown.absoluteString
                    )
                )
                served = fallback
                servedURL = root
                location = .root
            } else {
                let rootText =
                    switch fallback {
                    case .response(let rootResponse): "answers \(rootResponse.status)"
                    case .failure(let failure): "fails (\(failure.detail))"
                    }
                part.problems.append(
                    SiteProblem(
                        .notFound,
                        "\(wellKnown.absoluteString) answers \(response.status) and \(root.absoluteString) "
                            + rootText,
                        domain: host,
                        url: wellKnown.absoluteString
                    )
                )
            }
        }
        part.observation = OriginObservation(
            url: servedURL.absoluteString,
            location: location,
            userAgent: primaryAgent,
            outcome: served
        )
        switch served {
        case .failure(let failure):
            part.problems.append(transportProblem(failure, target: target, url: servedURL.absoluteString))
            return part
        case .response(let response):
            if let problem = tlsVersionProblem(response, host: host, url: servedURL.absoluteString) {
                part.problems.append(problem)
            }
            let judged = judge(response, target: target, url: servedURL.absoluteString, wasNotFound: location)
            part.problems += judged.problems
            part.document = judged.document
            let comparison = await compareUserAgents(
                primaryAgent: primaryAgent,
                primary: response,
                url: servedURL,
                host: host,
                fetcher: fetcher
            )
            part.userAgents = comparison.observations
            if comparison.coversPrimaryStatus {
                // One answer, one problem: the block by user agent names the status the file's agent got, so the
                // status problem for that same answer is not repeated beside it.
                let statusKinds: Set<SiteProblem.Kind> = [.notFound, .redirect, .badStatus]
                part.problems.removeAll { statusKinds.contains($0.kind) }
            }
            part.problems += comparison.problems
        }
        return part
    }

    /// Judges the answer for the file's URL: status, Content-Type, size, encoding, speed, JSON.
    func judge(
        _ response: FetchResponse,
        target: AASAFetchTarget,
        url: String,
        wasNotFound location: OriginObservation.Location
    ) -> (problems: [SiteProblem], document: ParsedAASA?) {
        let host = target.fetchHost
        var problems: [SiteProblem] = []
        switch response.status {
        case 200:
            break
        case 300..<400:
            let target = response.header("Location").map { "to \($0)" } ?? "without a Location header"
            problems.append(
                SiteProblem(
                    .redirect,
                    "\(url) answers \(response.status), redirecting \(target); Apple does not follow it",
                    domain: host,
                    url: url
                )
            )
            return (problems, nil)
        case 404, 410:
            // Already reported as not found (or served from the root instead).
            return (problems, nil)
        default:
            problems.append(
                SiteProblem(
                    .badStatus,
                    "\(url) answers \(response.status): " + Self.explain(status: response.status),
                    domain: host,
                    url: url
                )
            )
            return (problems, nil)
        }

        if response.elapsed > Self.cdnOriginTimeout {
            problems.append(
                SiteProblem(
                    .slow,
                    "\(url) took \(Self.format(response.elapsed.seconds)) s; Apple's CDN gives up after about 5 s",
                    domain: host,
                    url: url
                )
            )
        }
        if let encoding = response.header("Content-Encoding"), encoding.lowercased() != "identity" {
            problems.append(
                SiteProblem(
                    .compressed,
                    "\(url) is served with Content-Encoding: \(encoding); decompressed size "
                        + (response.bodyTruncated ? "exceeds \(response.body.count)" : "\(response.body.count)")
                        + " bytes",
                    domain: host,
                    url: url
                )
            )
        }
        if response.bodyTruncated {
            problems.append(
                SiteProblem(
                    .exceedsFetchLimit,
                    "\(url) sent more than \(response.body.count) bytes; reading stopped there (Apple's limit is "
                        + "\(Self.appleSizeLimit))",
                    domain: host,
                    url: url
                )
            )
            return (problems, nil)
        }
        if response.body.count > Self.appleSizeLimit {
            problems.append(
                SiteProblem(
                    .tooLarge,
                    "\(url) is \(response.body.count) bytes, more than Apple's \(Self.appleSizeLimit)",
                    domain: host,
                    url: url
                )
            )
        }
        let isCMS = AASABody.looksLikeCMS(response.body)
        problems += judgeContentType(response.header("Content-Type"), isCMS: isCMS, host: host, url: url)
        switch AASABody.read(response.body, now: options.now) {
        case .success(let parsed):
            return (problems, parsed)
        case .failure(let problem):
            if let html = problems.firstIndex(where: { $0.kind == .htmlContentType }) {
                // One cause, one problem: an HTML page was served instead of the file.
                problems[html].message += "; the body is not JSON either (\(problem.message))"
            } else {
                problems.append(
                    SiteProblem(
                        .notJSON,
                        "\(url) is not a usable AASA file: \(problem)",
                        domain: host,
                        url: url
                    )
                )
            }
            return (problems, nil)
        }
    }

    func judgeContentType(_ header: String?, isCMS: Bool, host: String, url: String) -> [SiteProblem] {
        let mediaType =
            header?.split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch mediaType {
        case "application/json":
            return []
        case "application/pkcs7-mime":
            if isCMS { return [] }
            return [
                SiteProblem(
                    .signedMismatch,
                    "\(url) is served as application/pkcs7-mime but its body is not CMS",
                    domain: host,
                    url: url
                )
            ]
        case "text/html", "application/xhtml+xml":
            return [
                SiteProblem(
                    .htmlContentType,
                    "\(url) is served as \(header ?? mediaType): probably an HTML page instead of the file",
                    domain: host,
                    url: url
                )
            ]
        case "":
            return [SiteProblem(.looseContentType, "\(url) has no Content-Type", domain: host, url: url)]
        default:
            return [
                SiteProblem(
                    .looseContentType,
                    "\(url) is served as \(header ?? mediaType), not application/json",
                    domain: host,
                    url: url
                )
            ]
        }
    }

    static func explain(status: Int) -> String {
        switch status {
        case 401: "the server asks for authentication; Apple's fetchers send none"
        case 403:
            "access is forbidden to this client; TN3155 asks that the file be served from any IP address and "
                + "country, to every user agent"
        case 429: "the server rate-limits this client; Apple's fetchers may be throttled the same way"
        case 500..<600: "the server fails; Apple's CDN caches this failure"
        default: "Apple accepts only 200"
        }
    }
}
