import Foundation
import IPACheckTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `ipacheck check`: the release gate's exit codes, JSON shape and the CI formats (README and docs/output-formats.md).
///
/// Outcomes come from Samples/README.md ("Designed findings"): Acme has errors (exit 1), Minimal has none (exit
/// 0), Traversal.ipa has one error, ARC001 (exit 1 in every gate).
struct CheckCLITests {
    private func check(_ ipa: String, _ extra: [String] = []) throws -> CLIResult {
        try CLI.run(["check", ipa] + SampleFiles.offline + extra)
    }

    /// Time is an input: `--now` (else SOURCE_DATE_EPOCH) is when expiries and dated requirements are judged.
    ///
    /// Samples/README: Acme's profiles expire 2031-01-01; App Store Connect's iOS 26 SDK minimum began 2026-04-28.
    @Test func theJudgementTimeIsAnInput() throws {
        func rules(_ extra: [String], environment: [String: String] = [:]) throws -> Set<String> {
            let result = try CLI.run(
                ["check", SampleFiles.acme, "--format", "json"] + SampleFiles.offline + extra,
                environment: environment
            )
            let findings = (try result.jsonObject()["findings"] as? [[String: Any]]) ?? []
            return Set(findings.compactMap { $0["rule"] as? String })
        }
        let later = try rules(["--now", "2032-01-01"])
        #expect(later.contains("PROF001"), "\(later)")
        let earlier = try rules(["--now", "2026-01-01T12:00:00Z"])
        #expect(!earlier.contains("PROF001") && earlier.contains("PLAT006"), "iOS 18 SDK minimum: \(earlier)")
        #expect(!(try rules(["--now", "2025-01-01"]).contains("PLAT006")), "no minimum in force yet")
        // SOURCE_DATE_EPOCH (2032-01-01) when --now is absent; --now wins over it.
        #expect(try rules([], environment: ["SOURCE_DATE_EPOCH": "1956528000"]).contains("PROF001"))
        #expect(
            !(try rules(["--now", "2026-01-01"], environment: ["SOURCE_DATE_EPOCH": "1956528000"]).contains("PROF001"))
        )
        for (value, environment) in [("--now=yesterday", [:]), ("", ["SOURCE_DATE_EPOCH": "soon"])] {
            let result = try CLI.run(
                ["check", SampleFiles.acme] + SampleFiles.offline + (value.isEmpty ? [] : [value]),
                environment: environment
            )
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("ipacheck: error: "), "\(result.stderr)")
        }
    }

    /// Worst first over the whole report: every error line before any warning or note line, whatever bundle or
    /// domain it is about (the Acme sample's trust notes came before its app's errors).
    @Test func errorsComeBeforeNotesInTheText() throws {
        let result = try CLI.run(["check", SampleFiles.acme] + SampleFiles.offline)
        let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let lastError = try #require(lines.lastIndex { $0.hasPrefix("error ") })
        let firstNote = try #require(lines.firstIndex { $0.hasPrefix("note ") })
        #expect(lastError < firstNote, "\(result.stdout)")
    }

    /// GitHub caps annotations per step: notes, which ask for no action, are annotated only when the gate fails
    /// on them, and the summary says how many were left out.
    @Test func githubAnnotatesNotesOnlyWhenTheyCanFail() throws {
        let plain = try CLI.run(["check", SampleFiles.acme, "--format", "github"] + SampleFiles.offline)
        #expect(!plain.stdout.contains("::notice"), "\(plain.stdout)")
        #expect(plain.stdout.contains("2 notes not annotated (--fail-on note annotates them)"))
        #expect(plain.stdout.contains("::error"))
        let notes = try CLI.run(
            ["check", SampleFiles.acme, "--format", "github", "--fail-on", "note"] + SampleFiles.offline
        )
        #expect(notes.stdout.components(separatedBy: "::notice").count - 1 == 2, "\(notes.stdout)")
    }

    /// A broken App Flip config is an input error naming the file once, then the key and what is wrong.
    @Test func aBrokenAppFlipConfigIsNamedOnce() throws {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-cli-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("appflip.json")
        try Data(#"{"appFlipURL": "https://example.com/f", "clientID": null}"#.utf8).write(to: config)
        let result = try check(SampleFiles.acme, ["--appflip", config.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("ipacheck: error: \(config.path): clientID: must be a string, not null"))
        #expect(result.stderr.components(separatedBy: config.path).count == 2, "\(result.stderr)")
    }

    @Test func acmeFailsTheGateWithErrors() throws {
        let result = try check(SampleFiles.acme, ["--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let json = try result.jsonObject()
        let findings = try #require(json["findings"] as? [[String: Any]])
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(Set(summary.keys).isSuperset(of: ["errors", "warnings", "notes"]))
        let counts = ["error", "warning", "note"].map { level in
            findings.filter { $0["severity"] as? String == level }.count
        }
        #expect(summary["errors"] as? Int == counts[0])
        #expect(summary["warnings"] as? Int == counts[1])
        #expect(summary["notes"] as? Int == counts[2])
        #expect(counts[0] >= 7, "5 main-app errors plus the Dynamic Links domain and its missing AASA")

        for finding in findings {
            let rule = try #require(finding["rule"] as? String)
            #expect(rule.range(of: #"^[A-Z]+[0-9]{3}$"#, options: .regularExpression) != nil, "\(rule)")
            #expect(["error", "warning", "note"].contains(finding["severity"] as? String ?? ""))
            #expect(!(finding["message"] as? String ?? "").isEmpty)
            #expect(!(finding["fix"] as? String ?? "").isEmpty, "\(rule) has no fix")
        }
        // The designed errors, by meaning: wrong prefix on links, managed mode without the entitlement; each names
        // its bundle and domain. The Dynamic Links domain without a file is one finding for the host (the missing
        // file, SERVE060 offline) that names the claim it breaks, not one more per claim.
        let errors = findings.filter { $0["severity"] as? String == "error" }
        let missing = try #require(
            errors.first { $0["domain"] as? String == "acme.page.link" && $0["rule"] as? String == "SERVE060" }
        )
        #expect((missing["affects"] as? [String]) == ["applinks:acme.page.link (Payload/Acme.app)"])
        #expect(!errors.contains { $0["rule"] as? String == "LINK006" })
        for (rule, domain) in [("LINK002", "links.acme.example"), ("LINK004", "mdm.acme.example")] {
            #expect(
                errors.contains {
                    $0["rule"] as? String == rule && $0["domain"] as? String == domain
                        && $0["bundle"] as? String == "Payload/Acme.app"
                },
                "\(rule) for \(domain)"
            )
        }
    }

    /// Minimal is an ad hoc simulator build without a profile: it passes only a development gate.
    @Test func minimalPassesTheGate() throws {
        let result = try check(SampleFiles.minimal, ["--format", "json", "--distribution", "development"])
        #expect(result.status == 0, "\(result.stdout)")
        let json = try result.jsonObject()
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 0)
    }

    /// No profile, a simulator build, ad hoc code fail every gate but `--distribution development`.
    @Test func minimalFailsEveryOtherGate() throws {
        for gate in [[], ["--distribution", "app-store"], ["--distribution", "ad-hoc"]] {
            let result = try check(SampleFiles.minimal, ["--format", "json"] + gate)
            #expect(result.status == 1, "\(gate)")
            let findings = try #require(try result.jsonObject()["findings"] as? [[String: Any]])
            let rules = Set(findings.compactMap { $0["rule"] as? String })
            #expect(rules.isSuperset(of: ["DIST001", "DIST002", "DIST003"]), "\(gate): \(rules)")
        }
    }

    /// Traversal.ipa's member `../evil` leaves the archive: ARC001 is an error, so no gate passes it, whatever
    /// the threshold (it was a warning, and the default gate passed the archive).
    @Test(arguments: [nil, "error", "warning", "note"] as [String?])
    func aMemberThatLeavesTheArchiveFailsEveryGate(failOn: String?) throws {
        let gate = ["--distribution", "development", "--format", "json"] + (failOn.map { ["--fail-on", $0] } ?? [])
        let result = try check(SampleFiles.broken("Traversal.ipa"), gate)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let findings = try #require(try result.jsonObject()["findings"] as? [[String: Any]])
        let traversal = try #require(findings.first { $0["rule"] as? String == "ARC001" })
        #expect(traversal["severity"] as? String == "error")
        #expect((traversal["message"] as? String)?.contains("climbs out of the archive") == true)
    }

    /// The gate's threshold is consistent with the summary for Minimal: exit 1 at a severity exactly when a
    /// finding of that severity or worse exists.
    @Test(arguments: ["error", "warning", "note"])
    func failOnAgreesWithTheSummary(failOn: String) throws {
        let json = try check(SampleFiles.minimal, ["--format", "json"]).jsonObject()
        let summary = try #require(json["summary"] as? [String: Int])
        let atOrAbove =
            switch failOn {
            case "error": summary["errors"] ?? 0
            case "warning": (summary["errors"] ?? 0) + (summary["warnings"] ?? 0)
            default: (summary["errors"] ?? 0) + (summary["warnings"] ?? 0) + (summary["notes"] ?? 0)
            }
        let result = try check(SampleFiles.minimal, ["--fail-on", failOn])
        #expect(result.status == (atOrAbove > 0 ? 1 : 0))
    }

    static let canValidate = Python.hasJSONSchema || Python.isCI

    @Test(.enabled(if: canValidate, "needs python3 with jsonschema (required when CI=true)"))
    func sarifIsValidAgainstTheOfficialSchema() throws {
        #expect(Python.hasJSONSchema, "python3 -c 'import jsonschema' failed; pip install jsonschema")
        let result = try check(SampleFiles.acme, ["--appflip", SampleFiles.appflip, "--format", "sarif"])
        #expect(result.status == 1)
        let validation = try Python.validateSARIF(result.stdout)
        #expect(validation.status == 0, "\(validation.output)")
        #expect(validation.output.hasSuffix("valid\n"))
        let log = try result.jsonObject()
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        #expect(results.contains { $0["ruleId"] as? String == "LINK002" })
    }

    @Test func junitIsWellFormedXML() throws {
        let result = try check(SampleFiles.acme, ["--format", "junit"])
        #expect(result.status == 1)
        let parser = XMLParser(data: Data(result.stdout.utf8))
        let collector = ElementCollector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(collector.names.first == "testsuites" || collector.names.first == "testsuite")
        #expect(collector.names.contains("testcase"))
        #expect(collector.names.contains("failure"))
    }

    @Test func githubAnnotationsAreWorkflowCommands() throws {
        let result = try check(SampleFiles.acme, ["--format", "github"])
        #expect(result.status == 1)
        // One workflow command per finding, then the renderer's plain summary line.
        let all = result.stdout.split(separator: "\n")
        let summary = try #require(all.last)
        let lines = all.dropLast()
        #expect(summary.hasPrefix("ipacheck: ") && summary.contains("FAIL"), "\(summary)")
        for line in lines {
            #expect(
                line.hasPrefix("::error ") || line.hasPrefix("::warning ") || line.hasPrefix("::notice "),
                "\(line)"
            )
        }
        let json = try check(SampleFiles.acme, ["--format", "json"]).jsonObject()
        let findings = try #require(json["findings"] as? [[String: Any]])
        // Every finding but the notes (annotated only with --fail-on note) is one annotation.
        #expect(lines.count == findings.filter { $0["severity"] as? String != "note" }.count)
        #expect(
            lines.filter { $0.hasPrefix("::error ") }.count
                == findings.filter { $0["severity"] as? String == "error" }.count
        )
        #expect(lines.contains { $0.hasPrefix("::error ") && $0.contains("LINK002") })
    }

    @Test func textReportHasNoEscapesUnderNoColor() throws {
        let result = try check(SampleFiles.acme)
        #expect(result.status == 1)
        #expect(result.stdout.contains("LINK002"))
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test func unreadableIPAExitsTwoWithOneLineNamingIt() throws {
        let path = SampleFiles.broken("NotAZip.ipa")
        let result = try check(path)
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(path))
    }

    @Test func aSuppressionInTheConfigRemovesTheFinding() throws {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("gate.json")
        let text = #"{"suppress": [{"rule": "LINK002", "domain": "links.acme.example", "reason": "ticket 42"}]}"#
        try Data(text.utf8).write(to: config)
        let result = try check(SampleFiles.acme, ["--config", config.path, "--format", "json"])
        let json = try result.jsonObject()
        let findings = try #require(json["findings"] as? [[String: Any]])
        // Suppressed, not gone: the finding stays with its reason and counts for nothing.
        let suppressed = findings.filter { $0["rule"] as? String == "LINK002" }
        #expect(suppressed.count == 1)
        #expect((suppressed.first?["suppressed"] as? [String: String]) == ["reason": "ticket 42"])
        #expect((json["summary"] as? [String: Int])?["suppressed"] == 1)

        let refused = folder.appendingPathComponent("refused.json")
        try Data(#"{"suppress": [{"rule": "LINK002"}]}"#.utf8).write(to: refused)
        let bad = try check(SampleFiles.acme, ["--config", refused.path])
        #expect(bad.status == 2)
        #expect(bad.stderrLines.count == 1)
        #expect(bad.stderr.contains(refused.path))
    }

    @Test(arguments: [
        ["check", "--offline", SampleFiles.acme],
        ["check", SampleFiles.acme, "--fail-on", "fatal"],
        ["check", SampleFiles.acme, "--format", "yaml"],
        ["check"],
    ])
    func usageErrorsExit64(arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}

/// Collects element names in document order.
private final class ElementCollector: NSObject, XMLParserDelegate {
    var names: [String] = []

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        names.append(elementName)
    }
}
