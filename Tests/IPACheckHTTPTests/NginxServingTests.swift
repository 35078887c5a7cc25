import Foundation
import IPACheckReport
import IPACheckSites
import Testing

/// The serving rules against a real nginx: each site is a common real-world setup, and the expected
/// rule comes from docs/ios-model.md, copy, and docs/rules.md (redirects, Content-Type policy, 128 KB, .well-known vs root).
@Suite struct NginxServingTests {
    private static let aasaPath = ".well-known/apple-app-site-association"
    private static let exactFile =
        "location = /.well-known/apple-app-site-association { default_type application/json; }"

    /// A valid file over Apple's 131072-byte limit.
    private static let bigAASA: String = {
        let components = (0..<9000).map { #"{"/": "/p\#($0)/*"}"# }.joined(separator: ", ")
        return #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": ["#
            + components + "]}]}}"
    }()

    private static let sites: [NginxServer.Site] = [
        .init(name: "good.test", files: [aasaPath: Array(goodAASA.utf8)], directives: exactFile),
        // A single-page app: every unknown path gets index.html.
        .init(
            name: "spa.test",
            files: ["index.html": Array("<!doctype html><title>app</title>".utf8)],
            directives: "location / { try_files $uri /index.html; }"
        ),
        .init(
            name: "redirect.test",
            files: [:],
            directives: "return 301 https://www.redirect.test$request_uri;"
        ),
        .init(name: "missing.test", files: [:], directives: ""),
        .init(name: "jsononly.test", files: [aasaPath + ".json": Array(goodAASA.utf8)], directives: ""),
        .init(
            name: "rootonly.test",
            files: ["apple-app-site-association": Array(goodAASA.utf8)],
            directives: "location = /apple-app-site-association { default_type application/json; }"
        ),
        .init(name: "octet.test", files: [aasaPath: Array(goodAASA.utf8)], directives: ""),
        .init(name: "big.test", files: [aasaPath: Array(bigAASA.utf8)], directives: exactFile),
        .init(
            name: "gzip.test",
            files: [aasaPath: Array(bigAASA.utf8)],
            directives: "gzip on; gzip_types application/json; gzip_min_length 1; " + exactFile
        ),
    ]

    @Test(.nginxInstalled)
    func servingRulesAgainstRealNginx() async throws {
        // A timeout far above any load: the test proves answers, not speed.
        let check = try await NginxSiteCheck.run(Self.sites, timeout: .seconds(120))
        let (results, byHost) = (check.results, check.byHost)
        // SERVE040 (slow) depends on the machine's load, not on what the server answers: left out.
        func rules(_ host: String) -> [String] {
            (byHost[host]?.findings ?? []).map(\.rule).filter { $0 != "SERVE040" }.sorted()
        }

        #expect(rules("good.test") == [])
        #expect(byHost["good.test"]?.origin?.contentType == "application/json")
        #expect(results.first { $0.report.host == "good.test" }?.originBody == Array(goodAASA.utf8))

        #expect(rules("spa.test") == ["SERVE010"])
        #expect(rules("redirect.test") == ["SERVE003"])
        #expect(
            byHost["redirect.test"]?.findings.first?.message
                .contains("https://www.redirect.test/.well-known/apple-app-site-association") == true
        )
        #expect(byHost["redirect.test"]?.origin?.redirectLocation?.hasPrefix("https://www.redirect.test/") == true)
        #expect(rules("missing.test") == ["SERVE001"])
        #expect(rules("jsononly.test") == ["SERVE001"])
        #expect(rules("rootonly.test") == ["SERVE002"])
        #expect(byHost["rootonly.test"]?.origin?.location == .root)
        #expect(rules("octet.test") == ["SERVE011"])
        #expect(byHost["octet.test"]?.findings.first?.severity == .warning)
        #expect(rules("big.test") == ["SERVE020"])
        #expect(byHost["big.test"]?.origin?.bodyBytes == Self.bigAASA.utf8.count)
        // Compressed on the wire, measured decompressed: both the note and the size error.
        #expect(rules("gzip.test") == ["SERVE020", "SERVE021"])
        #expect(byHost["gzip.test"]?.origin?.contentEncoding == "gzip")
        #expect(byHost["gzip.test"]?.origin?.bodyBytes == Self.bigAASA.utf8.count)
    }
}
