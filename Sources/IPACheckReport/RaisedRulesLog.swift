import Foundation
import IPACheckConcurrency

/// Where a test run records every rule it raises, so that the suite can hold each rule to being raised by some test
/// (its ID in the findings of a run), not merely named in one.
///
/// Off unless `IPACHECK_RAISED_RULES_LOG` names a file: scripts/test sets it for `swift test` (the in-process tests
/// and every `ipacheck` the CLI tests start append to it), then scripts/check-raised-rules compares the file with
/// the catalogue. Each process writes a rule's ID once, with one `write` to a file opened for appending, so lines
/// of different processes never interleave.
enum RaisedRulesLog {
    /// The log's path, read once; nil (the usual case) records nothing.
    private static let path = ProcessInfo.processInfo.environment["IPACHECK_RAISED_RULES_LOG"]
    /// The rules this process has written already.
    private static let written = Locked(Set<String>())

    /// Records that `rule` raised a finding (when the log is on).
    static func record(_ rule: String) {
        guard let path else { return }
        written.withLock { written in
            guard written.insert(rule).inserted else { return }
            let descriptor = unsafe open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            let line = Array((rule + "\n").utf8)
            // `write` reads `line.count` bytes from the array's own buffer, lent for the call only.
            _ = unsafe line.withUnsafeBytes { unsafe write(descriptor, $0.baseAddress, $0.count) }
        }
    }
}
