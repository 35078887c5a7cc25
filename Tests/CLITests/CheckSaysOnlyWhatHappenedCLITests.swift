import Foundation
import IPACheckTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `ipacheck check` says only what happened: a tampered build fails and the untampered one does not; an
/// unreadable input is an error in every format; a check that did not run is never a pass; no network at all is
/// one exit-2 line, not a blamed domain.
@Suite(.serialized)
struct CheckSaysOnlyWhatHappenedCLITests {
    private func check(_ ipa: String, _ extra: [String] = []) throws -> CLIResult {
        try CLI.run(["check", ipa] + SampleFiles.offline + extra)
    }

    private func rules(_ result: CLIResult) throws -> Set<String> {
        let findings = try #require(try result.jsonObject()["findings"] as? [[String: Any]])
        return Set(
            findings.compactMap { finding in
                finding["suppressed"] == nil ? finding["rule"] as? String : nil
            }
        )
    }

    /// The seal's own rules (code pages, special slots, CMS, resources, damaged members).
    static let sealRules: Set<String> = [
        "SIG001", "SIG002", "SIG003", "SIG004", "SIG005", "SIG006", "SIG011", "SIG030", "SIG031", "SIG032", "SIG033",
        "SIG034", "SIG035", "ARC011",
    ]

    // MARK: - Tampered builds

    /// Each change is one a release must never ship: the untouched rezip has no seal finding, each tampered copy
    /// exactly the one that names the change.
    @Test(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 to unpack the sample"))
    func tamperedBuildsFailAndTheGenuineOneDoesNot() throws {
        let folder = try Python.unzip(SampleFiles.acme)
        let genuine = try check(try Rezip.write(folder), ["--format", "json"])
        #expect(try rules(genuine).isDisjoint(with: Self.sealRules), "\(genuine.stdout)")

        struct Tamper {
            let member: String
            let rule: String
            let change: (inout [UInt8]) -> Bool
        }
        let tampers = [
            // A byte of __text (well inside the first page, after the load commands).
            Tamper(member: "Payload/Acme.app/Acme", rule: "SIG002") { bytes in
                guard bytes.count > 3000 else { return false }
                bytes[3000] ^= 0xFF
                return true
            },
            // Info.plist edited: the CodeDirectory's special slot −1 no longer matches.
            Tamper(member: "Payload/Acme.app/Info.plist", rule: "SIG003") { bytes in
                guard let at = Bytes.find(Array("com.acme.shop".utf8), in: bytes) else { return false }
                bytes[at + 4] ^= 0x20
                return true
            },
            // A sealed resource changed.
            Tamper(member: "Payload/Acme.app/GoogleService-Info.plist", rule: "SIG030") { bytes in
                guard let at = Bytes.find(Array("<string>".utf8), in: bytes) else { return false }
                bytes[at + 8] ^= 0x20
                return true
            },
        ]
        for tamper in tampers {
            var changed = false
            let ipa = try Rezip.write(folder) { name, bytes in
                if name == tamper.member { changed = tamper.change(&bytes) }
            }
            #expect(changed, "\(tamper.member)")
            let result = try check(ipa, ["--format", "json"])
            #expect(result.status == 1)
            let found = try rules(result)
            #expect(found.contains(tamper.rule), "\(tamper.rule) for \(tamper.member): \(found)")
            let junit = try check(ipa, ["--format", "junit"])
            #expect(junit.stdout.contains("name=\"\(tamper.rule) "), "JUnit names \(tamper.rule)")
            #expect(junit.stdout.contains("<failure"))
        }

        // A file added after signing.
        try Data("surprise".utf8).write(to: folder.appendingPathComponent("Payload/Acme.app/added.txt"))
        let added = try check(try Rezip.write(folder), ["--format", "json"])
        #expect(try rules(added).contains("SIG032"), "\(added.stdout)")
    }

    // MARK: - Unreadable inputs

    /// Every format says the run is an error and names the input; the exit status is 2; none says PASS.
    @Test(arguments: ["text", "json", "sarif", "junit", "github"])
    func unreadableInputIsAnErrorInEveryFormat(format: String) throws {
        let broken = SampleFiles.broken("NotAZip.ipa")
        let result = try check(broken, ["--format", format])
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(!result.stdout.contains("PASS"), "\(result.stdout)")
        switch format {
        case "text":
            #expect(result.stdout.contains("ERROR") && result.stdout.contains("NotAZip.ipa"))
        case "json":
            let json = try result.jsonObject()
            #expect(json["verdict"] as? String == "error")
            let inputs = try #require(json["inputs"] as? [[String: Any]])
            #expect(inputs.first?["verdict"] as? String == "error")
            #expect(
                (inputs.first?["error"] as? String)?.contains("is neither an ipa (zip), a Mach-O nor a property list")
                    == true
            )
        case "sarif":
            let run = try #require((try result.jsonObject()["runs"] as? [[String: Any]])?.first)
            let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
            #expect(invocation["executionSuccessful"] as? Bool == false)
            let notes = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
            #expect(notes.contains { $0["level"] as? String == "error" })
        case "junit":
            #expect(result.stdout.contains("<error"))
            #expect(result.stdout.contains("errors=\"1\""))
        default:
            #expect(result.stdout.contains("::error ") && result.stdout.contains("could not be read"))
        }
    }

    /// With two ipas, the unreadable one does not vanish: it is an input of the report, with the error.
    @Test func anUnreadableInputBesideAReadableOneStays() throws {
        let result = try CLI.run(
            ["check", SampleFiles.acme, SampleFiles.broken("NotAZip.ipa"), "--format", "json"] + SampleFiles.offline
        )
        #expect(result.status == 2)
        let json = try result.jsonObject()
        #expect(json["verdict"] as? String == "error")
        let inputs = try #require(json["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["verdict"] as? String } == ["fail", "error"])
    }

    // MARK: - What did not run

    /// Offline, nothing was fetched: JUnit skips the CDN and serving rules with the reason, never passes them,
    /// and SARIF does not list them as applied.
    @Test func offlineChecksAreSkippedNotPassed() throws {
        let junit = try check(SampleFiles.acme, ["--format", "junit"])
        let skipped = try Self.skippedCases(junit.stdout)
        #expect(skipped["CDN001"]?.contains("offline") == true, "\(skipped)")
        #expect(skipped["SERVE030"]?.contains("offline") == true)
        #expect(skipped["LINK005"] != nil)
        let sarif = try check(SampleFiles.acme, ["--format", "sarif"])
        let run = try #require((try sarif.jsonObject()["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let applied = try #require(driver["rules"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(!applied.contains("CDN001"))
        #expect(applied.contains("LINK002"))
        let text = try check(SampleFiles.acme)
        #expect(text.stdout.contains("not checked:"))
        #expect(text.stdout.contains("Apple's CDN was not asked"))
    }

    /// A build whose executable is missing: the rules that judge code and its signature had nothing to judge, so
    /// JUnit skips them with the reason and SARIF does not list them as applied (they once passed: "DIST001 no
    /// provisioning profile" and "SIG001 code is not signed" as passing cases beside "no profile").
    @Test func rulesWithNothingToJudgeAreSkippedNotPassed() throws {
        var zip = ZipBuilder()
        zip.add(
            "Payload/A.app/Info.plist",
            PlistFixture.info(["CFBundleIdentifier": "com.example.a", "CFBundleExecutable": "A"])
        )
        try expectNothingJudged(try zip.write(named: "NoExecutable.ipa"))
    }

    /// The same on a real archive: fastlane's iOSAppOnly.ipa (MANIFEST), the app one folder down, no executable.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func rulesWithNothingToJudgeAreSkippedOnARealArchive() throws {
        try expectNothingJudged(Corpus.url("ipa/fastlane_iOSAppOnly.ipa").path)
    }

    private func expectNothingJudged(_ ipa: String) throws {
        let junit = try check(ipa, ["--format", "junit"])
        #expect(junit.stdout.contains("ARC008"))
        let skipped = try Self.skippedCases(junit.stdout)
        for rule in ["DIST001", "SIG001", "SIG002", "SIG021", "PROF007"] {
            #expect(
                skipped[rule]?.contains("no bundle has an executable") == true,
                "\(rule): \(skipped[rule] ?? "passed")"
            )
        }
        let sarif = try check(ipa, ["--format", "sarif"])
        let run = try #require((try sarif.jsonObject()["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let applied = try #require(driver["rules"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(!applied.contains("SIG001") && !applied.contains("DIST001"), "\(applied)")
    }

    /// The `<skipped message>` of each skipped test case, by rule ID.
    static func skippedCases(_ xml: String) throws -> [String: String] {
        final class Collector: NSObject, XMLParserDelegate {
            var current: String?
            var skipped: [String: String] = [:]
            func parser(
                _ parser: XMLParser,
                didStartElement name: String,
                namespaceURI: String?,
                qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                if name == "testcase" { current = attributes["name"]?.split(separator: " ").first.map(String.init) }
                if name == "skipped", let current { skipped[current] = attributes["message"] ?? "" }
            }
        }
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return collector.skipped
    }

    // MARK: - No network

    /// Whether nothing listens on 127.0.0.1:443, where `--resolve HOST:443:127.0.0.1` sends the origins.
    static let loopback443IsClosed: Bool =
        (try? Python.run(script: Self.probe, arguments: ["443"]))?.output
        .trimmingCharacters(in: .whitespacesAndNewlines) == "closed"

    static let probe = """
        import socket, sys
        s = socket.socket()
        s.settimeout(2)
        print("open" if s.connect_ex(("127.0.0.1", int(sys.argv[1]))) == 0 else "closed")
        """

    /// Every origin and Apple's CDN refuse the connection (loopback ports nobody listens on): one line naming the
    /// network, exit 2, and no domain blamed on stdout.
    @Test(.enabled(if: loopback443IsClosed, "needs nothing listening on 127.0.0.1:443"))
    func noNetworkAtAllIsOneExitTwoLine() throws {
        try RefusingPort.with { port in try noNetworkAtAllIsOneExitTwoLine(cdnPort: port) }
    }

    private func noNetworkAtAllIsOneExitTwoLine(cdnPort port: Int) throws {
        let closed = "127.0.0.1"
        var arguments = ["check", SampleFiles.acme, "--timeout", "5", "--cdn-url", "https://\(closed):\(port)/a/v1/"]
        for host in [
            "acme.example", "links.acme.example", "shop.acme.example", "www.acme.example", "acme.page.link",
            "mdm.acme.example", "beta.acme.example",
        ] {
            arguments += ["--resolve", "\(host):443:\(closed)"]
        }
        let result = try CLI.run(arguments + ["--format", "json"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("no network"))
        // The report in the format asked says the run did not complete, and blames no domain.
        let json = try result.jsonObject()
        #expect(json["verdict"] as? String == "error")
        let rules = ((json["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String }
        #expect(!rules.contains("SERVE007"), "\(rules)")
    }

    /// A failure in one part never hides another part's findings: with no network, every finding the offline
    /// report has that needs no file (the build's, the entitlements', the profile's) is in the report, in every
    /// format; what needed the hosts' files is listed as not checked because of the network, never as passed.
    @Test(.enabled(if: loopback443IsClosed, "needs nothing listening on 127.0.0.1:443"))
    func noNetworkKeepsEveryFindingThatNeedsNone() throws {
        try RefusingPort.with { port in try noNetworkKeepsEveryFindingThatNeedsNone(cdnPort: port) }
    }

    private func noNetworkKeepsEveryFindingThatNeedsNone(cdnPort port: Int) throws {
        let closed = "127.0.0.1"
        var network = ["--timeout", "5", "--cdn-url", "https://\(closed):\(port)/a/v1/"]
        for host in [
            "acme.example", "links.acme.example", "shop.acme.example", "www.acme.example", "acme.page.link",
            "mdm.acme.example", "beta.acme.example",
        ] {
            network += ["--resolve", "\(host):443:\(closed)"]
        }
        func findings(_ result: CLIResult) throws -> Set<String> {
            let list = (try result.jsonObject()["findings"] as? [[String: Any]]) ?? []
            return Set(list.map { "\($0["rule"] as? String ?? "") \($0["domain"] as? String ?? "")" })
        }
        let offline = try findings(CLI.run(["check", SampleFiles.acme, "--format", "json"] + SampleFiles.offline))
        // What the files decide (LINK002 for links.acme.example, the missing offline file of acme.page.link).
        let local = offline.filter { !$0.hasPrefix("LINK002") && !$0.hasPrefix("SERVE060") }
        #expect(local.count == offline.count - 2, "\(offline)")

        let json = try CLI.run(["check", SampleFiles.acme, "--format", "json"] + network)
        #expect(json.status == 2)
        #expect(try findings(json) == local)
        let input = try #require((try json.jsonObject()["inputs"] as? [[String: Any]])?.first)
        #expect(input["verdict"] as? String == "error")
        let notChecked = (input["notChecked"] as? [[String: Any]]) ?? []
        let networkReason = try #require(notChecked.first { ($0["reason"] as? String ?? "").hasPrefix("no network") })
        let skipped = (networkReason["rules"] as? [String]) ?? []
        for rule in ["LINK001", "LINK002", "SERVE001", "CDN001", "AASA101"] {
            #expect(skipped.contains(rule), "\(rule) needs the files: \(skipped)")
        }
        let ruleIDs = Set(local.map { String($0.prefix { $0 != " " }) })
        for format in ["text", "sarif", "junit", "github"] {
            let result = try CLI.run(["check", SampleFiles.acme, "--format", format] + network)
            #expect(result.status == 2, "\(format)")
            // GitHub annotates notes only with --fail-on note (PROF006 and SIG009 are notes here).
            for rule in ruleIDs where format != "github" || !["PROF006", "SIG009"].contains(rule) {
                #expect(result.stdout.contains(rule), "\(format) lost \(rule):\n\(result.stdout)")
            }
            if format == "sarif" {
                let runs = (try result.jsonObject()["runs"] as? [[String: Any]]) ?? []
                let results = (runs.first?["results"] as? [[String: Any]]) ?? []
                #expect(!results.contains { $0["ruleId"] as? String == "SERVE007" }, "SARIF blames a domain")
            } else if format != "junit" {
                #expect(!result.stdout.contains("SERVE007"), "\(format) blames a domain for the network")
            }
        }
        let junit = try CLI.run(["check", SampleFiles.acme, "--format", "junit"] + network).stdout
        #expect(junit.contains("type=\"incomplete\""), "\(junit)")
        // Not run is not passed: LINK002's case is skipped with the network as the reason.
        let link002Skipped = #"<testcase name="LINK002[^>]*>\s*<skipped message="not checked: no network"#
        #expect(junit.range(of: link002Skipped, options: .regularExpression) != nil, "\(junit)")
    }
}
