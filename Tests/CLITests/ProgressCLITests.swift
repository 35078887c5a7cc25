import Foundation
import IPACheckTestSupport
import Testing

/// `check` says what a long run is doing on a terminal, and nothing when stderr is a pipe or a file.
struct ProgressCLITests {
    /// Runs `ipacheck ARGUMENTS` under `script`, which gives it a terminal, and returns what the terminal showed.
    static func onATerminal(_ arguments: [String], term: String = "xterm") throws -> String {
        let log = Scratch.folder.appendingPathComponent("ipacheck-tty-\(UUID()).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let quoted = ([CLI.binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        _ = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["TERM=\(term)", "script", "-qec", quoted.joined(separator: " ") + " >/dev/null", log.path],
            errors: .discarded
        )
        return String(decoding: try Data(contentsOf: log), as: UTF8.self)
    }

    static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    @Test(.enabled(if: hasScript || Python.isCI, "needs util-linux's script for a terminal"))
    func showsTheStagesOnATerminal() throws {
        let shown = try Self.onATerminal(["check", SampleFiles.acme, SampleFiles.minimal] + SampleFiles.offline)
        #expect(shown.contains("reading 1/2: \(SampleFiles.acme)…"), "\(shown)")
        #expect(shown.contains("reading 2/2: \(SampleFiles.minimal)…"))
        #expect(
            shown.range(of: #"reading the AASA files of [0-9]+ hosts from --aasa-dir…"#, options: .regularExpression)
                != nil
        )
        // The line is cleared at the end, so the report starts on a clean line.
        #expect(shown.contains("\r\u{1B}[2K"))
    }

    /// explain shows the same progress as check while it reads the build and asks the URL's hosts.
    @Test(.enabled(if: hasScript || Python.isCI, "needs util-linux's script for a terminal"))
    func explainShowsItsProgressTooButNotOnADumbTerminal() throws {
        let arguments = ["explain", "https://acme.example/products/1", SampleFiles.acme] + SampleFiles.offline
        let shown = try Self.onATerminal(arguments)
        #expect(shown.contains("reading \(SampleFiles.acme)…"), "\(shown)")
        #expect(shown.contains("reading the AASA files of 1 host from --aasa-dir…"), "\(shown)")
        let dumb = try Self.onATerminal(arguments, term: "dumb")
        #expect(!dumb.contains("\u{1B}[2K"), "TERM=dumb gets no control sequences: \(dumb)")
    }

    @Test func isSilentWhenStderrIsNotATerminal() throws {
        let result = try CLI.run(["check", SampleFiles.acme, SampleFiles.minimal] + SampleFiles.offline)
        #expect(result.status == 1)
        #expect(!result.stderr.contains("reading"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
    }
}
