import Foundation
import IPACheckTestSupport
import Testing

/// Every command's `--format json`, over the samples, the corpus and inputs that cannot be read, names its published
/// schema (docs/schemas) and validates against it: the goldens pin a few outputs, this holds the shapes over many.
struct JSONSchemaCLITests {
    /// One run: the arguments (`--format json` is added) and the exit statuses it may end with.
    struct Run: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    /// Runs over the samples and over what cannot be read (a missing file, a folder, a file that is not a zip).
    static let sampleRuns: [Run] = {
        let missing = "/nonexistent/App.ipa"
        let folder = Repository.samples.path
        let notAZip = SampleFiles.broken("NotAZip.ipa")
        var runs: [[String]] = []
        for target in [SampleFiles.acme, SampleFiles.minimal, missing, notAZip, SampleFiles.broken("Truncated.ipa")] {
            runs += [
                ["info", target], ["domains", target], ["verify", target], ["verify", target, "--strict"],
                ["check", target] + SampleFiles.offline, ["links", target] + SampleFiles.offline,
                ["explain", "https://acme.example/products/1", target] + SampleFiles.offline,
            ]
        }
        runs += [
            ["check", SampleFiles.acme, SampleFiles.minimal, missing] + SampleFiles.offline,
            ["check", SampleFiles.acme, "--appflip", SampleFiles.appflip] + SampleFiles.offline,
            ["diff", SampleFiles.acme, SampleFiles.minimal], ["diff", SampleFiles.acme, missing],
            ["entitlements", SampleFiles.acme], ["entitlements", SampleFiles.acme, "--source", "profile"],
            ["entitlements", SampleFiles.acme, "--bundle", "Share.appex", "--source", "der"],
            ["aasa", "acme.example", "www.acme.example", "mdm.acme.example", "nowhere.example"] + SampleFiles.offline,
            ["lint", SampleFiles.apexAASA], ["lint", missing], ["lint", folder],
            ["match", "https://acme.example/products/1", "https://acme.example/account", "--build", SampleFiles.acme]
                + SampleFiles.offline,
            [
                "match", "https://acme.example/products/1", "--app-id", "7QX3KD52VH.com.acme.shop", "--aasa",
                SampleFiles.apexAASA,
            ],
            ["rules"], ["rules", "ENT010", "AASA001"],
            ["appflip", "url", "--link", "https://acme.example/appflip/link", "--client-id", "c", "--state", "s"],
            ["appflip", "response", "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?error=x&state=s"],
        ]
        let brokenAASA = (try? FileManager.default.contentsOfDirectory(atPath: SampleFiles.brokenAASA(""))) ?? []
        runs += brokenAASA.sorted().map { ["lint", SampleFiles.brokenAASA($0)] }
        return runs.map { Run(arguments: $0 + ["--format", "json"]) }
    }()

    @Test func everySampleRunWritesJSONThatValidates() throws {
        #expect(Self.sampleRuns.count >= 50)
        try expectValid(Self.sampleRuns)
    }

    /// The corpus's real builds and profiles through every command that reads them.
    @Test(.enabled(if: Corpus.isAvailable, "\(Corpus.absentReason)"))
    func everyCorpusRunWritesJSONThatValidates() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Corpus.url("ipa").path).sorted()
        let builds = names.map { Corpus.url("ipa/\($0)").path }
        var runs: [[String]] = []
        for build in builds {
            runs += [
                ["info", build], ["domains", build], ["verify", build], ["check", build] + SampleFiles.offline,
            ]
        }
        runs += zip(builds, builds.dropFirst()).map { ["diff", $0, $1] }
        let profiles = try FileManager.default.contentsOfDirectory(atPath: Corpus.url("mobileprovision").path)
        runs += profiles.sorted().map { ["profile", Corpus.url("mobileprovision/\($0)").path] }
        let aasaFiles = try FileManager.default.contentsOfDirectory(atPath: Corpus.url("aasa").path)
        runs += aasaFiles.sorted().map { ["lint", Corpus.url("aasa/\($0)").path] }
        #expect(builds.count >= 10 && profiles.count >= 5)
        try expectValid(runs.map { Run(arguments: $0 + ["--format", "json"]) })
    }

    /// Runs each command, keeps what it printed on stdout (every exit status writes JSON, or nothing when it
    /// stops before its report), and validates every document against the schema it names.
    private func expectValid(_ runs: [Run]) throws {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-schema-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [URL] = []
        for (index, run) in runs.enumerated() {
            let result = try CLI.run(run.arguments, environment: GoldenCLITests.environment)
            #expect([0, 1, 2].contains(result.status), "\(run.testDescription): exit \(result.status)")
            guard !result.stdout.isEmpty else {
                // Only an input error may end a run before any JSON: stderr says why.
                #expect(result.status == 2 && !result.stderr.isEmpty, "\(run.testDescription) printed nothing")
                continue
            }
            let file = folder.appendingPathComponent("\(index).json")
            try Data(result.stdout.utf8).write(to: file)
            files.append(file)
        }
        #expect(files.count * 10 >= runs.count * 8, "most runs write JSON: \(files.count) of \(runs.count)")
        // Each problem names the run, not the temporary file.
        let problems = try JSONSchemaCheck.problems(files).map { problem in
            runs.indices.reversed().reduce(problem) { text, index in
                text.replacingOccurrences(
                    of: folder.appendingPathComponent("\(index).json").path,
                    with: runs[index].testDescription
                )
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(20))")
    }
}
