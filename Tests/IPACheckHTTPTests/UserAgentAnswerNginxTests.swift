import Foundation
import IPACheckReport
import IPACheckSites
import Testing

/// One answer from the origin is one finding, against a real nginx that blocks by user agent as WAFs and bot
/// protection do: the origin is asked with Apple's two user agents, an arbitrary one (TN3155 asks that every agent be
/// served) and a browser's, and the agents that get the same answer are named together in one finding.
@Suite struct UserAgentAnswerNginxTests {
    private static let exactFile =
        "location = /.well-known/apple-app-site-association { default_type application/json; }"
    private static let files = [".well-known/apple-app-site-association": Array(goodAASA.utf8)]

    private static func blocking(_ pattern: String) -> String {
        #"if ($http_user_agent ~* "\#(pattern)") { return 403; } "# + exactFile
    }

    private static let sites: [NginxServer.Site] = [
        // A WAF that forbids both of Apple's fetchers and lets browsers through.
        .init(name: "waf.test", files: files, directives: blocking("AASA-Bot|CFNetwork")),
        // Only the CDN's fetcher is forbidden; devices fetching directly get the file.
        .init(name: "botonly.test", files: files, directives: blocking("AASA-Bot")),
        // Everyone is forbidden: a status problem, not a block by user agent.
        .init(name: "closed.test", files: files, directives: "return 403;"),
        // An allow-list of Apple's agents and browsers, the advice TN3155 replaced on 2025-05-15.
        .init(
            name: "allowlist.test",
            files: files,
            directives: #"if ($http_user_agent !~* "AASA-Bot|CFNetwork|Mozilla") { return 403; } "# + exactFile
        ),
    ]

    @Test(.nginxInstalled)
    func oneAnswerIsOneFinding() async throws {
        // A timeout far above any load: the test proves answers, not speed.
        let byHost = try await NginxSiteCheck.run(Self.sites, timeout: .seconds(120)).byHost

        // SERVE040 (slow) is left out of the lists: it depends on the machine's load, not on the answers.
        // Both Apple agents get the same 403: one finding naming both, standing for the status finding too.
        let waf = try #require(byHost["waf.test"])
        #expect(waf.findings.map(\.rule).filter { $0 != "SERVE040" } == ["SERVE030"], "\(waf.findings)")
        let blocked = try #require(waf.findings.first)
        #expect(blocked.severity == .error)
        #expect(blocked.message.contains("'\(AASASiteFetcher.cdnUserAgent)'"), "\(blocked.message)")
        #expect(blocked.message.contains("'\(AASASiteFetcher.deviceUserAgent)'"), "\(blocked.message)")
        #expect(blocked.message.contains("403"))
        // The answers themselves are all still shown.
        #expect(waf.origin?.status == 403)
        #expect(waf.userAgents.map(\.status) == [403, 200, 200])

        // Only AASA-Bot is forbidden: one finding, naming it alone.
        let bot = try #require(byHost["botonly.test"])
        #expect(bot.findings.map(\.rule).filter { $0 != "SERVE040" } == ["SERVE030"], "\(bot.findings)")
        #expect(bot.findings.first?.message.contains("'\(AASASiteFetcher.cdnUserAgent)'") == true)
        #expect(bot.findings.first?.message.contains(AASASiteFetcher.deviceUserAgent) == false)

        // Forbidden to everyone: one status finding, no user-agent finding.
        let closed = try #require(byHost["closed.test"])
        #expect(closed.findings.map(\.rule).filter { $0 != "SERVE040" } == ["SERVE004"], "\(closed.findings)")

        // Apple's agents and browsers allowed, any other refused: SERVE032, a warning.
        let allowlist = try #require(byHost["allowlist.test"])
        #expect(allowlist.findings.map(\.rule).filter { $0 != "SERVE040" } == ["SERVE032"], "\(allowlist.findings)")
        #expect(allowlist.origin?.status == 200)
        #expect(allowlist.userAgents.map(\.status) == [200, 403, 200])
    }
}
