/// The `--fail-on` gate: findings at or above this severity fail the run (exit status 1).
public struct FailThreshold: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The mildest severity that fails.
    public var failOn: Severity

    /// A gate failing on `failOn` and anything worse.
    public init(failOn: Severity) {
        self.failOn = failOn
    }

    /// Parses a `--fail-on` argument (`error`, `warning` or `note`); `nil` for anything else.
    public init?(argument: String) {
        guard let severity = Severity(rawValue: argument) else { return nil }
        self.init(failOn: severity)
    }

    /// The contract's default: only errors fail.
    public static let `default` = FailThreshold(failOn: .error)

    /// Whether a finding of this severity fails the gate.
    public func fails(_ severity: Severity) -> Bool {
        severity >= failOn
    }

    /// Whether any of these findings fails the gate.
    public func fails(_ findings: some Sequence<Finding>) -> Bool {
        findings.contains { fails($0.severity) }
    }

    /// The exit status for these findings: 1 when the gate fails, else 0.
    public func exitCode(for findings: some Sequence<Finding>) -> Int32 {
        fails(findings) ? 1 : 0
    }

    /// The option as typed: `--fail-on error`.
    public var description: String { "--fail-on \(failOn.rawValue)" }
}
