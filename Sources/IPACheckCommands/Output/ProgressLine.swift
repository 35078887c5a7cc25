import Foundation
package import IPACheckGate
import IPACheckReport

/// One line on stderr saying what a long run is doing (reading a build, asking hosts), rewritten in place and
/// cleared at the end; only on a terminal that takes control sequences (not `TERM=dumb`), so logs and pipes never
/// see it.
///
/// Needs no lock: it holds only constants; the run calls it from one task, one update after another, and each
/// update is a single short write to stderr.
package final class ProgressLine: Sendable {
    private let enabled: Bool
    private let offline: Bool
    private let asksCDN: Bool

    package init(
        offline: Bool,
        asksCDN: Bool,
        enabled: Bool = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    ) {
        self.offline = offline
        self.asksCDN = asksCDN
        self.enabled = enabled
    }

    /// Shows what the run does now.
    package func show(_ progress: ReleaseGate.Progress) {
        let text: String
        switch progress {
        case .reading(let path, let index, let total):
            let name = UntrustedText.visibleOnOneLine(path)
            text = total > 1 ? "reading \(index)/\(total): \(name)" : "reading \(name)"
        case .fetching(let hosts):
            let plural = hosts == 1 ? "" : "s"
            text =
                offline
                ? "reading the AASA files of \(hosts) host\(plural) from --aasa-dir"
                : "asking \(hosts) host\(plural)\(asksCDN ? " and Apple's CDN" : "") for their AASA files"
        }
        write("\r\u{1B}[2K" + text + "…")
    }

    /// Clears the line.
    package func finish() {
        write("\r\u{1B}[2K")
    }

    private func write(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
