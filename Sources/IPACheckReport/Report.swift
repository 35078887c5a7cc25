/// The result of `ipacheck check` as data, which every output format (text, JSON, SARIF, JUnit, GitHub) renders.
///
/// It holds every finding over every input, the counts, the gate's verdict and the rules that were applied.
///
/// Build it with ``init(tool:gate:rules:)`` and ``add(input:findings:)`` once per ipa; findings are kept sorted
/// worst first and the summary and verdicts are recomputed on every change, so the value is always consistent.
public struct Report: Hashable, Sendable, Codable {
    /// The program that produced the report.
    public private(set) var tool: Tool
    /// The `--fail-on` threshold the verdicts were judged against.
    public private(set) var gate: FailThreshold
    /// The inputs checked, in the order given on the command line, each with its own counts and verdict.
    public private(set) var inputs: [Input]
    /// Every finding with the input it belongs to; worst first, then by input order, then by ``Finding``'s order.
    public private(set) var findings: [Entry]
    /// The counts over all inputs.
    public private(set) var summary: Summary
    /// Whether the whole run passes the gate: it fails when any finding is at or above ``gate``.
    public private(set) var verdict: Verdict
    /// The catalogue of rules applied (one per ID, sorted by ID): SARIF's `tool.driver.rules`, JUnit's test cases.
    public private(set) var rules: [Rule]

    /// An empty report: no inputs yet, so it passes.
    ///
    /// - Parameters:
    ///   - tool: Name, version and home page of the program.
    ///   - gate: The `--fail-on` threshold (default: errors fail).
    ///   - rules: Every rule the run applied, including those that found nothing; duplicates by ID are dropped.
    public init(tool: Tool, gate: FailThreshold = .default, rules: [Rule] = []) {
        self.tool = tool
        self.gate = gate
        self.inputs = []
        self.findings = []
        self.summary = Summary()
        self.verdict = .pass
        var seen: Set<String> = []
        self.rules = rules.filter { seen.insert($0.id).inserted }.sorted { $0.id < $1.id }
    }

    /// A report over several inputs at once, in the order given (handy for tests and small callers).
    public init(
        tool: Tool,
        gate: FailThreshold = .default,
        rules: [Rule] = [],
        checked: KeyValuePairs<String, [Finding]>
    ) {
        self.init(tool: tool, gate: gate, rules: rules)
        for (path, found) in checked { add(input: path, findings: found) }
    }

    /// Records one checked input and its findings; adding the same path again merges into it.
    ///
    /// - Parameters:
    ///   - path: The input as the user named it (keep it relative; it becomes SARIF's artifact URI).
    ///   - findings: What the checks found in it; may be empty (a clean input still counts as checked).
    public mutating func add(input path: String, findings found: [Finding]) {
        if !inputs.contains(where: { $0.path == path }) {
            inputs.append(Input(path: path, summary: Summary(), verdict: .pass))
        }
        findings += found.map { Entry(input: path, finding: $0) }
        let order = Dictionary(
            inputs.enumerated().map { ($0.element.path, $0.offset) },
            uniquingKeysWith: { a, _ in a }
        )
        findings.sort { lhs, rhs in
            if lhs.finding.severity != rhs.finding.severity { return lhs.finding.severity > rhs.finding.severity }
            let left = order[lhs.input] ?? 0
            let right = order[rhs.input] ?? 0
            if left != right { return left < right }
            return lhs.finding < rhs.finding
        }
        for index in inputs.indices {
            let own = findings.filter { $0.input == inputs[index].path }.map(\.finding)
            inputs[index].summary = Summary(counting: own.map(\.severity))
            inputs[index].verdict = gate.fails(own) ? .fail : .pass
        }
        summary = Summary(counting: findings.map(\.finding.severity))
        verdict = gate.fails(findings.map(\.finding)) ? .fail : .pass
    }

    /// The process exit status the contract asks for: 1 when the gate fails, 0 when it passes.
    public var exitCode: Int32 { verdict == .fail ? 1 : 0 }

    /// The rule with this ID in the catalogue, if it is there.
    public func rule(withID id: String) -> Rule? {
        rules.first { $0.id == id }
    }
}

extension Report {
    /// The program that produced a report: SARIF's `tool.driver`, JUnit's root name.
    public struct Tool: Hashable, Sendable, Codable {
        /// The program's name (`ipacheck`).
        public var name: String
        /// Its version (`1.2.0`).
        public var version: String
        /// Its home page, an absolute URL; rule help links are this plus `#` and the lowercased rule ID.
        public var informationUri: String?

        /// Describes the program.
        public init(name: String = "ipacheck", version: String, informationUri: String? = nil) {
            self.name = name
            self.version = version
            self.informationUri = informationUri
        }
    }

    /// Counts of findings by severity; JSON `{"errors": n, "warnings": n, "notes": n}`.
    public struct Summary: Hashable, Sendable, Codable, CustomStringConvertible {
        /// Findings of severity error.
        public var errors: Int
        /// Findings of severity warning.
        public var warnings: Int
        /// Findings of severity note.
        public var notes: Int

        /// Counts given directly.
        public init(errors: Int = 0, warnings: Int = 0, notes: Int = 0) {
            self.errors = errors
            self.warnings = warnings
            self.notes = notes
        }

        /// Counts these severities.
        public init(counting severities: some Sequence<Severity>) {
            self.init()
            for severity in severities {
                switch severity {
                case .error: errors += 1
                case .warning: warnings += 1
                case .note: notes += 1
                }
            }
        }

        /// All findings counted.
        public var total: Int { errors + warnings + notes }

        /// `3 errors, 1 warning, 0 notes`.
        public var description: String {
            [(errors, "error"), (warnings, "warning"), (notes, "note")]
                .map { count, noun in "\(count) \(noun)\(count == 1 ? "" : "s")" }
                .joined(separator: ", ")
        }
    }

    /// Whether something passed the gate.
    public enum Verdict: String, Hashable, Sendable, Codable {
        /// Nothing at or above the gate.
        case pass
        /// Something at or above the gate: exit status 1.
        case fail
    }

    /// One checked input with its own counts and verdict.
    public struct Input: Hashable, Sendable, Codable {
        /// The path as the user gave it.
        public var path: String
        /// Its findings, counted.
        public var summary: Summary
        /// Whether it alone passes the gate.
        public var verdict: Verdict
    }

    /// A finding together with the input it was found in.
    ///
    /// In JSON it is the finding's own keys plus `"input"`, so `findings` stays a flat list of finding objects.
    @dynamicMemberLookup
    public struct Entry: Hashable, Sendable, Codable {
        /// The input path, as in ``Report/Input/path``.
        public var input: String
        /// The finding.
        public var finding: Finding

        /// Pairs a finding with its input.
        public init(input: String, finding: Finding) {
            self.input = input
            self.finding = finding
        }

        /// The finding's fields, read through the entry (`entry.severity`).
        public subscript<Value>(dynamicMember keyPath: KeyPath<Finding, Value>) -> Value {
            finding[keyPath: keyPath]
        }

        private enum CodingKeys: String, CodingKey {
            case input
        }

        /// Reads a flat finding object with an `input` key.
        public init(from decoder: any Decoder) throws {
            finding = try Finding(from: decoder)
            input = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .input)
        }

        /// Writes the finding's keys and `input` into one object.
        public func encode(to encoder: any Encoder) throws {
            try finding.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(input, forKey: .input)
        }
    }
}

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
