import IPACheckReport
import Testing

/// GitHub Actions workflow commands.
///
/// Expected escapes from the runner toolkit's `@actions/core` command.ts:
/// `escapeData` maps `%` → `%25`, CR → `%0D`, LF → `%0A`; `escapeProperty` also `:` → `%3A`, `,` → `%2C`.
/// Command names `error`, `warning`, `notice` and the `file`/`title` properties from GitHub's "Workflow
/// commands for GitHub Actions" documentation.
struct GitHubAnnotationsRendererTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("100% sure", "100%25 sure"),
        ("one\ntwo", "one%0Atwo"),
        ("one\r\ntwo", "one%0D%0Atwo"),
        ("already %0A escaped", "already %250A escaped"),
        ("colons: and, commas stay", "colons: and, commas stay"),
        ("::error::injected", "::error::injected"),
        ("café ✓ 🚀", "café ✓ 🚀"),
    ])
    func dataEscaping(raw: String, escaped: String) {
        #expect(GitHubAnnotationsRenderer.escapeData(raw) == escaped)
    }

    @Test(arguments: [
        ("App.ipa", "App.ipa"),
        ("dir/App, v1: final.ipa", "dir/App%2C v1%3A final.ipa"),
        ("50%", "50%25"),
        ("a\nb", "a%0Ab"),
        ("ipacheck TAA104", "ipacheck TAA104"),
        ("Café.ipa", "Café.ipa"),
    ])
    func propertyEscaping(raw: String, escaped: String) {
        #expect(GitHubAnnotationsRenderer.escapeProperty(raw) == escaped)
    }

    /// Notes ask for no action: annotated only when the gate fails on them (GitHub shows a limited number of
    /// annotations per step), else counted in the summary.
    @Test func exactOutputForTheSampleReport() throws {
        let expected = """
            ::error file=build/App.ipa,title=ipacheck TAA104::The file mixes formats.%0Abundle: Payload/App.app%0Adomain: applinks:example.com%0Aat: applinks.details[0]%0Afix: Use only `components`.
            ::warning file=build/App.ipa,title=ipacheck TAR001::Member escapes the archive.%0Aat: ../evil%0Afix: Rebuild the ipa.
            ipacheck: ✗ FAIL  1 error, 1 warning, 1 note (gate: --fail-on error); 1 note not annotated (--fail-on note annotates them)

            """
        #expect(try GitHubAnnotationsRenderer().render(Sample.report()) == expected)
        let notes = try GitHubAnnotationsRenderer().render(Sample.report(gate: FailThreshold(failOn: .note)))
        #expect(
            notes.contains(
                "::notice file=build/App.ipa,title=ipacheck TEN010::Uses developer mode.%0Abundle: Payload/App.app"
                    + "%0Adomain: applinks:dev.example.com%0Afix: Remove the mode for release builds."
            )
        )
    }

    @Test func emptyReportIsOnlyTheSummary() throws {
        let text = try GitHubAnnotationsRenderer().render(Report(tool: Sample.tool))
        #expect(text == "ipacheck: ✓ PASS  0 errors, 0 warnings, 0 notes (gate: --fail-on error)\n")
    }

    /// Hostile text cannot break out of its command: one line per finding, plus the summary.
    @Test func oneLinePerFindingWhateverTheText() throws {
        let finding = Sample.mixedFormats.finding(
            "line\n::error file=x::forged\r\n100%",
            bundle: "Payload/A,B:C.app",
            url: "https://example.com/%0A"
        )
        let text = try GitHubAnnotationsRenderer().render(
            Report(tool: Sample.tool, checked: ["odd, name: x.ipa": [finding]])
        )
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 3)
        #expect(
            lines.first
                == "::error file=odd%2C name%3A x.ipa,title=ipacheck TAA104::line%0A::error file=x::forged\\u{D}%0A100%25"
                + "%0Abundle: Payload/A,B:C.app%0Aurl: https://example.com/%250A%0Afix: Use only `components`."
        )
        #expect(!text.contains("\r"))
    }
}
