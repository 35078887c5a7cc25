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
        var findings: [Finding] = []
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
            part.findings = [ServingRules.rules.invalidHost.finding("cannot build a URL for '\(host)'", domain: host)]
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
                part.findings.append(
                    ServingRules.rules.rootOnly.finding(
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
                part.findings.append(
                    ServingRules.rules.notFound.finding(
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
            part.findings.append(transportFinding(failure, target: target, url: servedURL.absoluteString))
            return part
        case .response(let response):
            if let finding = tlsVersionFinding(response, host: host, url: servedURL.absoluteString) {
                part.findings.append(finding)
            }
            let judged = judge(response, target: target, url: servedURL.absoluteString, wasNotFound: location)
            part.findings += judged.findings
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
                // One answer, one finding: the block by user agent names the status the file's agent got, so the
                // status finding for that same answer is not repeated beside it.
                let statusRules: Set = [
                    ServingRules.rules.notFound.id, ServingRules.rules.redirect.id, ServingRules.rules.badStatus.id,
                ]
                part.findings.removeAll { statusRules.contains($0.rule) }
            }
            part.findings += comparison.findings
        }
        return part
    }

    /// Judges the answer for the file's URL: status, Content-Type, size, encoding, speed, JSON.
    func judge(
        _ response: FetchResponse,
        target: AASAFetchTarget,
        url: String,
        wasNotFound location: OriginObservation.Location
    ) -> (findings: [Finding], document: ParsedAASA?) {
        let host = target.fetchHost
        var findings: [Finding] = []
        switch response.status {
        case 200:
            break
        case 300..<400:
            let target = response.header("Location").map { "to \($0)" } ?? "without a Location header"
            findings.append(
                ServingRules.rules.redirect.finding(
                    "\(url) answers \(response.status), redirecting \(target); Apple does not follow it",
                    domain: host,
                    url: url
                )
            )
            return (findings, nil)
        case 404, 410:
            // Already reported as not found (or served from the root instead).
            return (findings, nil)
        default:
            findings.append(
                ServingRules.rules.badStatus.finding(
                    "\(url) answers \(response.status): " + Self.explain(status: response.status),
                    domain: host,
                    url: url
                )
            )
            return (findings, nil)
        }

        if response.elapsed > Self.cdnOriginTimeout {
            findings.append(
                ServingRules.rules.slow.finding(
                    "\(url) took \(Self.format(response.elapsed.seconds)) s; Apple's CDN gives up after about 5 s",
                    domain: host,
                    url: url
                )
            )
        }
        if let encoding = response.header("Content-Encoding"), encoding.lowercased() != "identity" {
            findings.append(
                ServingRules.rules.compressed.finding(
                    "\(url) is served with Content-Encoding: \(encoding); decompressed size "
                        + (response.bodyTruncated ? "exceeds \(response.body.count)" : "\(response.body.count)")
                        + " bytes",
                    domain: host,
                    url: url
                )
            )
        }
        if response.bodyTruncated {
            findings.append(
                ServingRules.rules.exceedsFetchLimit.finding(
                    "\(url) sent more than \(response.body.count) bytes; reading stopped there (Apple's limit is "
                        + "\(Self.appleSizeLimit))",
                    domain: host,
                    url: url
                )
            )
            return (findings, nil)
        }
        if response.body.count > Self.appleSizeLimit {
            findings.append(
                ServingRules.rules.tooLarge.finding(
                    "\(url) is \(response.body.count) bytes, more than Apple's \(Self.appleSizeLimit)",
                    domain: host,
                    url: url
                )
            )
        }
        let isCMS = AASABody.looksLikeCMS(response.body)
        findings += judgeContentType(response.header("Content-Type"), isCMS: isCMS, host: host, url: url)
        switch AASABody.read(response.body, now: options.now) {
        case .success(let parsed):
            return (findings, parsed)
        case .failure(let problem):
            if let html = findings.firstIndex(where: { $0.rule == ServingRules.rules.htmlContentType.id }) {
                // One cause, one finding: an HTML page was served instead of the file.
                findings[html].message += "; the body is not JSON either (\(problem.message))"
            } else {
                findings.append(
                    ServingRules.rules.notJSON.finding(
                        "\(url) is not a usable AASA file: \(problem)",
                        domain: host,
                        url: url
                    )
                )
            }
            return (findings, nil)
        }
    }

    func judgeContentType(_ header: String?, isCMS: Bool, host: String, url: String) -> [Finding] {
        let mediaType =
            header?.split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch mediaType {
        case "application/json":
            return []
        case "application/pkcs7-mime":
            if isCMS { return [] }
            return [
                ServingRules.rules.signedMismatch.finding(
                    "\(url) is served as application/pkcs7-mime but its body is not CMS",
                    domain: host,
                    url: url
                )
            ]
        case "text/html", "application/xhtml+xml":
            return [
                ServingRules.rules.htmlContentType.finding(
                    "\(url) is served as \(header ?? mediaType): probably an HTML page instead of the file",
                    domain: host,
                    url: url
                )
            ]
        case "":
            return [ServingRules.rules.looseContentType.finding("\(url) has no Content-Type", domain: host, url: url)]
        default:
            return [
                ServingRules.rules.looseContentType.finding(
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
