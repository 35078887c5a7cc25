import Foundation
import IPACheckReport

/// Rules and findings shared by the renderer tests.
///
/// Texts are chosen to exercise escaping: newlines, `%`, commas,
/// colons, XML specials and non-ASCII.
enum Sample {
    static let tool = Report.Tool(version: "1.2.0", informationUri: "https://example.com/ipacheck")

    static let mixedFormats = Rule(
        "AASA104",
        .error,
        "mixed legacy and modern formats",
        summary: "The file mixes `paths` and `components`.",
        fix: "Use only `components`."
    )
    static let unsafePath = Rule(
        "ARC001",
        .warning,
        "unsafe member path",
        summary: "A member's name contains `..`.",
        fix: "Rebuild the ipa."
    )
    static let noteRule = Rule(
        "ENT010",
        .note,
        "developer mode entry",
        summary: "An associated domain uses ?mode=developer.",
        fix: "Remove the mode for release builds."
    )
    static let quietRule = Rule("ZZZ999", .warning, "never fires", summary: "Nothing.", fix: "Nothing.")

    static let rules = [quietRule, noteRule, unsafePath, mixedFormats]
}

/// The test target's own folder, for fixtures excluded from the target.
enum TestFiles {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let sarifSchema = folder.appendingPathComponent("Fixtures/sarif-schema-2.1.0.json")
}

/// Runs python3 scripts for independent checks (JSON-schema validation).
enum Python {
    /// Whether CI asked for every check to run (`CI=true`): then a missing python3 or jsonschema is a failure.
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Whether `python3 -c "import jsonschema"` works.
    static let hasJSONSchema: Bool = (try? run(script: "import jsonschema", arguments: []))?.status == 0

    /// Runs `python3 -c script arguments...` and returns its exit status and combined output.
    static func run(script: String, arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension Sample {
    /// Two inputs: one with an error (bundle + domain), a warning (archive-level) and a note; one clean.
    ///
    /// Findings are given mildest first so that sorting is exercised.
    static func report(gate: FailThreshold = .default) -> Report {
        Report(
            tool: tool,
            gate: gate,
            rules: rules,
            checked: [
                "build/App.ipa": [
                    noteRule.finding(
                        "Uses developer mode.",
                        bundle: "Payload/App.app",
                        domain: "applinks:dev.example.com"
                    ),
                    unsafePath.finding("Member escapes the archive.", location: "../evil"),
                    mixedFormats.finding(
                        "The file mixes formats.",
                        bundle: "Payload/App.app",
                        domain: "applinks:example.com",
                        location: "applinks.details[0]"
                    ),
                ],
                "Clean App.ipa": [],
            ]
        )
    }
}
