import Foundation
import IPACheckTestSupport
import Testing

/// `explain URL BUILD --device EVIDENCE`: the device's record as a step of the trace.
///
/// Each scenario is a device
/// state (the vocabulary of docs/device.md, sourced from TN3155 and recorded entries) over a build whose files open
/// the link, or do not; the diagnoses expected are those docs/device.md's table gives for that state, and every
/// diagnosis is both triggered by some scenario and absent from another.
struct ExplainDeviceCLITests {
    static let appID = "7QX3KD52VH.com.example.matrix"
    static let banner = "=================================== DATABASE ==================================="

    /// One device state and what docs/device.md says of it.
    struct Scenario: Sendable, CustomStringConvertible {
        let name: String
        /// The `swcutil show` text (the capture is at 2026-11-26 10:00 UTC, in the file name).
        let show: String
        /// The URL tapped: `/open` is granted by the site's file, `/closed` is not.
        let path: String
        let developerBuild: Bool
        let expected: Set<String>
        /// Whether the link opens on this device.
        let opens: Bool
        var description: String { name }
    }

    static func entry(
        domain: String = "example.com",
        appID: String = appID,
        version: String = "1",
        user: String = "unspecified",
        site: String = "approved",
        flags: String = "",
        last: String? = "2026-11-24 10:00:00 +0000",
        next: String? = "2026-11-29 09:50:00 +0000",
        error: String? = nil,
        retries: Int? = nil
    ) -> String {
        var lines = [
            "Service:              applinks", "App ID:               \(appID)", "App Version:          \(version)",
            "Domain:               \(domain)", "User Approval:        \(user)", "Site/Fmwk Approval:   \(site)",
            "Flags:                \(flags)",
        ]
        if let last { lines.append("Last Checked:         \(last)") }
        if let next { lines.append("Next Check:           \(next)") }
        if let error { lines.append("Error:                \(error)") }
        if let retries { lines.append("Retries:              \(retries)") }
        return lines.joined(separator: "\n")
    }

    static func record(_ entries: [String], developerMode: String = "yes", settings: String = "") -> String {
        "Developer Mode:       \(developerMode)\n\(banner)\n"
            + entries.joined(separator: "\n" + String(repeating: "-", count: 80) + "\n") + "\n" + settings
    }

    static let cdnError =
        #"Error Domain=SWCErrorDomain Code=7 "(null)" UserInfo={NSDebugDescription=SWCERR00101 Bad HTTP Response: "#
        + #"404 Not Found -- {"status":"404 Not Found"}, NSUnderlyingError=HTTP 404}"#

    static let scenarios: [Scenario] = [
        .init(
            name: "approved, no choice",
            show: record([entry()]),
            path: "/open",
            developerBuild: false,
            expected: ["DEV010"],
            opens: true
        ),
        .init(
            name: "the user chose the browser",
            show: record([entry(user: "denied")]),
            path: "/open",
            developerBuild: false,
            expected: ["DEV006"],
            opens: false
        ),
        .init(
            name: "links turned off for the app",
            show: record(
                [entry()],
                settings: "=================================== SETTINGS ===================================\n"
                    + "{ s = applinks, a = \(appID), d = (null) }: {\n    \"com.apple.LaunchServices.enabled\" = 0;\n}\n"
            ),
            path: "/open",
            developerBuild: false,
            expected: ["DEV005"],
            opens: false
        ),
        .init(
            name: "denied before the file was fixed",
            show: record([entry(site: "denied")]),
            path: "/open",
            developerBuild: false,
            expected: ["DEV007"],
            opens: false
        ),
        .init(
            name: "denied, and the file still does not open it",
            show: record([entry(site: "denied")]),
            path: "/closed",
            developerBuild: false,
            expected: ["DEV008"],
            opens: false
        ),
        .init(
            name: "approved from an older file",
            show: record([entry()]),
            path: "/closed",
            developerBuild: false,
            expected: ["DEV011"],
            opens: false
        ),
        .init(
            name: "the CDN could not get the file",
            show: record([entry(site: "unspecified", error: cdnError, retries: 2)]),
            path: "/open",
            developerBuild: false,
            expected: ["DEV009"],
            opens: false
        ),
        .init(
            name: "never checked",
            show: record([entry(site: "unspecified", last: nil, next: nil)]),
            path: "/open",
            developerBuild: false,
            expected: ["DEV012"],
            opens: false
        ),
        .init(
            name: "no verdict after a check",
            show: record([entry(site: "unspecified")]),
            path: "/open",
            developerBuild: false,
            expected: ["DEV013"],
            opens: false
        ),
        .init(
            name: "an unknown state",
            show: record([entry(site: "7")]),
            path: "/open",
            developerBuild: false,
            expected: ["DEV014"],
            opens: true
        ),
        .init(
            name: "the app is not on the device, another team's is",
            show: record([entry(appID: "ZZZZZ99999.com.example.matrix")]),
            path: "/open",
            developerBuild: false,
            expected: ["DEV001"],
            opens: false
        ),
        .init(
            name: "a build without the domain",
            show: record([entry(domain: "other.example")]),
            path: "/open",
            developerBuild: false,
            expected: ["DEV002"],
            opens: false
        ),
        .init(
            name: "another variant and version",
            show: record([entry(domain: "example.com?mode=developer", version: "9", flags: "developer")]),
            path: "/open",
            developerBuild: false,
            expected: ["DEV003", "DEV004", "DEV015"],
            opens: false
        ),
        .init(
            name: "developer mode off on the device",
            show: record(
                [entry(domain: "example.com?mode=developer", flags: "developer")],
                developerMode: "no"
            ),
            path: "/open",
            developerBuild: true,
            expected: ["DEV015"],
            opens: false
        ),
        .init(
            name: "a trimmed paste without the approvals",
            show: record([entry()]).split(separator: "\n").filter { !$0.contains("Approval") }.joined(separator: "\n"),
            path: "/open",
            developerBuild: false,
            expected: ["DEV019"],
            opens: true
        ),
        .init(
            name: "overdue, backing off, impossible dates",
            show: record([
                entry(
                    last: "2026-11-25 10:00:00 +0000",
                    next: "2026-11-20 10:00:00 +0000",
                    retries: 9
                )
            ]),
            path: "/open",
            developerBuild: false,
            expected: ["DEV016", "DEV017", "DEV018", "DEV010"],
            opens: true
        ),
    ]

    static let allIDs = Set((1...19).map { String(format: "DEV%03d", $0) })

    /// Every diagnosis is triggered by one scenario and absent from another.
    @Test func everyDiagnosisIsTriggeredAndNot() {
        let triggered = Self.scenarios.reduce(into: Set<String>()) { $0.formUnion($1.expected) }
        #expect(triggered == Self.allIDs)
        for id in Self.allIDs {
            #expect(Self.scenarios.contains { !$0.expected.contains(id) }, "\(id)")
        }
    }

    /// The site's file: it grants `/open*` to the app and nothing else.
    static let grantingDocument = #"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":[{"/":"/open*"}]}]}}"#

    /// A `--aasa-dir` folder serving ``grantingDocument`` for example.com.
    static func aasaFolder(in folder: URL) throws -> URL {
        let aasa = folder.appendingPathComponent("aasa")
        let host = aasa.appendingPathComponent("example.com")
        try FileManager.default.createDirectory(at: host, withIntermediateDirectories: true)
        try Data(grantingDocument.utf8).write(to: host.appendingPathComponent("apple-app-site-association"))
        return aasa
    }

    @Test(arguments: scenarios)
    func theDeviceJoinsTheTrace(_ scenario: Scenario) throws {
        let folder = Scratch.folder.appendingPathComponent(
            "explain-device-\(UUID().uuidString)"
        )
        let top = folder.appendingPathComponent("sysdiagnose_2026.11.26_10-00-00+0000_iPhone-OS_iPhone_23B85")
        try FileManager.default.createDirectory(at: top, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(scenario.show.utf8).write(to: top.appendingPathComponent("swcutil_show.txt"))
        let aasa = try Self.aasaFolder(in: folder)
        let domain = scenario.developerBuild ? "applinks:example.com?mode=developer" : "applinks:example.com"
        let ipa = try ConformanceBuild.write(
            kind: scenario.developerBuild ? .development : .appStore,
            domains: [domain],
            mdm: false
        )
        defer { try? FileManager.default.removeItem(atPath: ipa) }
        let common = [
            "explain", "https://example.com\(scenario.path)", ipa, "--offline", "--aasa-dir", aasa.path,
            "--device", folder.path, "--now", "2026-11-26T12:00:00Z",
        ]
        // The files alone: the link opens exactly where the site's file grants it.
        let alone = try CLI.run(Array(common.dropLast(4)) + ["--now", "2026-11-26T12:00:00Z"])
        #expect(alone.status == (scenario.path == "/open" ? 0 : 1), "\(scenario): \(alone.stdout)")

        let json = try CLI.run(common + ["--format", "json"])
        #expect(json.status == (scenario.opens ? 0 : 1), "\(scenario): \(json.stdout)\(json.stderr)")
        let object = try json.jsonObject()
        let steps = try #require(object["steps"] as? [[String: Any]])
        let device = try #require(steps.first { $0["name"] as? String == "device" }, "\(scenario)")
        let diagnoses = try #require(device["diagnoses"] as? [[String: Any]])
        #expect(Set(diagnoses.compactMap { $0["id"] as? String }) == scenario.expected, "\(scenario)")
        for diagnosis in diagnoses {
            let lines = try #require(diagnosis["evidenceLines"] as? [Int])
            let count = scenario.show.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines.allSatisfy { (1...count).contains($0) }, "\(scenario): \(lines)")
            #expect((diagnosis["source"] as? String)?.isEmpty == false)
        }
        #expect((object["verdict"] as? String == "opens") == scenario.opens, "\(scenario)")
        let file = folder.appendingPathComponent("explain.json")
        try Data(json.stdout.utf8).write(to: file)
        #expect(try JSONSchemaCheck.problems([file]) == [], "\(scenario)")

        // links --device tells the same story where the site's file decides the same way for the app as for the URL
        // (it lists the app, and `/open` is what it grants).
        if scenario.path == "/open" {
            let links = try CLI.run(["links", ipa] + Array(common.dropFirst(3)) + ["--format", "json"])
            #expect(links.status == 0, "\(scenario): \(links.stderr)")
            let sheet = try links.jsonObject()
            let held = try #require(sheet["device"] as? [[String: Any]], "\(scenario)")
            let claim = try #require(held.first, "\(scenario)")
            let ids = Set(((claim["diagnoses"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
            #expect(ids == scenario.expected, "\(scenario): links says \(ids)")
            let tapped = try #require((sheet["links"] as? [[String: Any]])?.first, "\(scenario)")
            #expect(tapped["onThisDevice"] as? String == (scenario.opens ? "opens" : "stays"), "\(scenario)")
            let sheetFile = folder.appendingPathComponent("links.json")
            try Data(links.stdout.utf8).write(to: sheetFile)
            #expect(try JSONSchemaCheck.problems([sheetFile]) == [], "\(scenario)")
        }

        // The text says the same: the device step, each diagnosis, the verdict.
        let text = try CLI.run(common)
        #expect(text.status == json.status)
        for id in scenario.expected { #expect(text.stdout.contains(id), "\(scenario): \(id)") }
        #expect(
            text.stdout.contains(
                ". \(device["status"] as? String == "pass" ? "✓" : device["status"] as? String == "fail" ? "✗" : "·") device:"
            )
        )
    }

    /// Evidence that cannot be read ends the run before anything else: one line, exit 2.
    @Test func unreadableEvidenceStopsTheRun() throws {
        let result = try CLI.run([
            "explain", "https://acme.example/products/42", SampleFiles.path("Acme.ipa"), "--offline", "--aasa-dir",
            SampleFiles.path("aasa"), "--device", "/nonexistent/sysdiagnose.tar.gz",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/sysdiagnose.tar.gz: no such file"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}

/// The same device states against live copies: a loopback HTTPS origin and a fake Apple CDN (a CA made for the test,
/// `--resolve`, `--cdn-url`) with the CDN's `Age` and failure headers, so that the stale verdict is judged against
/// when Apple's CDN took the copy it serves, and a download error against what the CDN says now.
@Suite(.serialized)
struct ExplainDeviceLiveCLITests {
    /// Its own loopback address, so that it never shares port 443 with another suite's server.
    static let address = "127.0.0.25"
    static let canServe443 = Loopback.canServe443(on: address)

    struct Live: Sendable, CustomStringConvertible {
        let name: String
        /// The device's entry (ExplainDeviceCLITests.entry arguments).
        let site: String
        let last: String
        let error: String?
        /// Whether the CDN serves a copy listing the app (else a 404 with Apple's failure headers), and its `Age`.
        let cdnServes: Bool
        let age: Int
        let expected: Set<String>
        /// Words the diagnosis must say.
        let says: String
        var description: String { name }
    }

    static let scenarios: [Live] = [
        .init(
            name: "denied before the CDN took its copy",
            site: "denied",
            last: "2026-11-20 10:00:00 +0000",
            error: nil,
            cdnServes: true,
            age: 3_600,
            expected: ["DEV007"],
            says: "before Apple's CDN took the copy it serves now"
        ),
        .init(
            name: "denied after the CDN took its copy",
            site: "denied",
            last: "2026-11-26 11:30:00 +0000",
            error: nil,
            cdnServes: true,
            age: 7_200,
            expected: ["DEV007"],
            says: "after Apple's CDN took the copy it serves now"
        ),
        .init(
            name: "a CDN failure the device recorded, still failing",
            site: "unspecified",
            last: "2026-11-26 09:00:00 +0000",
            error: ExplainDeviceCLITests.cdnError,
            cdnServes: false,
            age: 0,
            expected: ["DEV009"],
            says: "It is missing at https://example.com/.well-known/apple-app-site-association"
        ),
        .init(
            name: "a CDN failure the device recorded, fixed since",
            site: "unspecified",
            last: "2026-11-26 09:00:00 +0000",
            error: ExplainDeviceCLITests.cdnError,
            cdnServes: true,
            age: 600,
            expected: ["DEV009"],
            says: "fixed since"
        ),
    ]

    /// A loopback HTTPS server for example.com and the fake CDN (`cdn.test`), with a CA made for the test in
    /// `folder`, and the network options that send ipacheck there.
    static func serve(
        in folder: URL,
        respond: @escaping @Sendable (TestRequest) -> TestResponse
    ) async throws -> (server: TLSTestServer, network: [String]) {
        let ca = try TestCA()
        let caFile = try ca.writeCertificate(to: folder)
        let hosts = ["example.com", "cdn.test"]
        let identity = try ca.issueServerCertificate(dnsNames: hosts)
        let server = try await TLSTestServer.start(identity: identity, host: address, port: 443, respond: respond)
        let network =
            hosts.flatMap { ["--resolve", "\($0):443:\(address)"] } + [
                "--ca-file", caFile.path, "--cdn-url", "https://cdn.test/a/v1/", "--timeout", "120",
            ]
        return (server, network)
    }

    /// Every device state of the offline table, with the same file served live by the origin and Apple's CDN: the
    /// diagnoses and the verdict are the table's.
    @Test(.enabled(if: canServe443, "needs to listen on 127.0.0.25:443 (root)"))
    func everyDeviceStateLive() async throws {
        let folder = Scratch.folder.appendingPathComponent("live-table-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let listed = Array(ExplainDeviceCLITests.grantingDocument.utf8)
        let (server, network) = try await Self.serve(in: folder) { _ in
            .full(status: 200, headers: [("Content-Type", "application/json"), ("Age", "600")], body: listed)
        }
        defer { Task { await server.shutdown() } }
        for scenario in ExplainDeviceCLITests.scenarios {
            let top = folder.appendingPathComponent(UUID().uuidString)
                .appendingPathComponent("sysdiagnose_2026.11.26_10-00-00+0000_iPhone-OS_iPhone_23B85")
            try FileManager.default.createDirectory(at: top, withIntermediateDirectories: true)
            try Data(scenario.show.utf8).write(to: top.appendingPathComponent("swcutil_show.txt"))
            let ipa = try ConformanceBuild.write(
                kind: scenario.developerBuild ? .development : .appStore,
                domains: [scenario.developerBuild ? "applinks:example.com?mode=developer" : "applinks:example.com"],
                mdm: false
            )
            defer { try? FileManager.default.removeItem(atPath: ipa) }
            let result = try CLI.run(
                [
                    "explain", "https://example.com\(scenario.path)", ipa, "--device", top.path, "--now",
                    "2026-11-26T12:00:00Z", "--format", "json",
                ] + network
            )
            #expect(result.status == (scenario.opens ? 0 : 1), "\(scenario): \(result.stdout)\(result.stderr)")
            let steps = try #require(try result.jsonObject()["steps"] as? [[String: Any]], "\(scenario)")
            let device = try #require(steps.first { $0["name"] as? String == "device" }, "\(scenario)")
            let ids = Set(((device["diagnoses"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
            #expect(ids == scenario.expected, "\(scenario): live says \(ids)")
        }
    }

    @Test(.enabled(if: canServe443, "needs to listen on 127.0.0.25:443 (root)"), arguments: scenarios)
    func liveCopiesJudgeTheDevicesVerdict(_ scenario: Live) async throws {
        let folder = Scratch.folder.appendingPathComponent("live-device-\(UUID().uuidString)")
        let top = folder.appendingPathComponent("sysdiagnose_2026.11.26_11-45-00+0000_iPhone-OS_iPhone_23B85")
        try FileManager.default.createDirectory(at: top, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let show = ExplainDeviceCLITests.record([
            ExplainDeviceCLITests.entry(
                site: scenario.site,
                last: scenario.last,
                next: "2026-11-30 10:00:00 +0000",
                error: scenario.error
            )
        ])
        try Data(show.utf8).write(to: top.appendingPathComponent("swcutil_show.txt"))
        let listed = Array(ExplainDeviceCLITests.grantingDocument.utf8)
        let (server, network) = try await Self.serve(in: folder) { request in
            let host = request.header("Host")?.split(separator: ":").first.map(String.init) ?? ""
            if host == "cdn.test" {
                guard scenario.cdnServes else {
                    return .full(
                        status: 404,
                        headers: [
                            ("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 404 Not Found"),
                            ("Apple-Failure-Details", #"{"status":"404 Not Found"}"#),
                        ],
                        body: []
                    )
                }
                return .full(
                    status: 200,
                    headers: [
                        ("Content-Type", "application/json"), ("Cache-Control", "max-age=21600,public"),
                        ("Age", String(scenario.age)),
                    ],
                    body: listed
                )
            }
            // The site's file changed on Nov 22 (Sunday), as its Last-Modified says.
            return .full(
                status: 200,
                headers: [("Content-Type", "application/json"), ("Last-Modified", "Sun, 22 Nov 2026 10:00:00 GMT")],
                body: listed
            )
        }
        defer { Task { await server.shutdown() } }
        let ipa = try ConformanceBuild.write(kind: .appStore, domains: ["applinks:example.com"], mdm: false)
        defer { try? FileManager.default.removeItem(atPath: ipa) }
        let result = try CLI.run(
            [
                "explain", "https://example.com/open", ipa, "--device", folder.path, "--now", "2026-11-26T12:00:00Z",
                "--format", "json",
            ] + network
        )
        #expect(result.status == 1, "\(scenario): \(result.stdout)\(result.stderr)")
        let steps = try #require(try result.jsonObject()["steps"] as? [[String: Any]])
        let device = try #require(steps.first { $0["name"] as? String == "device" }, "\(scenario): \(steps)")
        let diagnoses = try #require(device["diagnoses"] as? [[String: Any]])
        #expect(Set(diagnoses.compactMap { $0["id"] as? String }) == scenario.expected, "\(scenario)")
        #expect(
            diagnoses.contains { ($0["summary"] as? String)?.contains(scenario.says) == true },
            "\(scenario): \(diagnoses)"
        )
        // A device check before the site's Last-Modified is said to be before the change; one after it is not.
        let beforeChange = "before the site's file last changed (Last-Modified Sun, 22 Nov 2026 10:00:00 GMT)"
        let saysBefore = diagnoses.contains { ($0["summary"] as? String)?.contains(beforeChange) == true }
        #expect(
            saysBefore == (scenario.expected == ["DEV007"] && scenario.last < "2026-11-22"),
            "\(scenario): \(diagnoses)"
        )
    }
}
