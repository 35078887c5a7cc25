import Foundation
import IPACheckFetching
import IPACheckGate
import IPACheckLinks
import IPACheckReport
import IPACheckSites
import IPACheckTestSupport
import Testing

/// For the live-fetch rules: each `SERVE` and `CDN` rule below is made to fire once and kept quiet once on
/// the closest valid input, through an in-memory web (no network, no clock).
///
/// By default `example.com` serves a valid file at `.well-known` to every user agent and Apple's CDN holds the same
/// file, fetched from that URL; each test changes one answer. Expected outcomes follow the rules' definitions
/// (`ServingRules`, `CDNRules`) and docs/ios-model.md, copy.
@Suite struct ServingRuleTests {
    static let host = "example.com"
    static let wellKnownURL = "https://example.com/.well-known/apple-app-site-association"
    static let rootURL = "https://example.com/apple-app-site-association"
    /// Apple's public CDN lookup URL for the host (docs/configuration.md, `--cdn-url`: `…/a/v1/<domain>`).
    static let cdnURL = "https://app-site-association.cdn-apple.com/a/v1/example.com"

    /// A valid modern file (docs/matching.md): one app ID with a 10-character team prefix, one component.
    static let goodFile = """
        {"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/buy/*"}]}]}}
        """
    /// `goodFile` re-serialized: other spacing and line breaks, the same document.
    static let reserializedGoodFile = """
        {
          "applinks" : {
            "details" : [ { "appIDs" : [ "ABCDE12345.com.example.app" ], "components" : [ { "/" : "/buy/*" } ] } ]
          }
        }
        """
    /// A valid file that associates another app: a different document from `goodFile`.
    static let otherAppFile = """
        {"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.other"],"components":[{"/":"/buy/*"}]}]}}
        """

    // MARK: - Baseline

    @Test func validSiteRaisesOnlyTheCDNMatchNote() async {
        let report = await check(Web.site()).report
        // CDN003 says the CDN copy means the same as the origin's file; nothing is wrong with this site.
        #expect(report.findings.map(\.rule) == ["CDN003"], "\(report.dump)")
        #expect(report.origin?.status == 200)
        #expect(report.cdn?.status == 200)
    }

    // MARK: - CDN006 servingDespiteOriginFailure

    @Test(
        "CDN006 fires when the origin fails but the CDN still serves a copy",
        arguments: [
            ServingRuleTests.status(503), ServingRuleTests.status(404),
            .failure(FetchFailure(.connectionRefused, "refused")),
            .failure(FetchFailure(.tlsExpired, "certificate expired")),
            // A 200 whose body is an SPA's HTML page: the origin has no usable file either.
            .response(
                FetchResponse(
                    status: 200,
                    headers: [HTTPHeaderField("Content-Type", "text/html")],
                    body: Array("<!doctype html><html></html>".utf8)
                )
            ),
        ] as [FetchOutcome]
    )
    func cdn006Fires(origin: FetchOutcome) async throws {
        // With 404 the root path answers 404 too (the web has no route for it): the file is not found at all.
        let report = await check(Web.site(wellKnown: { _ in origin })).report
        let finding = try #require(report.findings.first { $0.rule == "CDN006" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
        #expect(finding.severity == .warning)
        #expect(finding.url == Self.cdnURL)
    }

    @Test("CDN006 is quiet when the origin serves the file the CDN holds")
    func cdn006QuietWhenOriginWorks() async {
        let report = await check(Web.site()).report
        #expect(!report.ruleIDs.contains("CDN006"), "\(report.dump)")
        #expect(report.ruleIDs.contains("CDN003"))
    }

    @Test("CDN006 is quiet when the origin fails and the CDN has no copy either")
    func cdn006QuietWhenCDNHasNoCopy() async {
        let cdn = Self.cdnNoCopy(reason: "SWCERR00101 Bad HTTP Response: 503 Service Unavailable")
        let report = await check(Web.site(wellKnown: { _ in Self.status(503) }, cdn: cdn)).report
        #expect(!report.ruleIDs.contains("CDN006"), "\(report.dump)")
        #expect(report.ruleIDs.contains("CDN001"))
    }

    // MARK: - CDN004 unavailable

    /// CDN004's definition: the CDN lookup failed, or answered something that is neither a file nor a documented
    /// failure (a status without Apple's failure headers, such as the 405 it gives names it cannot use; a 200 that
    /// does not parse).
    @Test(
        "CDN004 fires when Apple's CDN cannot be checked",
        arguments: [
            .failure(FetchFailure(.connectionRefused, "refused")),
            .failure(FetchFailure(.timeout, "timed out")),
            ServingRuleTests.status(405),
            ServingRuleTests.status(500),
            ServingRuleTests.file("<!doctype html><html></html>"),
        ] as [FetchOutcome]
    )
    func cdn004Fires(cdn: FetchOutcome) async throws {
        let report = await check(Web.site(cdn: cdn)).report
        let finding = try #require(report.findings.first { $0.rule == "CDN004" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
        #expect(finding.severity == .warning)
        #expect(finding.url == Self.cdnURL)
        // Not checked is not "no copy": CDN001 is for the CDN's own documented "no copy" answer.
        #expect(!report.ruleIDs.contains("CDN001"), "\(report.dump)")
    }

    @Test("CDN004 is quiet when the CDN serves a copy, or says in its headers why it has none")
    func cdn004Quiet() async {
        let served = await check(Web.site()).report
        #expect(!served.ruleIDs.contains("CDN004"), "\(served.dump)")
        let noCopy = Self.cdnNoCopy(reason: "SWCERR00101 Bad HTTP Response: 404 Not Found")
        let documented = await check(Web.site(cdn: noCopy)).report
        #expect(!documented.ruleIDs.contains("CDN004"), "\(documented.dump)")
        #expect(documented.ruleIDs.contains("CDN001"))
    }

    // MARK: - CDN007 fetchedElsewhere

    @Test(
        "CDN007 fires when Apple-From names another URL than the host's .well-known URL",
        arguments: [ServingRuleTests.rootURL, "https://www.example.com/.well-known/apple-app-site-association"]
    )
    func cdn007Fires(appleFrom: String) async throws {
        let report = await check(Web.site(cdn: Self.cdnCopy(Self.goodFile, from: appleFrom))).report
        let finding = try #require(report.findings.first { $0.rule == "CDN007" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
        #expect(finding.severity == .note)
    }

    @Test(
        "CDN007 is quiet when Apple-From is the .well-known URL, or absent",
        arguments: [ServingRuleTests.wellKnownURL, nil] as [String?]
    )
    func cdn007Quiet(appleFrom: String?) async {
        let report = await check(Web.site(cdn: Self.cdnCopy(Self.goodFile, from: appleFrom))).report
        #expect(!report.ruleIDs.contains("CDN007"), "\(report.dump)")
        #expect(report.cdn?.from == appleFrom)
    }

    // MARK: - SERVE005 tls

    @Test(
        "SERVE005 fires for every kind of refused certificate",
        arguments: [FetchFailure.Kind.tlsUntrusted, .tlsHostnameMismatch, .tlsExpired, .tlsHandshake]
    )
    func serve005Fires(kind: FetchFailure.Kind) async throws {
        let web = Web.site(wellKnown: { _ in .failure(FetchFailure(kind, "handshake refused")) })
        let report = await check(web).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE005" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
        #expect(finding.severity == .error)
        // A TLS refusal reached the host: it is not "unreachable".
        #expect(!report.ruleIDs.contains("SERVE007"))
    }

    @Test("?mode=developer, where devices accept an untrusted certificate, gets the warning SERVE008 instead")
    func serve005WarnsInDeveloperMode() async throws {
        let web = Web.site(wellKnown: { _ in .failure(FetchFailure(.tlsUntrusted, "self-signed")) })
        let report = await check(web, AASAFetchTarget(host: Self.host, mode: .developer)).report
        #expect(!report.ruleIDs.contains("SERVE005"))
        let finding = try #require(report.findings.first { $0.rule == "SERVE008" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
        #expect(finding.severity == .warning)
    }

    @Test("SERVE005 is quiet when the certificate is accepted")
    func serve005Quiet() async {
        let report = await check(Web.site()).report
        #expect(!report.ruleIDs.contains("SERVE005"), "\(report.dump)")
        #expect(report.origin?.status == 200)
    }

    // MARK: - SERVE007 unreachable

    @Test(
        "SERVE007 fires when the name does not resolve, the connection is refused or there is no route",
        arguments: [FetchFailure.Kind.dnsFailure, .connectionRefused, .networkUnreachable]
    )
    func serve007Fires(kind: FetchFailure.Kind) async throws {
        let report = await check(Web.site(wellKnown: { _ in .failure(FetchFailure(kind, "no answer")) })).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE007" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
        #expect(finding.severity == .error)
        #expect(!report.ruleIDs.contains("SERVE005"))
        // DNS is blamed only when the name did not resolve.
        #expect(finding.fix?.contains("DNS records") == (kind == .dnsFailure), "\(finding.fix ?? "")")
    }

    @Test("SERVE007 is quiet when the host answers")
    func serve007Quiet() async {
        let report = await check(Web.site()).report
        #expect(!report.ruleIDs.contains("SERVE007"), "\(report.dump)")
        #expect(report.origin?.status == 200)
    }

    // MARK: - SERVE009 oldTLS

    @Test("SERVE009 fires when the file came over TLS 1.0 or 1.1", arguments: [TLSProtocolVersion.tlsv1, .tlsv11])
    func serve009Fires(version: TLSProtocolVersion) async throws {
        let report = await check(Web.site(wellKnown: { _ in Self.file(Self.goodFile, tlsVersion: version) })).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE009" }, "\(report.dump)")
        #expect(finding.severity == .warning)
        #expect(finding.message.contains(version.rawValue))
        #expect(report.origin?.tlsVersion == version)
        // The file was read all the same, and it matches the CDN's copy.
        #expect(report.ruleIDs.contains("CDN003"))
    }

    @Test(
        "SERVE009 is quiet for TLS 1.2 and 1.3, and when the version is not known",
        arguments: [TLSProtocolVersion.tlsv12, .tlsv13, nil]
    )
    func serve009Quiet(version: TLSProtocolVersion?) async {
        let report = await check(Web.site(wellKnown: { _ in Self.file(Self.goodFile, tlsVersion: version) })).report
        #expect(!report.ruleIDs.contains("SERVE009"), "\(report.dump)")
    }

    // MARK: - SERVE023 brokenAnswer

    @Test(
        "SERVE023 fires, without blaming DNS, when the answer is reset, cut short, flooded or not HTTP",
        arguments: [FetchFailure.Kind.connectionReset, .truncatedBody, .oversizeHeaders, .malformedResponse]
    )
    func serve023Fires(kind: FetchFailure.Kind) async throws {
        let failure = FetchFailure(kind, "what the server did")
        let report = await check(Web.site(wellKnown: { _ in .failure(failure) })).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE023" }, "\(report.dump)")
        #expect(finding.severity == .error)
        #expect(finding.message.contains(kind.summary) && finding.message.contains("what the server did"))
        #expect(!report.ruleIDs.contains("SERVE007"), "a host that answered is not unreachable")
        #expect(!(finding.fix ?? "").contains("DNS"))
    }

    @Test("SERVE023 is quiet when the answer is whole, even when its status is an error")
    func serve023Quiet() async {
        for outcome in [Self.file(Self.goodFile), Self.status(500)] {
            let report = await check(Web.site(wellKnown: { _ in outcome })).report
            #expect(!report.ruleIDs.contains("SERVE023"), "\(report.dump)")
        }
    }

    // MARK: - SERVE012 signedMismatch

    @Test(
        "SERVE012 fires when application/pkcs7-mime announces a JSON body",
        arguments: ["application/pkcs7-mime", "application/pkcs7-mime; smime-type=signed-data"]
    )
    func serve012Fires(contentType: String) async throws {
        let web = Web.site(wellKnown: { _ in Self.file(Self.goodFile, contentType: contentType) })
        let report = await check(web).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE012" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
        #expect(finding.severity == .error)
    }

    @Test("SERVE012 is quiet for the JSON file served as application/json")
    func serve012QuietForJSON() async {
        let report = await check(Web.site(wellKnown: { _ in Self.file(Self.goodFile) })).report
        #expect(!report.ruleIDs.contains("SERVE012"), "\(report.dump)")
        #expect(report.origin?.status == 200)
    }

    @Test(
        "SERVE012 is quiet for a CMS-signed file served as application/pkcs7-mime",
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus")
    )
    func serve012QuietForSignedFile() async throws {
        // MANIFEST: a real CMS/PKCS#7-signed AASA whose payload carries applinks after unwrapping.
        let signed = try [UInt8](Data(contentsOf: Corpus.url("aasa/knil_Facebook-signed-AASA.p7")))
        let answer = FetchOutcome.response(
            FetchResponse(
                status: 200,
                headers: [HTTPHeaderField("Content-Type", "application/pkcs7-mime")],
                body: signed
            )
        )
        let report = await check(Web.site(wellKnown: { _ in answer }), options: FetchOptions(skipCDN: true)).report
        #expect(!report.ruleIDs.contains("SERVE012"), "\(report.dump)")
        #expect(!report.ruleIDs.contains("SERVE050"), "the signed payload should be read")
    }

    // MARK: - SERVE022 exceedsFetchLimit

    /// The body cap for the SERVE022 tests, far below the default so that the bodies stay small.
    static let smallCap = 2048

    @Test("SERVE022 fires when the server sends one byte more than the fetch cap")
    func serve022FiresPastTheCap() async throws {
        let body = Self.padded(Self.goodFile, to: Self.smallCap + 1)
        let web = Web.site(wellKnown: { _ in Self.file(body) })
        let report = await check(web, options: FetchOptions(bodyLimit: Self.smallCap)).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE022" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
        #expect(finding.severity == .error)
    }

    @Test("SERVE022 fires when the fetcher gives up on an oversize answer")
    func serve022FiresOnTooLargeFailure() async throws {
        let failure = FetchFailure(.tooLarge, "the decompressed body exceeds the cap")
        let report = await check(Web.site(wellKnown: { _ in .failure(failure) })).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE022" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
    }

    @Test("SERVE022 is quiet when the body is exactly the fetch cap")
    func serve022QuietAtTheCap() async {
        let body = Self.padded(Self.goodFile, to: Self.smallCap)
        let web = Web.site(wellKnown: { _ in Self.file(body) })
        let result = await check(web, options: FetchOptions(bodyLimit: Self.smallCap))
        #expect(!result.report.ruleIDs.contains("SERVE022"), "\(result.report.dump)")
        // Read whole: JSON allows trailing white space, so the padded file is still the good file.
        #expect(result.originBody?.count == Self.smallCap)
    }

    // MARK: - SERVE031 userAgentBodyDiffers

    @Test(
        "SERVE031 fires when one of Apple's user agents gets another document than a browser",
        arguments: ["AASA-Bot", "CFNetwork"]
    )
    func serve031Fires(differingAgent: String) async throws {
        let web = Web.site(wellKnown: { agent in
            Self.file(agent.contains(differingAgent) ? Self.otherAppFile : Self.goodFile)
        })
        let report = await check(web).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE031" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
        #expect(finding.severity == .warning)
        #expect(finding.message.contains(differingAgent))
    }

    @Test("SERVE031 is quiet when the browser gets the same document, serialized differently")
    func serve031QuietForSameDocument() async {
        let web = Web.site(wellKnown: { agent in
            let isApple = agent.contains("AASA-Bot") || agent.contains("CFNetwork")
            return Self.file(isApple ? Self.goodFile : Self.reserializedGoodFile)
        })
        let report = await check(web).report
        #expect(!report.ruleIDs.contains("SERVE031"), "\(report.dump)")
        #expect(!report.ruleIDs.contains("SERVE030"))
        #expect(report.userAgents.count == 3)
    }

    // MARK: - SERVE032 arbitraryAgentRefused

    @Test(
        "SERVE032 fires when only Apple's agents and browsers are allowed: TN3155 asks for every user agent",
        arguments: [403, 404]
    )
    func serve032Fires(status: Int) async throws {
        // An allow-list: Apple's two fetchers and browsers get the file, any other agent is refused.
        let web = Web.site(wellKnown: { agent in
            let allowed = ["AASA-Bot", "CFNetwork", "Mozilla"].contains { agent.contains($0) }
            return allowed ? Self.file(Self.goodFile) : .response(FetchResponse(status: status, headers: [], body: []))
        })
        let report = await check(web).report
        #expect(report.findings.filter { $0.rule.hasPrefix("SERVE") }.map(\.rule) == ["SERVE032"], "\(report.dump)")
        let finding = try #require(report.findings.first { $0.rule == "SERVE032" })
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("'\(AASASiteFetcher.arbitraryUserAgent)'"))
        #expect(finding.message.contains("\(status)"))
        #expect(report.userAgents.map(\.userAgent).contains(AASASiteFetcher.arbitraryUserAgent))
    }

    @Test("SERVE032 is quiet when every agent gets the file, and gives way to SERVE030 when Apple's are refused too")
    func serve032QuietOrFolded() async throws {
        let open = await check(Web.site(wellKnown: { _ in Self.file(Self.goodFile) })).report
        #expect(!open.ruleIDs.contains("SERVE032"), "\(open.dump)")
        #expect(open.userAgents.allSatisfy { $0.status == 200 })

        // Only browsers get through: one cause, one finding naming every refused agent.
        let browsersOnly = Web.site(wellKnown: { agent in
            agent.contains("Mozilla")
                ? Self.file(Self.goodFile) : .response(FetchResponse(status: 403, headers: [], body: []))
        })
        let report = await check(browsersOnly).report
        #expect(report.ruleIDs.contains("SERVE030"), "\(report.dump)")
        #expect(!report.ruleIDs.contains("SERVE032"), "\(report.dump)")
        let blocked = try #require(report.findings.first { $0.rule == "SERVE030" })
        #expect(blocked.message.contains(AASASiteFetcher.arbitraryUserAgent))
        #expect(blocked.fix?.contains("Allow user agent") == false, "TN3155: never advise an allow-list")
    }

    // MARK: - SERVE040 slow

    @Test(
        "SERVE040 fires when the origin answers later than the CDN's ~5 s fetch timeout",
        arguments: [Duration.seconds(7), .seconds(9)]
    )
    func serve040Fires(elapsed: Duration) async throws {
        let report = await check(Web.site(wellKnown: { _ in Self.file(Self.goodFile, elapsed: elapsed) })).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE040" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
        #expect(finding.severity == .warning)
        // The answer came, within ipacheck's own timeout: slow, not timed out.
        #expect(!report.ruleIDs.contains("SERVE006"))
    }

    @Test("SERVE040 is quiet when the origin answers well within 5 s", arguments: [Duration.zero, .seconds(3)])
    func serve040Quiet(elapsed: Duration) async {
        let report = await check(Web.site(wellKnown: { _ in Self.file(Self.goodFile, elapsed: elapsed) })).report
        #expect(!report.ruleIDs.contains("SERVE040"), "\(report.dump)")
        #expect(report.origin?.status == 200)
    }

    // MARK: - SERVE050 notJSON

    @Test(
        "SERVE050 fires when a 200 application/json body is not a JSON object",
        arguments: [
            String(ServingRuleTests.goodFile.dropLast()),  // cut short
            "[" + ServingRuleTests.goodFile + "]",  // an array, not an object
            "Not Found",  // an error text with status 200
            "",  // empty
        ]
    )
    func serve050Fires(body: String) async throws {
        let report = await check(Web.site(wellKnown: { _ in Self.file(body) })).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE050" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
        #expect(finding.severity == .error)
    }

    @Test("SERVE050 is quiet for a valid JSON object")
    func serve050Quiet() async {
        let result = await check(Web.site(wellKnown: { _ in Self.file(Self.goodFile) }))
        #expect(!result.report.ruleIDs.contains("SERVE050"), "\(result.report.dump)")
        #expect(result.originBody == Array(Self.goodFile.utf8))
    }

    // MARK: - SERVE061 invalidHost

    @Test(
        "SERVE061 fires, without a request, for an empty host or one with a scheme, port, path, query or space",
        arguments: [
            "", "https://example.com", "example.com:8443", "example.com/path", "example.com?x=1", "exa mple.com",
        ]
    )
    func serve061Fires(host: String) async throws {
        let web = Web.site()
        let report = await check(web, AASAFetchTarget(host: host)).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE061" }, "\(report.dump)")
        // The finding names the host as the entry gives it (these are lower case, with no `*.` or trailing dot).
        #expect(finding.domain == host)
        #expect(finding.severity == .error)
        #expect(await web.log.urls.isEmpty, "a host that cannot be fetched must not be fetched")
    }

    @Test("SERVE061 fires when the HTTP client refuses the URL")
    func serve061FiresOnInvalidRequest() async throws {
        let web = Web.site(wellKnown: { _ in .failure(FetchFailure(.invalidRequest, "the client refused the URL")) })
        let report = await check(web).report
        let finding = try #require(report.findings.first { $0.rule == "SERVE061" }, "\(report.dump)")
        #expect(finding.domain == Self.host)
    }

    @Test(
        "SERVE061 is quiet for fetchable hosts: a plain name, a wildcard (its apex), a trailing dot, punycode",
        arguments: [
            ("example.com", "example.com"), ("*.example.com", "example.com"), ("example.com.", "example.com"),
            ("xn--bcher-kva.example", "xn--bcher-kva.example"),
        ]
    )
    func serve061Quiet(host: String, fetchHost: String) async {
        let web = Web.site(fetchHost)
        let report = await check(web, AASAFetchTarget(host: host)).report
        #expect(!report.ruleIDs.contains("SERVE061"), "\(report.dump)")
        #expect(
            await web.log.urls.contains("https://\(fetchHost)/.well-known/apple-app-site-association"),
            "the host's file should have been fetched"
        )
    }

    // MARK: - Helpers

    private func check(
        _ web: Web,
        _ target: AASAFetchTarget = AASAFetchTarget(host: ServingRuleTests.host),
        options: FetchOptions = FetchOptions()
    ) async -> AASASiteResult {
        await AASASiteFetcher(fetcher: web, options: options).checkAndJudge([target])[0]
    }

    /// A 200 answer with `body`.
    static func file(
        _ body: String,
        contentType: String = "application/json",
        elapsed: Duration = .zero,
        tlsVersion: TLSProtocolVersion? = nil
    ) -> FetchOutcome {
        .response(
            FetchResponse(
                status: 200,
                headers: [HTTPHeaderField("Content-Type", contentType)],
                body: Array(body.utf8),
                elapsed: elapsed,
                tlsVersion: tlsVersion
            )
        )
    }

    /// An answer with status `code` and an empty body.
    static func status(_ code: Int) -> FetchOutcome {
        .response(FetchResponse(status: code, headers: [HTTPHeaderField("Content-Type", "text/plain")], body: []))
    }

    /// Apple's CDN answering with its copy (docs/ios-model.md, copy: 200, `Apple-From`, `Apple-Origin-Format: json`).
    static func cdnCopy(_ body: String, from: String? = wellKnownURL) -> FetchOutcome {
        var headers = [
            HTTPHeaderField("Content-Type", "application/json"), HTTPHeaderField("Apple-Origin-Format", "json"),
            HTTPHeaderField("Cache-Control", "public, max-age=3600"),
        ]
        if let from { headers.append(HTTPHeaderField("Apple-From", from)) }
        return .response(FetchResponse(status: 200, headers: headers, body: Array(body.utf8)))
    }

    /// Apple's CDN without a copy (docs/ios-model.md, copy: 404, body `Not Found`, `Apple-Failure-Reason`).
    static func cdnNoCopy(reason: String) -> FetchOutcome {
        .response(
            FetchResponse(
                status: 404,
                headers: [
                    HTTPHeaderField("Apple-Failure-Reason", reason), HTTPHeaderField("Apple-From", wellKnownURL),
                    HTTPHeaderField("Cache-Control", "max-age=3600,public"),
                ],
                body: Array("Not Found".utf8)
            )
        )
    }

    /// `json` followed by spaces up to `size` bytes.
    static func padded(_ json: String, to size: Int) -> String {
        json + String(repeating: " ", count: max(0, size - json.utf8.count))
    }
}
