import Foundation
import IPACheckTestSupport
import Testing

/// Every command × format over the samples, and the help pages, pinned by expected-output files.
///
/// The files are Tests/Golden/NAME.out, listed in Tests/Golden/cases.tsv: a change of output fails here and shows
/// as a diff to review. `scripts/update-golden` regenerates them.
struct GoldenCLITests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        var testDescription: String { name }
    }

    static let folder = Repository.root.appendingPathComponent("Tests/Golden")

    static let cases: [Case] = {
        guard let table = try? String(contentsOf: folder.appendingPathComponent("cases.tsv"), encoding: .utf8) else {
            return []
        }
        return table.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", maxSplits: 1)
            guard fields.count == 2 else { return nil }
            return Case(name: String(fields[0]), arguments: fields[1].split(separator: " ").map(String.init))
        }
    }()

    @Test func theCasesAreThere() {
        #expect(Self.cases.count >= 40, "Tests/Golden/cases.tsv lists \(Self.cases.count) cases")
    }

    /// The time every case is judged at (2026-11-26T00:00:00Z), as `scripts/update-golden` sets it: time is an
    /// input, so the pinned outputs do not change with the day they are run.
    static let environment = ["COLUMNS": "100", "SOURCE_DATE_EPOCH": "1795651200"]

    @Test(arguments: cases)
    func outputIsAsPinned(_ golden: Case) throws {
        let result = try CLI.run(golden.arguments, environment: Self.environment, directory: Repository.root)
        try expectPinned(golden, result)
    }

    static let faketime = URL(fileURLWithPath: "/usr/bin/faketime")

    /// The same cases with the machine's clock ten years ahead (libfaketime): any judgement that read the clock
    /// instead of the judgement time (an expiry, a signer's validity, the SDK minimum) would change an output.
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: faketime.path), "needs faketime (scripts/test)"),
        arguments: cases
    )
    func outputIsTheSameTenYearsLater(_ golden: Case) throws {
        let result = try CLI.run(
            ["2036-11-26 00:00:00", CLI.binary.path] + golden.arguments,
            environment: Self.environment,
            directory: Repository.root,
            executable: Self.faketime
        )
        try expectPinned(golden, result)
    }

    private func expectPinned(_ golden: Case, _ result: CLIResult) throws {
        let actual = "exit: \(result.status)\n--- stdout\n\(result.stdout)\n--- stderr\n\(result.stderr)"
        let file = Self.folder.appendingPathComponent("\(golden.name).out")
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(
            actual == expected,
            """
            \(golden.name) differs from Tests/Golden/\(golden.name).out (run scripts/update-golden if the change is \
            meant):
            \(UnifiedDiff.hunks(from: expected, to: actual))
            """
        )
    }

    /// Every pinned JSON output names its published schema (`$schema`, docs/schemas/) and validates against it
    /// (python's jsonschema, draft 2020-12); every schema there is used by some output.
    @Test(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 with jsonschema (scripts/test)"))
    func everyJSONOutputValidatesAgainstItsSchema() throws {
        // The JSON outputs of the golden set (every command's); SARIF has its own schema (CheckSaysOnlyWhatHappenedCLITests validates it).
        let files = Self.cases.filter { $0.arguments.contains("json") }
            .map { Self.folder.appendingPathComponent("\($0.name).out") }
        #expect(files.count >= 10)
        let problems = try JSONSchemaCheck.problems(files, everySchemaUsed: true)
        #expect(problems.isEmpty, "\(problems)")
    }

    /// docs/output-formats.md documents each command's JSON from its schema (`scripts/schema-doc` writes the
    /// section): a schema changed without the document fails here, and so does a document whose markers are gone.
    @Test(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 (scripts/test)"))
    func theDocumentedJSONShapesAreTheSchemas() throws {
        let script = Repository.root.appendingPathComponent("scripts/schema-doc").path
        let result = try Python.run(
            script: "import runpy, sys; sys.argv = [sys.argv[1], '--check']; "
                + "runpy.run_path(sys.argv[0], run_name='__main__')",
            arguments: [script]
        )
        #expect(result.status == 0, "\(result.output)")
    }

    /// The example runs of the README and docs/output-formats.md are golden outputs: each `<!-- golden:NAME -->`
    /// block holds NAME's command and its stdout as pinned, so the documents cannot drift from what the tool prints.
    @Test(arguments: [("README.md", 3), ("docs/output-formats.md", 2)])
    func theDocumentsExampleRunsAreThePinnedOutputs(document: String, atLeast: Int) throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(document), encoding: .utf8)
        let blocks = text.components(separatedBy: "<!-- golden:").dropFirst()
        #expect(blocks.count >= atLeast, "\(document) shows pinned runs")
        for block in blocks {
            let name = String(block.prefix { $0 != " " })
            let shown = block.components(separatedBy: "<!-- /golden -->").first ?? ""
            let golden = try #require(Self.cases.first { $0.name == name }, "\(name) is not a golden case")
            let pinned = try String(
                contentsOf: Self.folder.appendingPathComponent("\(name).out"),
                encoding: .utf8
            )
            let stdout = pinned.components(separatedBy: "--- stdout\n").dropFirst().joined(separator: "--- stdout\n")
                .components(separatedBy: "\n--- stderr\n").dropLast().joined(separator: "\n--- stderr\n")
            let expected =
                "\(name) -->\n```console\n$ ipacheck \(golden.arguments.joined(separator: " "))\n\(stdout)```\n"
            #expect(
                shown == expected,
                "\(document)'s \(name) run differs from Tests/Golden:\n\(UnifiedDiff.hunks(from: expected, to: shown))"
            )
        }
    }
}
