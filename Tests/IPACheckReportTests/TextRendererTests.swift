import IPACheckReport
import Testing

/// The text layout, written out by hand from the renderer's documented design (docs/output-formats.md): per input,
/// every error, then every warning, then every note, each grouped by bundle, then domain (so the bundle shows again
/// for its note, after the archive's own warning); `fix:` indented; a verdict line naming the gate.
struct TextRendererTests {
    @Test func groupsByInputBundleAndDomain() throws {
        let expected = """
            build/App.ipa  ✗ FAIL  1 error, 1 warning, 1 note
              Payload/App.app
                applinks:example.com
                  error   TAA104  The file mixes formats.
                      at: applinks.details[0]
                      fix: Use only `components`.
              warning TAR001  Member escapes the archive.
                  at: ../evil
                  fix: Rebuild the ipa.
              Payload/App.app
                applinks:dev.example.com
                  note    TEN010  Uses developer mode.
                      fix: Remove the mode for release builds.

            Clean App.ipa  ✓ PASS  0 errors, 0 warnings, 0 notes
              no findings

            ✗ FAIL  1 error, 1 warning, 1 note (gate: --fail-on error)

            """
        #expect(try TextRenderer().render(Sample.report()) == expected)
    }

    @Test func emptyReportIsOnlyTheVerdict() throws {
        let text = try TextRenderer().render(Report(tool: Sample.tool))
        #expect(text == "✓ PASS  0 errors, 0 warnings, 0 notes (gate: --fail-on error)\n")
    }

    @Test func verdictLineFollowsTheGate() throws {
        let findings = [Sample.unsafePath.finding("w")]
        let lenient = Report(tool: Sample.tool, checked: ["App.ipa": findings])
        let strict = Report(tool: Sample.tool, gate: FailThreshold(failOn: .warning), checked: ["App.ipa": findings])
        #expect(
            try TextRenderer().render(lenient).hasSuffix(
                "\n✓ PASS  0 errors, 1 warning, 0 notes (gate: --fail-on error)\n"
            )
        )
        #expect(
            try TextRenderer().render(strict).hasSuffix(
                "\n✗ FAIL  0 errors, 1 warning, 0 notes (gate: --fail-on warning)\n"
            )
        )
    }

    /// A value's line feed (a member name may hold one) is shown as `\n`: no value writes a line of its own.
    @Test func lineFeedsInValuesStayOnTheirLine() throws {
        let finding = Sample.mixedFormats.finding("line one\nline two", fix: "step 1\nstep 2")
        let text = try TextRenderer().render(Report(tool: Sample.tool, checked: ["A.ipa": [finding]]))
        let expected = """
            A.ipa  ✗ FAIL  1 error, 0 warnings, 0 notes
              error   TAA104  line one\\nline two
                  fix: step 1\\nstep 2

            """
        #expect(text.hasPrefix(expected))
    }

    @Test func colourOnlyWhenAsked() throws {
        let report = Sample.report()
        let plain = try TextRenderer(style: .plain).render(report)
        let colored = try TextRenderer(style: TextStyle(colored: true)).render(report)
        #expect(!plain.contains("\u{1B}"))
        #expect(colored.contains("\u{1B}[31merror\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[33mwarning\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[1m\u{1B}[31m✗ FAIL\u{1B}[0m\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[1m\u{1B}[32m✓ PASS\u{1B}[0m\u{1B}[0m"))
    }
}
