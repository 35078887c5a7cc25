import Foundation
import IPACheckTestSupport
import Testing

/// The conformance matrix through the command line, as users run it.
///
/// Every build kind × mode case × claim shape,
/// with the deciding host's file listing the app (every shape) or not listing it or missing (the exact shape), run
/// through `check`, `explain` (text and JSON), `match --build` (every URL form at once), `links`, `domains` and
/// `aasa`, each answer held to the table of docs/ios-model.md (``Conformance/expected(kind:mode:shape:copy:form:)``)
/// and to each other. The in-process matrix (IPACheckGateTests) adds the live copy states.
struct ConformanceCLITests {
    /// The copy states run for a shape: all offline states for the exact claim, the listed file for the others.
    static func copies(for shape: Conformance.Shape) -> [Conformance.CopyState] {
        shape == .exact ? [.offlineListed, .offlineUnlisted, .offlineMissing] : [.offlineListed]
    }

    /// Writes `--aasa-dir` for a scenario: the deciding host's file (listing the app, another app, or absent) and,
    /// for the wildcard-and-specific shape, the apex's file answering the opposite, so a wrong pick shows.
    static func aasaDirectory(shape: Conformance.Shape, copy: Conformance.CopyState, in folder: URL) throws -> String {
        let directory = folder.appendingPathComponent("aasa-\(shape)-\(copy)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func write(_ host: String, listing appID: String) throws {
            let hostFolder = directory.appendingPathComponent(host)
            try FileManager.default.createDirectory(at: hostFolder, withIntermediateDirectories: true)
            try Data(Conformance.aasa(listing: appID))
                .write(to: hostFolder.appendingPathComponent("apple-app-site-association"))
        }
        let other = "7QX3KD52VH.com.example.other"
        switch copy {
        case .offlineListed: try write(shape.decidingHost, listing: ConformanceBuild.appID)
        case .offlineUnlisted: try write(shape.decidingHost, listing: other)
        default: break
        }
        if let decoy = shape.decoyHost {
            try write(decoy, listing: copy == .offlineListed ? other : ConformanceBuild.appID)
        }
        return directory.path
    }

    /// The verdicts of a `match --format json` run, by URL as written.
    static func verdicts(_ result: CLIResult) throws -> [String] {
        let results = try #require(try result.jsonObject()["results"] as? [[String: Any]], "\(result.stdout)")
        return results.map { ($0["verdict"] as? String) ?? "?" }
    }

    @Test(arguments: ConformanceBuild.Kind.allCases)
    func everyCommandTellsWhatIOSDoes(kind: ConformanceBuild.Kind) throws {
        let folder = Scratch.folder.appendingPathComponent("cli-matrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var scenarios = 0
        var agreements = 0
        var jsonOutputs: [URL] = []
        /// Keeps one command's JSON of each shape (the last written wins) for the schema check at the end.
        func keep(_ result: CLIResult, as name: String) throws {
            let file = folder.appendingPathComponent("\(name).json")
            try Data(result.stdout.utf8).write(to: file)
            if !jsonOutputs.contains(file) { jsonOutputs.append(file) }
        }
        for (mode, shape) in Conformance.builds {
            let ipa = try ConformanceBuild.write(kind: kind, mode: mode, shape: shape)
            defer { try? FileManager.default.removeItem(atPath: ipa) }
            let label = "\(kind) \(mode) \(shape)"

            // domains: an entry is usable exactly where the table says a device uses it.
            let domains = try CLI.run(["domains", ipa, "--format", "json"])
            try keep(domains, as: "domains")
            let bundles = try #require(try domains.jsonObject()["bundles"] as? [[String: Any]], "\(label)")
            let entries = bundles.flatMap { ($0["associatedDomains"] as? [[String: Any]]) ?? [] }
            // I5: no entry of a build that installs on no device is usable there.
            let wantUsable =
                kind != .noIdentity
                && {
                    switch mode.mode {
                    case "developer"?: kind == .development
                    case "managed"?: mode.mdm
                    case "developer+managed"?: kind == .development && mode.mdm
                    default: true
                    }
                }()
            let device = try #require(try domains.jsonObject()["device"] as? [String: Any], "\(label)")
            #expect(device["installs"] as? Bool == (kind != .noIdentity), "\(label): \(device)")
            #expect(entries.count == shape.entries(mode: mode.mode).count, "\(label): \(domains.stdout)")
            for entry in entries {
                #expect(entry["usable"] as? Bool == wantUsable, "\(label): \(entry)")
                agreements += 1
            }

            for copy in Self.copies(for: shape) {
                scenarios += 1
                let offline = [
                    "--offline", "--aasa-dir", try Self.aasaDirectory(shape: shape, copy: copy, in: folder),
                ]
                let network = offline + (mode.direct ? ["--mdm-direct-downloads"] : [])
                let why = "\(label) \(copy)"
                let forms = Conformance.URLForm.allCases
                let urls = forms.map { $0.url(host: shape.urlHost) }
                let wanted = forms.map {
                    Conformance.expected(kind: kind, mode: mode, shape: shape, copy: copy, form: $0)
                }

                // match --build: every URL form, one verdict each, as the table says.
                let urlFile = folder.appendingPathComponent("urls.txt")
                try Data((urls.joined(separator: "\n") + "\n").utf8).write(to: urlFile)
                let match = try CLI.run(
                    ["match", "--urls", urlFile.path, "--build", ipa, "--format", "json"] + network
                )
                try keep(match, as: "match")
                #expect(try Self.verdicts(match) == wanted, "\(why): \(urls)\n\(match.stdout)")
                // Exit 0 only if every verdict is `match` (the excluded form never is).
                #expect(match.status == 1, "\(why): \(match.stderr)")
                agreements += forms.count

                // explain, text and JSON: the https URL's verdict, the same in both and in its exit code.
                let url = Conformance.URLForm.https.url(host: shape.urlHost)
                let opens = wanted[0] == "match"
                let explainJSON = try CLI.run(["explain", url, ipa, "--format", "json"] + network)
                try keep(explainJSON, as: "explain")
                let explanation = try explainJSON.jsonObject()
                #expect(explanation["verdict"] as? String == (opens ? "opens" : "breaks"), "\(why)")
                #expect(explainJSON.status == (opens ? 0 : 1), "\(why): \(explainJSON.stderr)")
                let explainText = try CLI.run(["explain", url, ipa] + network)
                #expect(
                    explainText.stdout.contains(opens ? "✓ opens" : "✗ breaks"),
                    "\(why)\n\(explainText.stdout)"
                )
                #expect(explainText.status == explainJSON.status)

                // check: no error on the path of a link that opens; what explain names is what check found.
                let check = try CLI.run(["check", ipa, "--format", "json"] + network)
                try keep(check, as: "check")
                let findings = (try check.jsonObject()["findings"] as? [[String: Any]]) ?? []
                let checkRules = Set(findings.compactMap { $0["rule"] as? String })
                let named = ((explanation["findings"] as? [[String: Any]]) ?? []).compactMap {
                    $0["rule"] as? String
                }
                #expect(Set(named).isSubset(of: checkRules), "\(why): explain \(named), check \(checkRules)")
                #expect(checkRules.contains("PROF007") == (kind == .development), "\(why): \(checkRules)")
                if opens {
                    let onPath = findings.filter {
                        $0["severity"] as? String == "error"
                            && ($0["domain"] == nil || $0["domain"] as? String == shape.decidingHost)
                            && !["PROF007", "DIST004"].contains($0["rule"] as? String ?? "")
                    }
                    #expect(onPath.isEmpty, "\(why): \(onPath)")
                }
                agreements += 4

                // links: each expectation is what match --build answers for its URL.
                let links = try CLI.run(["links", ipa, "--format", "json"] + network)
                try keep(links, as: "links")
                let listed = (try links.jsonObject()["links"] as? [[String: Any]]) ?? []
                if !listed.isEmpty {
                    let linkURLs = listed.compactMap { $0["url"] as? String }
                    try Data((linkURLs.joined(separator: "\n") + "\n").utf8).write(to: urlFile)
                    let answers = try Self.verdicts(
                        CLI.run(["match", "--urls", urlFile.path, "--build", ipa, "--format", "json"] + network)
                    )
                    let expectations = listed.map { $0["expected"] as? String == "opens" }
                    #expect(expectations == answers.map { $0 == "match" }, "\(why): \(linkURLs) \(answers)")
                    agreements += listed.count
                }

                // aasa: the deciding host's file as read, the same state check saw.
                let host = shape.decidingHost + (mode.mode.map { "?mode=\($0)" } ?? "")
                let aasa = try CLI.run(["aasa", host, "--format", "json"] + offline)
                try keep(aasa, as: "aasa")
                #expect(aasa.status == (copy == .offlineMissing ? 1 : 0), "\(why): \(aasa.stdout)")
                if copy == .offlineMissing, wantUsable, shape != .apexOfWildcard {
                    #expect(checkRules.contains("SERVE060"), "\(why): \(checkRules)")
                }
                agreements += 1
            }
        }
        // The JSON every command wrote for the last build validates against its published schema.
        let problems = try JSONSchemaCheck.problems(jsonOutputs)
        #expect(problems.isEmpty, "\(problems)")
        print("conformance matrix through the command line (\(kind)): \(scenarios) scenarios, \(agreements) agreements")
        #expect(scenarios == Conformance.ModeCase.all.count * (Conformance.Shape.allCases.count + 2))
    }
}
