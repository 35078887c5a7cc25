/// The `--fail-on` gate: findings at or above this severity fail the run (exit status 1).
package struct FailThreshold: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The mildest severity that fails.
    package var failOn: Severity

    /// A gate failing on `failOn` and anything worse.
    package init(failOn: Severity) {
        self.failOn = failOn
    }

    /// Parses a `--fail-on` argument (`error`, `warning` or `note`); `nil` for anything else.
    package init?(argument: String) {
        guard let severity = Severity(rawValue: argument) else { return nil }
        self.init(failOn: severity)
    }

    /// The default `--fail-on` documents: only errors fail.
    package static let `default` = FailThreshold(failOn: .error)

    /// Whether a finding of this severity fails the gate.
    package func fails(_ severity: Severity) -> Bool {
        severity >= failOn
    }

    /// Whether any of these findings fails the gate.
    package func fails(_ findings: some Sequence<Finding>) -> Bool {
        findings.contains { fails($0.severity) }
    }

    /// The exit status for these findings: 1 when the gate fails, else 0.
    package func exitCode(for findings: some Sequence<Finding>) -> Int32 {
        fails(findings) ? 1 : 0
    }

    /// The option as typed: `--fail-on error`.
    package var description: String { "--fail-on \(failOn.rawValue)" }
}
