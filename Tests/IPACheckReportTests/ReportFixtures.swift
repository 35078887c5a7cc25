import Foundation
import IPACheckReport

/// Rules and findings shared by the renderer tests.
///
/// Texts are chosen to exercise escaping: newlines, `%`, commas,
/// colons, XML specials and non-ASCII.
enum Sample {
    static let tool = Report.Tool(version: "1.2.0", informationUri: "https://example.com/ipacheck")

    static let mixedFormats = Rule(
        "TAA104",
        .error,
        "mixed legacy and modern formats",
        summary: "The file mixes `paths` and `components`.",
        fix: "Use only `components`."
    )
    static let unsafePath = Rule(
        "TAR001",
        .warning,
        "unsafe member path",
        summary: "A member's name contains `..`.",
        fix: "Rebuild the ipa."
    )
    static let noteRule = Rule(
        "TEN010",
        .note,
        "developer mode entry",
        summary: "An associated domain uses ?mode=developer.",
        fix: "Remove the mode for release builds."
    )
    static let quietRule = Rule("ZZZ999", .warning, "never fires", summary: "Nothing.", fix: "Nothing.")

    static let rules = [quietRule, noteRule, unsafePath, mixedFormats]
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
