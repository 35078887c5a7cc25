import Foundation
public import IPACheckAASA
public import IPACheckFetching
import IPACheckLinks
public import IPACheckReport

/// Fetches and judges hosts' AASA files the way Apple's CDN and devices fetch them, and compares Apple's CDN copy
/// with the origin's file by meaning.
///
/// Per host: `https://HOST/.well-known/apple-app-site-association` (the root path only as a fallback) with
/// Apple's user agent, every serving rule of aasa.md §1 judged as a finding; the same URL again with the other
/// Apple user agent and a browser's, to expose WAF blocking; Apple's CDN copy (`<cdn-base><host>`) with its
/// failure headers decoded. All hosts run at once (up to a cap that bounds open connections); a failed host never
/// stops the others.
public struct AASASiteFetcher: Sendable {
    /// The user agent of Apple's CDN fetcher.
    public static let cdnUserAgent = "AASA-Bot/1.0.0"
    /// A user agent like the one devices use when they fetch directly (developer and managed modes).
    public static let deviceUserAgent = "com.apple.swcd (unknown version) CFNetwork/1496.0.7 Darwin/23.5.0"
    /// A desktop Safari user agent, for comparison with Apple's fetchers.
    public static let browserUserAgent =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        + "Version/17.5 Safari/605.1.15"
    /// Apple's archived size limit for the decompressed file.
    public static let appleSizeLimit = 131_072
    /// The CDN's observed origin timeout; slower answers are reported.
    public static let cdnOriginTimeout: Duration = .seconds(5)

    private let fetcher: (any HTTPFetching)?
    let options: FetchOptions

    /// Creates a site fetcher.
    ///
    /// - Parameters:
    ///   - fetcher: Performs the requests; may be `nil` when `options` are offline (nothing is fetched then).
    ///   - options: Timeouts, body cap, CDN base, offline folder.
    public init(fetcher: (any HTTPFetching)?, options: FetchOptions) {
        self.fetcher = fetcher
        self.options = options
    }

    /// Checks every target at once (up to `options.maximumConcurrentHosts`), so that many slow hosts cost one
    /// timeout; results in the targets' order.
    ///
    /// Targets that need the same fetch (`example.com` and `*.example.com`, both via the CDN) are fetched once.
    public func check(_ targets: [AASAFetchTarget]) async -> [AASASiteResult] {
        struct Key: Hashable {
            var host: String
            var mode: AASAFetchTarget.Mode?
        }
        var unique: [Key] = []
        var seen: Set<Key> = []
        for target in targets {
            let key = Key(host: target.fetchHost, mode: target.mode)
            if seen.insert(key).inserted { unique.append(key) }
        }
        var results: [Key: AASASiteResult] = [:]
        await withTaskGroup(of: (Key, AASASiteResult).self) { group in
            var next = 0
            func addNext() {
                guard next < unique.count else { return }
                let key = unique[next]
                next += 1
                group.addTask { (key, await check(AASAFetchTarget(host: key.host, mode: key.mode))) }
            }
            for _ in 0..<min(options.maximumConcurrentHosts, unique.count) { addNext() }
            while let (key, result) = await group.next() {
                results[key] = result
                addNext()
            }
        }
        return targets.compactMap { target in
            guard var result = results[Key(host: target.fetchHost, mode: target.mode)] else { return nil }
            result.report.host = target.host
            return result
        }
    }

    /// Checks one target: origin, user agents, CDN, comparison.
    public func check(_ target: AASAFetchTarget) async -> AASASiteResult {
        let host = target.fetchHost
        var report = AASASiteReport(host: target.host, fetchHost: host, mode: target.mode)
        guard Self.isFetchableHost(host) else {
            report.findings = [
                ServingRules.invalidHost.finding(
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
            report.findings = [
                ServingRules.unreachable.finding("no network fetcher was configured", domain: host)
            ]
            return AASASiteResult(report: report)
        }
        async let cdnPart = lookUpCDN(target, fetcher: fetcher)
        let origin = await fetchOrigin(target, fetcher: fetcher)
        let cdn = await cdnPart

        report.origin = origin.observation
        report.userAgents = origin.userAgents
        var findings = origin.findings
        var result = AASASiteResult(report: report, origin: origin.document)
        if let cdn {
            result.report.cdn = cdn.observation
            findings += cdn.findings
            if let copy = cdn.document {
                result.cdn = copy
                if let served = origin.document {
                    let differences = AASAAppIDDifference.between(origin: served.document, cdn: copy.document)
                    result.report.cdnDifferences = differences
                    findings += compareFindings(differences, host: host, cdn: cdn.observation)
                } else {
                    // The origin has no usable file (error status, failure, or an unusable body): devices live on the CDN copy.
                    findings.append(
                        CDNRules.servingDespiteOriginFailure.finding(
                            "Apple's CDN still serves a copy (\(cdn.observation.summary)) but the origin has no usable file now",
                            domain: host,
                            url: cdn.observation.url
                        )
                    )
                }
            }
        } else if target.mode != nil {
            findings.append(
                CDNRules.skippedForMode.finding(
                    "mode=\(target.mode?.rawValue ?? "") entries are fetched by devices directly from the origin",
                    domain: host
                )
            )
        }
        result.report.findings = findings.sorted()
        return result
    }

    /// Records which serving and CDN rules a run with `options` carries out, and why the others are not.
    public static func recordCoverage(options: FetchOptions, into coverage: inout RuleCoverage) {
        if options.isOffline {
            coverage.ran(ServingRules.offline)
            coverage.skip(
                ServingRules.all,
                because: "offline (--offline): files were read from --aasa-dir, so how each host serves its file "
                    + "was not checked"
            )
            coverage.skip(CDNRules.all, because: "offline (--offline): Apple's CDN was not asked")
            return
        }
        coverage.ran(ServingRules.all.filter { $0 != ServingRules.offlineMissing })
        coverage.skip([ServingRules.offlineMissing], because: "only with --offline")
        if options.skipCDN {
            coverage.skip(CDNRules.all, because: "--no-cdn: Apple's CDN was not asked")
        } else {
            coverage.ran(CDNRules.all)
        }
    }

    // MARK: - Origin

    private struct OriginPart {
        var observation: OriginObservation?
        var userAgents: [UserAgentObservation] = []
        var findings: [Finding] = []
        var document: ParsedAASA?
    }

    private func request(_ url: URL, userAgent: String) -> FetchRequest {
        FetchRequest(
            url: url,
            headers: [HTTPHeaderField("User-Agent", userAgent), HTTPHeaderField("Accept", "*/*")],
            timeout: options.timeout,
            bodyLimit: options.bodyLimit
        )
    }

    private func fetchOrigin(_ target: AASAFetchTarget, fetcher: any HTTPFetching) async -> OriginPart {
        let host = target.fetchHost
        var part = OriginPart()
        guard let wellKnown = URL(string: "https://\(host)/.well-known/apple-app-site-association"),
            let root = URL(string: "https://\(host)/apple-app-site-association")
        else {
            part.findings = [ServingRules.invalidHost.finding("cannot build a URL for '\(host)'", domain: host)]
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
                    ServingRules.rootOnly.finding(
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
                    ServingRules.notFound.finding(
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
            part.findings += comparison.findings
        }
        return part
    }

    /// Judges the answer for the file's URL: status, Content-Type, size, encoding, speed, JSON.
    private func judge(
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
                ServingRules.redirect.finding(
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
                ServingRules.badStatus.finding(
                    "\(url) answers \(response.status): " + Self.explain(status: response.status),
                    domain: host,
                    url: url
                )
            )
            return (findings, nil)
        }

        if response.elapsed > Self.cdnOriginTimeout {
            findings.append(
                ServingRules.slow.finding(
                    "\(url) took \(Self.format(response.elapsed.seconds)) s; Apple's CDN gives up after about 5 s",
                    domain: host,
                    url: url
                )
            )
        }
        if let encoding = response.header("Content-Encoding"), encoding.lowercased() != "identity" {
            findings.append(
                ServingRules.compressed.finding(
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
                ServingRules.exceedsFetchLimit.finding(
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
                ServingRules.tooLarge.finding(
                    "\(url) is \(response.body.count) bytes, more than Apple's \(Self.appleSizeLimit)",
                    domain: host,
                    url: url
                )
            )
        }
        let isCMS = AASABody.looksLikeCMS(response.body)
        findings += judgeContentType(response.header("Content-Type"), isCMS: isCMS, host: host, url: url)
        switch AASABody.read(response.body) {
        case .success(let parsed):
            return (findings, parsed)
        case .failure(let problem):
            if let html = findings.firstIndex(where: { $0.rule == ServingRules.htmlContentType.id }) {
                // One cause, one finding: an HTML page was served instead of the file.
                findings[html].message += "; the body is not JSON either (\(problem.message))"
            } else {
                findings.append(
                    ServingRules.notJSON.finding(
                        "\(url) is not a usable AASA file: \(problem)",
                        domain: host,
                        url: url
                    )
                )
            }
            return (findings, nil)
        }
    }

    private func judgeContentType(_ header: String?, isCMS: Bool, host: String, url: String) -> [Finding] {
        let mediaType =
            header?.split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch mediaType {
        case "application/json":
            return []
        case "application/pkcs7-mime":
            if isCMS { return [] }
            return [
                ServingRules.signedMismatch.finding(
                    "\(url) is served as application/pkcs7-mime but its body is not CMS",
                    domain: host,
                    url: url
                )
            ]
        case "text/html", "application/xhtml+xml":
            return [
                ServingRules.htmlContentType.finding(
                    "\(url) is served as \(header ?? mediaType): probably an HTML page instead of the file",
                    domain: host,
                    url: url
                )
            ]
        case "":
            return [ServingRules.looseContentType.finding("\(url) has no Content-Type", domain: host, url: url)]
        default:
            return [
                ServingRules.looseContentType.finding(
                    "\(url) is served as \(header ?? mediaType), not application/json",
                    domain: host,
                    url: url
                )
            ]
        }
    }

    private static func explain(status: Int) -> String {
        switch status {
        case 401: "the server asks for authentication; Apple's fetchers send none"
        case 403:
            "access is forbidden to this client; Apple's fetchers must be allowed from any IP address and country, "
                + "with user agents AASA-Bot and CFNetwork (TN3155)"
        case 429: "the server rate-limits this client; Apple's fetchers may be throttled the same way"
        case 500..<600: "the server fails; Apple's CDN caches this failure"
        default: "Apple accepts only 200"
        }
    }

    // MARK: - User agents

    private func compareUserAgents(
        primaryAgent: String,
        primary: FetchResponse,
        url: URL,
        host: String,
        fetcher: any HTTPFetching
    ) async -> (observations: [UserAgentObservation], findings: [Finding]) {
        let otherApple = primaryAgent == Self.cdnUserAgent ? Self.deviceUserAgent : Self.cdnUserAgent
        async let appleOutcome = fetcher.fetch(request(url, userAgent: otherApple))
        async let browserOutcome = fetcher.fetch(request(url, userAgent: Self.browserUserAgent))
        let apple = await appleOutcome
        let browser = await browserOutcome

        func observe(_ agent: String, isApple: Bool, _ outcome: FetchOutcome) -> UserAgentObservation {
            switch outcome {
            case .response(let response):
                UserAgentObservation(
                    userAgent: agent,
                    isApple: isApple,
                    status: response.status,
                    bodyBytes: response.body.count
                )
            case .failure(let failure):
                UserAgentObservation(userAgent: agent, isApple: isApple, failure: failure)
            }
        }
        let observations = [
            observe(otherApple, isApple: true, apple), observe(Self.browserUserAgent, isApple: false, browser),
        ]
        guard case .response(let browserResponse) = browser, browserResponse.status == 200 else {
            return (observations, [])
        }
        var findings: [Finding] = []
        for (agent, outcome) in [(primaryAgent, FetchOutcome.response(primary)), (otherApple, apple)] {
            switch outcome {
            case .failure(let failure):
                findings.append(
                    ServingRules.userAgentBlocked.finding(
                        "\(url.absoluteString): a browser gets 200 but user agent '\(agent)' fails "
                            + "(\(failure.detail))",
                        domain: host,
                        url: url.absoluteString
                    )
                )
            case .response(let response) where response.status != 200:
                findings.append(
                    ServingRules.userAgentBlocked.finding(
                        "\(url.absoluteString): a browser gets 200 but user agent '\(agent)' gets \(response.status)",
                        domain: host,
                        url: url.absoluteString
                    )
                )
            case .response(let response):
                if !AASABody.sameMeaning(response.body, browserResponse.body) {
                    findings.append(
                        ServingRules.userAgentBodyDiffers.finding(
                            "\(url.absoluteString): user agent '\(agent)' gets a different document than a browser "
                                + "(\(response.body.count) vs \(browserResponse.body.count) bytes)",
                            domain: host,
                            url: url.absoluteString
                        )
                    )
                }
            }
        }
        return (observations, findings)
    }

    // MARK: - CDN

    private struct CDNPart {
        var observation: CDNObservation
        var findings: [Finding]
        var document: ParsedAASA?
    }

    private func lookUpCDN(_ target: AASAFetchTarget, fetcher: any HTTPFetching) async -> CDNPart? {
        guard target.usesCDN, !options.skipCDN, let base = options.cdnBase else { return nil }
        let host = target.fetchHost
        var text = base.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        guard let url = URL(string: text + host) else { return nil }
        let outcome = await fetcher.fetch(request(url, userAgent: "ipacheck"))
        let observation = CDNObservation(url: url.absoluteString, outcome: outcome)
        var part = CDNPart(observation: observation, findings: [])
        let wellKnown = "https://\(host)/.well-known/apple-app-site-association"
        if let from = observation.from, from != wellKnown {
            part.findings.append(
                CDNRules.fetchedElsewhere.finding(
                    "Apple's CDN fetched \(from), not \(wellKnown)",
                    domain: host,
                    url: url.absoluteString
                )
            )
        }
        switch outcome {
        case .failure(let failure):
            part.findings.append(
                CDNRules.unavailable.finding(
                    "\(url.absoluteString) could not be fetched: \(failure.detail)",
                    domain: host,
                    url: url.absoluteString
                )
            )
        case .response(let response) where response.status == 200:
            if response.bodyTruncated {
                part.findings.append(
                    CDNRules.unavailable.finding(
                        "Apple's CDN copy is larger than the body cap (\(response.body.count) bytes)",
                        domain: host,
                        url: url.absoluteString
                    )
                )
                break
            }
            switch AASABody.read(response.body) {
            case .success(let parsed):
                part.document = parsed
            case .failure(let problem):
                part.findings.append(
                    CDNRules.unavailable.finding(
                        "Apple's CDN copy does not parse: \(problem)",
                        domain: host,
                        url: url.absoluteString
                    )
                )
            }
        case .response(let response) where response.status == 404 || observation.failureReason != nil:
            let reason = observation.failureReason
            part.findings.append(
                CDNRules.noCopy.finding(
                    "Apple's CDN has no copy of \(host)'s file: \(observation.summary)",
                    domain: host,
                    url: url.absoluteString,
                    fix: reason?.advice.replacingOccurrences(of: "HOST", with: host)
                )
            )
        case .response(let response):
            part.findings.append(
                CDNRules.unavailable.finding(
                    "Apple's CDN answered \(response.status) for \(host)"
                        + (response.status == 405 ? " (it answers 405 for names it cannot use)" : ""),
                    domain: host,
                    url: url.absoluteString
                )
            )
        }
        return part
    }

    private func compareFindings(
        _ differences: [AASAAppIDDifference],
        host: String,
        cdn: CDNObservation
    ) -> [Finding] {
        guard !differences.isEmpty else {
            var message = "Apple's CDN copy means the same as the origin's file"
            if let fresh = cdn.freshForSeconds { message += " (this answer is fresh for \(fresh) more seconds)" }
            return [CDNRules.current.finding(message, domain: host, url: cdn.url)]
        }
        return differences.map {
            CDNRules.stale.finding($0.detail, domain: host, url: cdn.url, location: "\($0.service):\($0.appID)")
        }
    }

    // MARK: - Offline

    private func readOffline(_ target: AASAFetchTarget, directory: URL, report: AASASiteReport) -> AASASiteResult {
        var report = report
        let host = target.fetchHost
        let file = directory.appendingPathComponent(host).appendingPathComponent("apple-app-site-association")
        let outcome: FetchOutcome
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            // One byte past the cap tells a file at the cap from a longer one (the cap is a settable property).
            let limit = min(max(1, options.bodyLimit), Int.max - 1)
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            let truncated = data.count > limit
            outcome = .response(
                FetchResponse(
                    status: 200,
                    headers: [],
                    body: Array(data.prefix(limit)),
                    bodyTruncated: truncated
                )
            )
        } catch {
            report.origin = OriginObservation(
                url: file.relativePath,
                location: .offlineFile,
                userAgent: nil,
                outcome: .failure(FetchFailure(.offline, "\(error)"))
            )
            report.findings = [
                ServingRules.offlineMissing.finding(
                    "cannot read \(file.relativePath)",
                    domain: host,
                    location: file.relativePath
                )
            ]
            return AASASiteResult(report: report)
        }
        report.origin = OriginObservation(
            url: file.relativePath,
            location: .offlineFile,
            userAgent: nil,
            outcome: outcome
        )
        guard case .response(let response) = outcome else { return AASASiteResult(report: report) }
        var findings: [Finding] = []
        var parsedFile: ParsedAASA?
        if response.bodyTruncated {
            findings.append(
                ServingRules.exceedsFetchLimit.finding(
                    "\(file.relativePath) is larger than the \(options.bodyLimit)-byte cap",
                    domain: host,
                    location: file.relativePath
                )
            )
        } else {
            if response.body.count > Self.appleSizeLimit {
                findings.append(
                    ServingRules.tooLarge.finding(
                        "\(file.relativePath) is \(response.body.count) bytes, more than Apple's \(Self.appleSizeLimit)",
                        domain: host,
                        location: file.relativePath
                    )
                )
            }
            switch AASABody.read(response.body) {
            case .success(let parsed):
                parsedFile = parsed
            case .failure(let problem):
                findings.append(
                    ServingRules.notJSON.finding(
                        "\(file.relativePath) is not a usable AASA file: \(problem)",
                        domain: host,
                        location: file.relativePath
                    )
                )
            }
        }
        report.findings = findings.sorted()
        return AASASiteResult(report: report, origin: parsedFile)
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

/// A host's report plus the files read, parsed once here for live `match`, `check` and `explain`.
public struct AASASiteResult: Sendable {
    /// The judged report.
    public var report: AASASiteReport
    /// The origin's file (status 200, within the cap and parseable), or `nil`.
    public var origin: ParsedAASA?
    /// Apple's CDN copy (status 200, within the cap and parseable), or `nil`.
    public var cdn: ParsedAASA?

    /// Creates a result.
    public init(report: AASASiteReport, origin: ParsedAASA? = nil, cdn: ParsedAASA? = nil) {
        self.report = report
        self.origin = origin
        self.cdn = cdn
    }

    /// The origin's file bytes.
    public var originBody: [UInt8]? { origin?.body }
    /// The CDN copy's bytes.
    public var cdnBody: [UInt8]? { cdn?.body }
}

/// An AASA file that parsed: its bytes, the document, and what the parser noticed (BOM, duplicate keys, signing).
public struct ParsedAASA: Sendable {
    /// The bytes as served.
    public let body: [UInt8]
    /// The parsed document.
    public let document: AASADocument
    /// The parser's findings about the encoding.
    public let findings: [Finding]
}
