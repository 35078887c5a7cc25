import Foundation
import IPACheckFetching
import IPACheckGate
import IPACheckHTTP
import IPACheckLinks
import IPACheckReport
import IPACheckSites
import IPACheckTestSupport
import Testing

/// AASASiteFetcher end to end: origin and a stand-in for Apple's CDN on one local TLS server, told apart by the
/// Host header, exactly as `--resolve` routes them.
@Suite struct AASASiteFetcherTests {
    /// CDN headers captured from the real CDN (docs/ios-model.md, copy; wildcatraffle and marvel.com captures).
    private static let blockedCDNHeaders: [(String, String)] = [
        ("Content-Type", "text/plain; charset=utf-8"),
        ("Apple-Failure-Details", #"{"status":"403 Forbidden"}"#),
        ("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 403 Forbidden"),
        ("Apple-From", "https://example.test/.well-known/apple-app-site-association"),
        ("Apple-Try-Direct", "false"),
        ("Cache-Control", "max-age=3600,public"),
        ("Age", "60"),
    ]

    /// The same document as `goodAASA`, re-serialized the way the CDN does: other key order, other spacing.
    private static let reserializedAASA = """
        {
          "webcredentials" : { "apps" : [ "ABCDE12345.com.example.app" ] },
          "applinks" : { "details" : [ { "components" : [ { "comment" : "purchases", "/" : "/buy/*" } ],
                                         "appIDs" : [ "ABCDE12345.com.example.app" ] } ] }
        }
        """

    private func run(
        _ targets: [AASAFetchTarget],
        hosts: [String] = ["example.test"],
        timeout: Duration = .seconds(5),
        cdn: Bool = true,
        respond: @escaping @Sendable (TestRequest) -> TestResponse
    ) async throws -> (results: [AASASiteResult], requests: [TestRequest]) {
        let tls = try LocalTLS()
        defer { tls.remove() }
        return try await withServer(tls, names: hosts + ["cdn.test"], respond: respond) { server in
            let options = tls.options(
                hosts: hosts,
                port: server.port,
                timeout: timeout,
                cdnHost: cdn ? "cdn.test" : nil
            )
            let results = try await AsyncHTTPFetcher.withFetcher(options: options) { fetcher in
                await AASASiteFetcher(fetcher: fetcher, options: options).checkAndJudge(targets)
            }
            return (results, server.requests)
        }
    }

    private func rules(_ result: AASASiteResult) -> Set<String> { Set(result.report.findings.map(\.rule)) }

    @Test func goodOriginAndMatchingCDNCopyGiveOnlyANote() async throws {
        let (results, _) = try await run([AASAFetchTarget(host: "example.test")]) { request in
            request.header("Host") == "cdn.test" ? .ok(Self.reserializedAASA) : .ok(goodAASA)
        }
        let result = try #require(results.first)
        #expect(result.report.findings.map(\.rule).filter { $0 != "SERVE040" } == ["CDN003"])
        #expect(result.report.cdnDifferences == [])
        #expect(result.originBody == Array(goodAASA.utf8))
        #expect(result.cdnBody == Array(Self.reserializedAASA.utf8))
        #expect(result.report.origin?.status == 200)
        #expect(result.report.cdn?.status == 200)
    }

    @Test func cdnCopyMissingAnAppIsReportedPerAppID() async throws {
        let cdnCopy =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/*"}]}]}}"#
        let (results, _) = try await run([AASAFetchTarget(host: "example.test")]) { request in
            request.header("Host") == "cdn.test" ? .ok(cdnCopy) : .ok(goodAASA)
        }
        let report = try #require(results.first).report
        let differences = try #require(report.cdnDifferences)
        #expect(
            differences.contains {
                $0.appID == "ABCDE12345.com.example.app" && $0.service == "webcredentials" && $0.kind == .onlyAtOrigin
            }
        )
        // The CDN copy lacks the component's "comment", which Apple ignores: the applinks rules mean the same.
        #expect(!differences.contains { $0.service == "applinks" })
        #expect(report.findings.contains { $0.rule == "CDN002" && $0.severity == .warning })
    }

    /// A changed rule is quoted as each file writes it (it was quoted with its slashes trimmed, `{"/": "buy/*"}`).
    @Test func aChangedRuleIsQuotedAsWritten() async throws {
        let cdnCopy =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/old/*"}]}]}}"#
        let (results, _) = try await run([AASAFetchTarget(host: "example.test")]) { request in
            request.header("Host") == "cdn.test" ? .ok(cdnCopy) : .ok(goodAASA)
        }
        let report = try #require(results.first).report
        let changed = try #require(report.findings.first { $0.rule == "CDN002" && $0.message.contains("rules differ") })
        #expect(changed.message.contains(#""/": "/old/*""#), "\(changed.message)")
        #expect(changed.message.contains(#""/": "/buy/*""#), "\(changed.message)")
    }

    @Test func cdnFailureHeadersAreDecoded() async throws {
        let (results, _) = try await run([AASAFetchTarget(host: "example.test")]) { request in
            request.header("Host") == "cdn.test"
                ? .full(status: 404, headers: Self.blockedCDNHeaders, body: Array("Not Found".utf8)) : .ok(goodAASA)
        }
        let report = try #require(results.first).report
        let cdn = try #require(report.cdn)
        #expect(cdn.status == 404)
        #expect(cdn.failureReason?.code == "SWCERR00101")
        #expect(cdn.failureReason?.text == "Bad HTTP Response: 403 Forbidden")
        #expect(cdn.failureDetails == ["status": "403 Forbidden"])
        #expect(cdn.from == "https://example.test/.well-known/apple-app-site-association")
        #expect(cdn.tryDirect == false)
        #expect(cdn.maxAgeSeconds == 3600)
        #expect(cdn.ageSeconds == 60)
        #expect(cdn.freshForSeconds == 3540)
        let finding = try #require(report.findings.first { $0.rule == "CDN001" })
        #expect(finding.severity == .error)
        // TN3155 (2025-05-15): every user agent, never an allow-list of Apple's.
        #expect(finding.fix?.contains("every user agent") == true, "\(finding.fix ?? "")")
        #expect(finding.fix?.contains("Allow user agent AASA-Bot") == false)
    }

    @Test func wafBlockingApplesUserAgentsIsAnError() async throws {
        let (results, _) = try await run([AASAFetchTarget(host: "example.test")], cdn: false) { request in
            let agent = request.header("User-Agent") ?? ""
            if agent.hasPrefix("AASA-Bot") || agent.contains("CFNetwork") {
                return .full(status: 403, headers: [("Content-Type", "text/html")], body: Array("<h1>no</h1>".utf8))
            }
            return .ok(goodAASA)
        }
        let report = try #require(results.first).report
        // One answer (403 to both of Apple's agents) is one finding, naming both agents and the status.
        let blocked = report.findings.filter { $0.rule == "SERVE030" }
        #expect(blocked.count == 1, "\(report.findings)")
        #expect(blocked.allSatisfy { $0.severity == .error })
        #expect(blocked.first?.message.contains(AASASiteFetcher.cdnUserAgent) == true)
        #expect(blocked.first?.message.contains(AASASiteFetcher.deviceUserAgent) == true)
        #expect(!report.findings.contains { $0.rule == "SERVE004" }, "\(report.findings)")
    }

    @Test func redirectIsAnErrorNamingTheTarget() async throws {
        let location = "https://www.example.test/.well-known/apple-app-site-association"
        let (results, requests) = try await run([AASAFetchTarget(host: "example.test")], cdn: false) { _ in
            .full(status: 301, headers: [("Location", location)], body: [])
        }
        let finding = try #require(results.first?.report.findings.first { $0.rule == "SERVE003" })
        #expect(finding.severity == .error)
        #expect(finding.message.contains(location))
        #expect(!requests.contains { $0.header("Host") == "www.example.test" })
    }

    @Test func wildcardEntryIsFetchedFromTheApex() async throws {
        let (results, requests) = try await run([AASAFetchTarget(host: "*.example.test")], cdn: false) { _ in
            .ok(goodAASA)
        }
        #expect(results.first?.report.host == "*.example.test")
        #expect(results.first?.report.fetchHost == "example.test")
        #expect(requests.allSatisfy { $0.header("Host") == "example.test" })
        #expect(results.first?.originBody == Array(goodAASA.utf8))
    }

    @Test func developerModeSkipsTheCDNAndFetchesAsADevice() async throws {
        let (results, requests) = try await run([AASAFetchTarget(host: "example.test", mode: .developer)]) { _ in
            .ok(goodAASA)
        }
        let report = try #require(results.first).report
        #expect(report.cdn == nil)
        // SERVE040 (slow) depends on the machine's load, not on what is proved here.
        #expect(report.findings.map(\.rule).filter { $0 != "SERVE040" } == ["CDN005"])
        #expect(!requests.contains { $0.header("Host") == "cdn.test" })
        #expect(report.origin?.userAgent == AASASiteFetcher.deviceUserAgent)
    }

    @Test func aHostThatNeverAnswersDoesNotStopTheOthers() async throws {
        let hosts = ["good.test", "silent.test", "also.test"]
        let (results, _) = try await run(
            hosts.map { AASAFetchTarget(host: $0) },
            hosts: hosts,
            timeout: .seconds(3),
            cdn: false
        ) { request in
            request.header("Host") == "silent.test" ? .hang : .ok(goodAASA)
        }
        #expect(results.map(\.report.host) == hosts)
        #expect(results[0].originBody != nil)
        #expect(results[2].originBody != nil, "\(results[2].report.findings)")
        // The silent host times out on its own; the hosts around it are read. (No wall-clock assertion: timings
        // never decide a test here, since CI machines are shared.)
        #expect(results[1].report.findings.map(\.rule).filter { $0 != "SERVE040" } == ["SERVE006"])
    }

    @Test func offlineModeReadsTheFolderAndTouchesNoNetwork() async throws {
        let directory = Scratch.folder.appendingPathComponent("ipacheck-offline-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostFolder = directory.appendingPathComponent("example.test")
        try FileManager.default.createDirectory(at: hostFolder, withIntermediateDirectories: true)
        try Data(goodAASA.utf8).write(to: hostFolder.appendingPathComponent("apple-app-site-association"))
        let options = FetchOptions(offlineDirectory: directory)
        let results = await AASASiteFetcher(fetcher: nil, options: options)
            .checkAndJudge([AASAFetchTarget(host: "example.test"), AASAFetchTarget(host: "absent.test")])
        #expect(results[0].originBody == Array(goodAASA.utf8))
        #expect(results[0].report.findings.isEmpty)
        #expect(results[0].report.cdn == nil)
        #expect(results[1].report.findings.map(\.rule).filter { $0 != "SERVE040" } == ["SERVE060"])
    }
}
