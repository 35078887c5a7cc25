import Foundation
import IPACheckTestSupport
import Testing

/// Every command tells the same story about the same build: scenarios (offline files, a loopback origin with a
/// fake Apple CDN that is current, stale or absent, modes, no AASA, no network) × commands (`check`, `explain`,
/// `match`, `aasa`).
///
/// The expectations come from Apple's rules, not from the tool: a link opens only when the bundle claims the host,
/// iOS uses the entry, and the copy devices read (Apple's CDN copy; the origin's for a mode, or when the CDN is not
/// asked) lists the app with a rule that accepts the path ("Supporting associated domains", TN3155).
@Suite(.serialized)
struct SameStoryEveryCommandCLITests {
    static let appID = "7QX3KD52VH.com.example.small"

    /// An AASA document listing `appIDs` for `/products/*`, with `/account/*` excluded first.
    static func aasa(appIDs: [String]) -> String {
        let ids = appIDs.map { "\"\($0)\"" }.joined(separator: ",")
        return """
            {"applinks": {"details": [{"appIDs": [\(ids)], "components": [
              {"/": "/account/*", "exclude": true}, {"/": "/products/*"}]}]}}
            """
    }

    /// A project entitlements file for `appID` claiming `domains`.
    static func entitlements(_ domains: [String], in folder: URL, extra: String = "") throws -> String {
        let file = folder.appendingPathComponent("App.entitlements")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>application-identifier</key><string>\(appID)</string>
            <key>com.apple.developer.associated-domains</key><array>\(domains.map { "<string>\($0)</string>" }.joined())</array>
            \(extra)
            </dict></plist>
            """
        try Data(xml.utf8).write(to: file)
        return file.path
    }

    static func temporaryFolder() throws -> URL {
        let folder = Scratch.folder.appendingPathComponent("one-truth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `DIR/HOST/apple-app-site-association` for each host.
    static func aasaDir(_ files: [String: String], in folder: URL) throws -> String {
        let dir = folder.appendingPathComponent("aasa")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (host, body) in files {
            let hostDir = dir.appendingPathComponent(host)
            try FileManager.default.createDirectory(at: hostDir, withIntermediateDirectories: true)
            try Data(body.utf8).write(to: hostDir.appendingPathComponent("apple-app-site-association"))
        }
        return dir.path
    }

    /// What every command said about one URL and build.
    struct Answers {
        let check: CLIResult
        let explain: CLIResult
        let match: CLIResult
        let aasa: CLIResult

        var checkRules: Set<String> {
            let findings = ((try? check.jsonObject())?["findings"] as? [[String: Any]]) ?? []
            return Set(findings.compactMap { $0["rule"] as? String })
        }

        var explanation: [String: Any] { (try? explain.jsonObject()) ?? [:] }

        var matchVerdict: String? {
            let results = ((try? match.jsonObject())?["results"] as? [[String: Any]]) ?? []
            return results.first?["verdict"] as? String
        }

        var matchOrigin: String? {
            let results = ((try? match.jsonObject())?["results"] as? [[String: Any]]) ?? []
            return (results.first?["origin"] as? [String: Any])?["verdict"] as? String
        }

        /// The rules `explain` names as standing on the path.
        var explainRules: Set<String> {
            Set(((explanation["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String })
        }
    }

    /// Writes a run's stdout to a file in `folder`, for the schema check.
    static func saved(_ result: CLIResult, in folder: URL) throws -> [URL] {
        let file = folder.appendingPathComponent("\(UUID().uuidString).json")
        try Data(result.stdout.utf8).write(to: file)
        return [file]
    }

    static func ask(url: String, target: String, host: String, network: [String]) throws -> Answers {
        Answers(
            check: try CLI.run(["check", target, "--format", "json"] + network),
            explain: try CLI.run(["explain", url, target, "--format", "json"] + network),
            match: try CLI.run(["match", url, "--app-id", appID, "--format", "json"] + network),
            aasa: try CLI.run(["aasa", host, "--format", "json"] + network)
        )
    }

    /// The agreements that hold in every scenario: `explain`'s verdict and exit code are one; a link that opens
    /// has no error of `check` on its path; every finding `explain` puts on the path is one `check` reported.
    static func expectAgreement(_ answers: Answers, sourceLocation: SourceLocation = #_sourceLocation) {
        let verdict = answers.explanation["verdict"] as? String
        #expect(answers.explain.status == (verdict == "opens" ? 0 : 1), sourceLocation: sourceLocation)
        #expect(
            answers.explainRules.isSubset(of: answers.checkRules),
            "explain names \(answers.explainRules), check reports \(answers.checkRules)",
            sourceLocation: sourceLocation
        )
        if verdict == "opens" {
            #expect(answers.check.status == 0, "\(answers.check.stdout)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Offline files

    /// One offline scenario: the entitlements entry, the URL and the `aasa` host asked, and the files in
    /// `--aasa-dir` (nil: the folder named does not exist).
    struct OfflineScenario: Sendable, CustomTestStringConvertible {
        /// What a scenario's expectations see: every command's answer, and the files they were given.
        struct Given {
            let answers: Answers
            let target: String
            let dir: String
        }

        let name: String
        var claim = "applinks:good.example"
        var url = "https://good.example/products/1"
        var host = "good.example"
        let files: [String: String]?
        /// Whether the commands reach a verdict, so `expectAgreement` holds (not on a usage error).
        var agree = true
        let expect: @Sendable (Given) throws -> Void

        var testDescription: String { name }
    }

    static let offlineScenarios: [OfflineScenario] = [
        .init(name: "a listed path opens everywhere", files: ["good.example": aasa(appIDs: [appID])]) { given in
            let answers = given.answers
            #expect(answers.check.status == 0, "\(answers.check.stdout)")
            #expect(answers.explanation["verdict"] as? String == "opens")
            #expect(answers.explain.status == 0)
            #expect(answers.matchVerdict == "match")
            #expect(answers.match.status == 0)
            #expect(answers.aasa.status == 0, "\(answers.aasa.stdout)")
            // Offline, no HTTP exchange is pretended: the file is named, no status given.
            let copies = try #require(answers.explanation["copies"] as? [[String: Any]])
            #expect(copies.map { $0["copy"] as? String } == ["file"])
            #expect(copies.first?["status"] == nil || copies.first?["status"] is NSNull)
            #expect(!answers.aasa.stdout.contains("\"status\" : 200"), "\(answers.aasa.stdout)")
        },
        .init(
            name: "an excluded path breaks in explain and match while the build passes",
            url: "https://good.example/account/1",
            files: ["good.example": aasa(appIDs: [appID])]
        ) { given in
            let answers = given.answers
            #expect(answers.check.status == 0)
            #expect(answers.explanation["verdict"] as? String == "breaks")
            #expect((answers.explanation["rule"] as? [String: Any])?["component"] as? Int == 0)
            #expect(answers.matchVerdict == "block")
            #expect(answers.match.status == 1)
        },
        .init(
            name: "another app's file breaks everywhere",
            files: ["good.example": aasa(appIDs: ["ZZZZZ99999.com.example.other"])]
        ) { given in
            let answers = given.answers
            #expect(answers.check.status == 1)
            #expect(answers.checkRules.contains("LINK001"))
            #expect(answers.explanation["verdict"] as? String == "breaks")
            #expect(answers.explainRules.contains("LINK001"))
            #expect(answers.matchVerdict == "none")
            #expect(answers.match.status == 1)
        },
        .init(
            name: "managed mode without the MDM entitlement breaks at the entry",
            claim: "applinks:mdm.example?mode=managed",
            url: "https://mdm.example/products/1",
            host: "mdm.example",
            files: ["mdm.example": aasa(appIDs: [appID])]
        ) { given in
            let answers = given.answers
            #expect(answers.checkRules.contains("LINK004"))
            #expect(answers.explanation["verdict"] as? String == "breaks")
            // iOS never accepts the MDM-supplied domain, so the entry is not used: explain stops at it and says why.
            let steps = try #require(answers.explanation["steps"] as? [[String: Any]])
            let entry = steps.first { $0["name"] as? String == "entry" }
            #expect(entry?["status"] as? String == "fail")
            #expect("\(entry?["details"] ?? "")".contains("associated-domains.mdm-managed"))
        },
        // A `?mode=developer` entry is read from the origin by devices in developer mode (TN3155), and an
        // entitlements file is not a build: the build's own checks are said not to have run, never passed.
        .init(
            name: "developer mode reads the origin and a file is not a build",
            claim: "applinks:dev.example?mode=developer",
            url: "https://dev.example/products/1",
            host: "dev.example?mode=developer",
            files: ["dev.example": aasa(appIDs: [appID])]
        ) { given in
            let answers = given.answers
            #expect(answers.check.status == 0, "\(answers.check.stdout)")
            #expect(answers.explanation["verdict"] as? String == "opens")
            let steps = try #require(answers.explanation["steps"] as? [[String: Any]])
            #expect(steps.first { $0["name"] as? String == "build" }?["status"] as? String == "notChecked")
            #expect(steps.first { $0["name"] as? String == "entry" }?["status"] as? String == "info")
            let copies = try #require(answers.explanation["copies"] as? [[String: Any]])
            #expect(copies.first?["devicesRead"] as? Bool == true)
            #expect(answers.aasa.status == 0, "\(answers.aasa.stdout)")
        },
        .init(name: "no file for the host is reported and no link rule is passed", files: [:]) { given in
            let answers = given.answers
            #expect(answers.check.status == 1)
            #expect(answers.explanation["verdict"] as? String == "breaks")
            #expect(answers.matchVerdict == "none")
            #expect(answers.aasa.status == 1)
            // The rules that hold an app ID against a file did not run: they are listed as not checked, not passed.
            let json = try answers.check.jsonObject()
            let inputs = try #require(json["inputs"] as? [[String: Any]])
            let notChecked = (inputs.first?["notChecked"] as? [[String: Any]] ?? []).flatMap {
                $0["rules"] as? [String] ?? []
            }
            for rule in ["LINK001", "LINK002", "LINK003", "LINK006"] {
                #expect(notChecked.contains(rule), "\(rule) should be listed as not checked: \(notChecked)")
            }
            let junit = try CLI.run(["check", given.target, "--format", "junit", "--offline", "--aasa-dir", given.dir])
            #expect(junit.stdout.contains("LINK001"))
            #expect(!junit.stdout.contains("name=\"LINK001\"/>"), "LINK001 must not be a passing testcase")
        },
        .init(name: "a missing AASA dir is one line and exit two everywhere", files: nil, agree: false) { given in
            let answers = given.answers
            for result in [answers.check, answers.explain, answers.match, answers.aasa] {
                #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
                #expect(result.stderrLines.count == 1, "\(result.stderr)")
                #expect(result.stderr.contains("--aasa-dir"))
            }
        },
    ]

    /// Each offline scenario asks every command (`check`, `explain`, `match`, `aasa`) about the same files.
    @Test(arguments: offlineScenarios)
    func offlineFiles(_ scenario: OfflineScenario) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = try Self.entitlements([scenario.claim], in: folder)
        let missing = folder.appendingPathComponent("nonexistent").path
        let dir = try scenario.files.map { try Self.aasaDir($0, in: folder) } ?? missing
        let answers = try Self.ask(
            url: scenario.url,
            target: target,
            host: scenario.host,
            network: ["--offline", "--aasa-dir", dir]
        )
        if scenario.agree { Self.expectAgreement(answers) }
        try scenario.expect(OfflineScenario.Given(answers: answers, target: target, dir: dir))
    }

    /// `aasa` judges the content with the checks `lint` runs: a file whose misspelled key makes a catch-all
    /// (AASA129, Samples/aasa-broken/path-typo.json) fails both, with the same rules.
    @Test func aasaJudgesTheContentAsLintDoes() throws {
        let folder = try Self.temporaryFolder()
        let typo = try String(contentsOfFile: SampleFiles.brokenAASA("path-typo.json"), encoding: .utf8)
        let dir = try Self.aasaDir(["typo.example": typo], in: folder)
        let aasa = try CLI.run(["aasa", "typo.example", "--format", "json", "--offline", "--aasa-dir", dir])
        let lint = try CLI.run(["lint", SampleFiles.brokenAASA("path-typo.json"), "--format", "json"])
        #expect(aasa.status == 1, "\(aasa.stdout)")
        #expect(lint.status == 1)
        func rules(_ result: CLIResult) throws -> Set<String> {
            Set(((try result.jsonObject()["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String })
        }
        #expect(try rules(aasa).contains("AASA129"))
        #expect(try rules(aasa) == rules(lint))
    }

    /// Every check of the gate says, for each of its rules, that it ran or why not: no rule is left to the
    /// registry's fallback ("did not say it ran them"), whatever the input and options.
    @Test(arguments: [
        [SampleFiles.acme] + SampleFiles.offline + ["--appflip", SampleFiles.appflip],
        [SampleFiles.acme, "--distribution", "development"] + SampleFiles.offline,
        [SampleFiles.minimal, "--distribution", "development"] + SampleFiles.offline,
        [SampleFiles.minimal, "--no-cdn"] + SampleFiles.offline,
    ])
    func everyCheckAccountsForEveryRule(arguments: [String]) throws {
        let result = try CLI.run(["check", "--format", "json"] + arguments)
        let inputs = try #require(try result.jsonObject()["inputs"] as? [[String: Any]])
        let reasons = (inputs.first?["notChecked"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String }
        #expect(!reasons.isEmpty)
        #expect(!reasons.contains { $0.contains("did not say") || $0 == "not checked for this input" }, "\(reasons)")
    }

    @Test func checkOnAnEntitlementsFileWithoutAnAppIDIsAUsageError() throws {
        let folder = try Self.temporaryFolder()
        let file = folder.appendingPathComponent("NoID.entitlements")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>com.apple.developer.associated-domains</key>
            <array><string>applinks:good.example</string></array></dict></plist>
            """.utf8
        ).write(to: file)
        let dir = try Self.aasaDir([:], in: folder)
        let result = try CLI.run(["check", file.path, "--offline", "--aasa-dir", dir])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--app-id"))
    }

    @Test func matchReportsABadLineAndAnswersTheOthers() throws {
        let folder = try Self.temporaryFolder()
        let file = folder.appendingPathComponent("aasa.json")
        try Data(Self.aasa(appIDs: [Self.appID]).utf8).write(to: file)
        let list = folder.appendingPathComponent("urls.txt")
        try Data("https://good.example/products/1\nnot a url\nhttps://good.example/account/2\n".utf8).write(to: list)
        let result = try CLI.run([
            "match", "--urls", list.path, "--app-id", Self.appID, "--aasa", file.path, "--format", "json",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains(":2:"), "\(result.stderr)")
        let results = try #require(try result.jsonObject()["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["verdict"] as? String } == ["match", "block"])
    }

    // MARK: - A loopback origin and a fake Apple CDN

    /// The loopback address the origin and the fake CDN listen on, port 443 (needs root, as CI runs).
    static let address = "127.0.0.23"

    static let canServe443 = Loopback.canServe443(on: address)

    /// What the fake CDN holds for a host.
    enum CDNCopy {
        case current, stale, absent
    }

    /// Serves `good.example`'s file (listing the app) at the origin, and the CDN copy `cdn` at
    /// `https://cdn.test/a/v1/good.example`, then asks every command.
    static func live(
        _ cdn: CDNCopy,
        url: String = "https://good.example/products/1",
        extra: [String] = []
    ) async throws -> Answers {
        let folder = try temporaryFolder()
        let ca = try TestCA()
        let caFile = try ca.writeCertificate(to: folder)
        let identity = try ca.issueServerCertificate(dnsNames: ["good.example", "cdn.test"])
        let current = aasa(appIDs: [appID])
        let stale = aasa(appIDs: ["ZZZZZ99999.com.example.other"])
        let server = try await TLSTestServer.start(identity: identity, host: address, port: 443) { request in
            let host = request.header("Host")?.split(separator: ":").first.map(String.init) ?? ""
            if host == "cdn.test" {
                // Cache headers as Apple's CDN sends them (docs/ios-model.md, copy): an answer held 600 s of its 3,600.
                let cache = [("Cache-Control", "max-age=3600,public"), ("Age", "600")]
                switch cdn {
                case .current: return .ok(current)
                case .stale:
                    return .full(
                        status: 200,
                        headers: [("Content-Type", "application/json")] + cache,
                        body: Array(stale.utf8)
                    )
                case .absent:
                    return .full(
                        status: 404,
                        headers: [("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 404 Not Found")] + cache,
                        body: []
                    )
                }
            }
            return .ok(current)
        }
        defer { Task { await server.shutdown() } }
        let target = try entitlements(["applinks:good.example"], in: folder)
        let network = [
            "--resolve", "good.example:443:\(address)", "--resolve", "cdn.test:443:\(address)",
            "--ca-file", caFile.path, "--cdn-url", "https://cdn.test/a/v1/", "--timeout", "120",
        ]
        return try ask(url: url, target: target, host: "good.example", network: network + extra)
    }

    @Test(.enabled(if: canServe443, "needs to listen on 127.0.0.23:443 (root)"))
    func aCurrentCDNCopyOpensEverywhere() async throws {
        let answers = try await Self.live(.current)
        Self.expectAgreement(answers)
        #expect(answers.check.status == 0, "\(answers.check.stdout)")
        #expect(answers.explanation["verdict"] as? String == "opens")
        #expect(answers.matchVerdict == "match")
        #expect(answers.aasa.status == 0, "\(answers.aasa.stdout)")
        let copies = try #require(answers.explanation["copies"] as? [[String: Any]])
        #expect(copies.first { $0["copy"] as? String == "cdn" }?["devicesRead"] as? Bool == true)
    }

    @Test(.enabled(if: canServe443, "needs to listen on 127.0.0.23:443 (root)"))
    func aStaleCDNCopyBreaksTheLinkInEveryCommand() async throws {
        let answers = try await Self.live(.stale)
        Self.expectAgreement(answers)
        #expect(answers.checkRules.contains("LINK009"), "\(answers.checkRules)")
        #expect(answers.explanation["verdict"] as? String == "breaks")
        #expect(answers.explain.status == 1)
        #expect(answers.matchVerdict == "none")
        #expect(answers.matchOrigin == "match", "the origin's answer is shown beside: \(answers.match.stdout)")
        #expect(answers.match.status == 1)
    }

    @Test(.enabled(if: canServe443, "needs to listen on 127.0.0.23:443 (root)"))
    func noCDNCopyBreaksTheLinkInEveryCommand() async throws {
        let answers = try await Self.live(.absent)
        Self.expectAgreement(answers)
        #expect(answers.check.status == 1)
        #expect(answers.checkRules.contains("CDN001"), "\(answers.checkRules)")
        #expect(answers.explanation["verdict"] as? String == "breaks")
        #expect(answers.explainRules.contains("CDN001"))
        #expect(answers.matchVerdict == "none")
        #expect(answers.match.status == 1)
        #expect(answers.aasa.status == 1)
    }

    @Test(.enabled(if: canServe443, "needs to listen on 127.0.0.23:443 (root)"))
    func withoutTheCDNTheOriginIsJudgedAndSaidSo() async throws {
        let answers = try await Self.live(.absent, extra: ["--no-cdn"])
        Self.expectAgreement(answers)
        #expect(answers.check.status == 0, "\(answers.check.stdout)")
        #expect(answers.explanation["verdict"] as? String == "opens")
        #expect(answers.explain.stdout.contains("--no-cdn"))
        #expect(answers.matchVerdict == "match")
        #expect(answers.match.stderr.contains("--no-cdn"), "\(answers.match.stderr)")
    }

    // MARK: - No network

    @Test(
        .enabled(if: CheckSaysOnlyWhatHappenedCLITests.loopback443IsClosed, "needs nothing listening on 127.0.0.1:443")
    )
    func noNetworkIsExitTwoEverywhereAndCheckStillWritesItsReport() throws {
        try RefusingPort.with { port in try noNetworkIsExitTwoEverywhere(cdnPort: port) }
    }

    private func noNetworkIsExitTwoEverywhere(cdnPort port: Int) throws {
        let folder = try Self.temporaryFolder()
        let target = try Self.entitlements(["applinks:good.example"], in: folder)
        let network = [
            "--resolve", "good.example:443:127.0.0.1", "--cdn-url", "https://127.0.0.1:\(port)/a/v1/",
            "--timeout", "5",
        ]
        let answers = try Self.ask(
            url: "https://good.example/products/1",
            target: target,
            host: "good.example",
            network: network
        )
        for result in [answers.check, answers.explain, answers.match, answers.aasa] {
            #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("no network"), "\(result.stderr)")
        }
        #expect(try answers.check.jsonObject()["verdict"] as? String == "error")
        // explain still shows the path up to the host's file, which it could not fetch: undecided, not broken.
        #expect(answers.explanation["verdict"] as? String == "undecided", "\(answers.explain.stdout)")
        let steps = (answers.explanation["steps"] as? [[String: Any]] ?? []).map {
            "\($0["name"] as? String ?? "") \($0["status"] as? String ?? "")"
        }
        #expect(steps.last == "AASA notChecked", "\(steps)")
        #expect(try JSONSchemaCheck.problems(try Self.saved(answers.explain, in: folder)).isEmpty)
        for format in ["sarif", "junit", "github"] {
            let result = try CLI.run(["check", target, "--format", format] + network)
            #expect(result.status == 2)
            #expect(!result.stdout.isEmpty, "\(format) must still be a whole report")
            // The build was read; only the network failed: no format says it could not be read.
            #expect(!result.stdout.contains("could not be read"), "\(format): \(result.stdout)")
            #expect(!result.stdout.contains("cannot be read: "), "\(format): \(result.stdout)")
            #expect(result.stdout.contains("not checked"), "\(format): \(result.stdout)")
        }
    }
}
