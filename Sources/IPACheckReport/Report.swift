/// The result of an ipacheck command as data, which every output format (text, JSON, SARIF, JUnit, GitHub)
/// renders.
///
/// It holds every input with its verdict (`pass`, `fail`, or `error` when it could not be read), every finding
/// (suppressed ones too, with their reason), which rules were carried out for each input and why the others were
/// not, the counts, and the rule catalogue with each rule's effective severity.
///
/// Build it with ``init(tool:gate:rules:)``, then ``add(input:findings:suppressed:coverage:)`` once per input
/// that was read and ``add(unreadable:reason:)`` for one that was not. Every change recomputes the summary and
/// verdicts, so the value is always consistent, and no input that could not be read is ever a pass.
package struct Report: Hashable, Sendable, Codable {
    /// The program that produced the report.
    package private(set) var tool: Tool
    /// The `--fail-on` threshold the verdicts were judged against.
    package private(set) var gate: FailThreshold
    /// The inputs, in the order given on the command line, each with its own counts and verdict.
    package private(set) var inputs: [Input]
    /// Every finding with its input: unsuppressed first, then worst first, by input order, by ``Finding``'s order.
    package private(set) var findings: [Entry]
    /// The counts over all inputs (suppressed findings counted apart).
    package private(set) var summary: Summary
    /// The run's verdict: `error` when an input could not be read, else `fail` when a finding reaches ``gate``.
    package private(set) var verdict: Verdict
    /// The rule catalogue (one per ID, sorted by ID), with each rule's effective severity; every finding of a
    /// rule in it carries that severity.
    package private(set) var rules: [Rule]
    /// Whether the report judges its inputs against ``gate`` (`check`, `verify`, `lint`, `aasa`) or lists what
    /// they hold (`info`, `domains`: no pass or fail, exit 0 unless an input could not be read).
    package private(set) var kind: Kind
    /// What the command shows besides findings, in order.
    package private(set) var sections: [ReportSection]
    /// The published schema of the command's JSON (the report's keys plus its sections), named by `$schema`.
    package private(set) var schema: JSONRenderer.Schema

    /// An empty report: no inputs yet.
    ///
    /// - Parameters:
    ///   - tool: Name, version and home page of the program.
    ///   - gate: The `--fail-on` threshold (default: errors fail).
    ///   - rules: Every rule the command can apply, with its effective severity; duplicates by ID are dropped.
    ///   - schema: The command's JSON Schema (`check`'s unless said).
    package init(
        tool: Tool,
        gate: FailThreshold = .default,
        rules: [Rule] = [],
        kind: Kind = .gate,
        schema: JSONRenderer.Schema = .check
    ) {
        self.tool = tool
        self.schema = schema
        self.gate = gate
        self.kind = kind
        self.sections = []
        self.inputs = []
        self.findings = []
        self.summary = Summary()
        self.verdict = .pass
        var seen: Set<String> = []
        self.rules = rules.filter { seen.insert($0.id).inserted }.sorted { $0.id < $1.id }
    }

    /// A report over several inputs at once, in the order given, every rule carried out for each (handy for
    /// tests and for commands that always run every rule they list).
    package init(
        tool: Tool,
        gate: FailThreshold = .default,
        rules: [Rule] = [],
        checked: KeyValuePairs<String, [Finding]>
    ) {
        self.init(tool: tool, gate: gate, rules: rules)
        for (path, found) in checked { add(input: path, findings: found) }
    }

    /// Records one input that was read, its findings, the findings a configuration suppressed (with the reason),
    /// and which rules were carried out for it; adding the same path again merges into it.
    ///
    /// Findings that say the same thing about several slices or bundles become one (``Finding/merged(_:)``), and
    /// each finding takes its rule's severity from ``rules``.
    ///
    /// - Parameters:
    ///   - path: The input as the user named it (keep it relative; it becomes SARIF's artifact URI).
    ///   - findings: What the checks found in it; may be empty.
    ///   - suppressed: Findings the configuration suppressed, each with its reason: they stay in the report.
    ///   - coverage: Which rules ran for this input; by default every rule of the catalogue.
    package mutating func add(
        input path: String,
        findings found: [Finding],
        suppressed: [Suppressed] = [],
        coverage: RuleCoverage = .everyRule
    ) {
        let index = inputIndex(path)
        inputs[index].coverage.merge(coverage)
        findings += Finding.merged(found).map { Entry(input: path, finding: effective($0)) }
        findings += suppressed.map {
            Entry(input: path, finding: effective($0.finding), suppression: Suppression(reason: $0.reason))
        }
        recompute()
    }

    /// Adds what the command shows besides findings; a section with the same key replaces the earlier one.
    package mutating func add(section: ReportSection) {
        sections.removeAll { $0.key == section.key }
        sections.append(section)
    }

    /// Records an input that could not be read: the report's verdict becomes `error`, whatever else it holds.
    ///
    /// - Parameters:
    ///   - path: The input as the user named it.
    ///   - reason: What is wrong with it, in a few words (`not a zip archive`).
    package mutating func add(unreadable path: String, reason: String) {
        let index = inputIndex(path)
        inputs[index].error = reason
        inputs[index].errorKind = .unreadable
        inputs[index].coverage = RuleCoverage()
        recompute()
    }

    /// Records an input that was read but could not be checked at all (no network): the report's verdict becomes
    /// `error`, and every format says the input was not checked, never that it could not be read.
    ///
    /// - Parameters:
    ///   - path: The input as the user named it.
    ///   - reason: Why nothing could be checked, in a few words.
    package mutating func add(notChecked path: String, reason: String) {
        add(unreadable: path, reason: reason)
        inputs[inputIndex(path)].errorKind = .notChecked
    }

    /// Records that an input was checked only in part (no network at all: what needed the hosts' files was not
    /// checked): its findings and what did run stay in every format, and the report's verdict becomes `error`, so
    /// a failure in one part never hides another part's findings.
    ///
    /// - Parameters:
    ///   - path: The input as the user named it (already added with its findings).
    ///   - reason: What could not be checked, and why, in a few words.
    package mutating func add(incomplete path: String, reason: String) {
        let index = inputIndex(path)
        inputs[index].error = reason
        inputs[index].errorKind = .incomplete
        recompute()
    }

    /// The process exit status the README's exit-code table gives: 2 when an input could not be read, 1 when the gate fails,
    /// 0 when it passes.
    package var exitCode: Int32 {
        switch verdict {
        case .pass: 0
        case .fail: 1
        case .error: 2
        }
    }

    /// The rule with this ID in the catalogue, if it is there.
    package func rule(withID id: String) -> Rule? {
        rules.first { $0.id == id }
    }

    /// What happened to a rule for one input: it failed (an unsuppressed finding), passed, or was not carried out
    /// (with the reason).
    package func outcome(of rule: String, for input: Input) -> RuleOutcome {
        if input.error != nil, input.errorKind != .incomplete {
            return .notRun(reason: "the input \(input.errorPhrase)")
        }
        let own = findings.filter { $0.input == input.path && $0.rule == rule }
        if own.contains(where: { $0.suppression == nil }) { return .failed }
        switch input.coverage.status(of: rule) {
        case .ran: return .passed
        case .notRun(let reason): return own.isEmpty ? .notRun(reason: reason) : .passed
        }
    }

    /// The rules of the catalogue that were carried out for at least one input (or raised a finding): SARIF's
    /// `tool.driver.rules`.
    package var rulesThatRan: [Rule] {
        let raised = Set(findings.map(\.rule))
        return rules.filter { rule in
            raised.contains(rule.id)
                || inputs.contains { $0.error == nil && $0.coverage.status(of: rule.id) == .ran }
        }
    }

    /// For one input, the rules of the catalogue that were not carried out, grouped by reason (reasons in the
    /// order of their first rule ID, rule IDs sorted); empty for an input that could not be read.
    package func notChecked(_ input: Input) -> [NotChecked] {
        input.notChecked
    }

    private func computeNotChecked(_ input: Input) -> [NotChecked] {
        guard input.error == nil || input.errorKind == .incomplete else { return [] }
        var order: [String] = []
        var groups: [String: [String]] = [:]
        for rule in rules {
            guard case .notRun(let reason) = outcome(of: rule.id, for: input) else { continue }
            if groups[reason] == nil { order.append(reason) }
            groups[reason, default: []].append(rule.id)
        }
        return order.map { NotChecked(reason: $0, rules: groups[$0] ?? []) }
    }

    private mutating func inputIndex(_ path: String) -> Int {
        if let index = inputs.firstIndex(where: { $0.path == path }) { return index }
        inputs.append(Input(path: path))
        return inputs.count - 1
    }

    private func effective(_ finding: Finding) -> Finding {
        var copy = finding
        if let rule = rule(withID: finding.rule) { copy.severity = rule.severity }
        return copy
    }

    private mutating func recompute() {
        let order = Dictionary(
            inputs.enumerated().map { ($0.element.path, $0.offset) },
            uniquingKeysWith: { first, _ in first }
        )
        findings.sort { lhs, rhs in
            let leftSuppressed = lhs.suppression != nil
            let rightSuppressed = rhs.suppression != nil
            if leftSuppressed != rightSuppressed { return !leftSuppressed }
            if lhs.finding.severity != rhs.finding.severity { return lhs.finding.severity > rhs.finding.severity }
            let left = order[lhs.input] ?? 0
            let right = order[rhs.input] ?? 0
            if left != right { return left < right }
            return lhs.finding < rhs.finding
        }
        for index in inputs.indices {
            let own = findings.filter { $0.input == inputs[index].path }
            inputs[index].summary = Summary(counting: own)
            if inputs[index].error != nil {
                inputs[index].verdict = .error
            } else if kind == .listing {
                inputs[index].verdict = .pass
            } else {
                inputs[index].verdict = gate.fails(own.filter { $0.suppression == nil }.map(\.finding)) ? .fail : .pass
            }
        }
        for index in inputs.indices {
            inputs[index].notChecked = computeNotChecked(inputs[index])
        }
        summary = Summary(counting: findings)
        if inputs.contains(where: { $0.verdict == .error }) {
            verdict = .error
        } else {
            verdict = inputs.contains { $0.verdict == .fail } ? .fail : .pass
        }
    }
}

extension Report {
    /// What a report is for.
    package enum Kind: String, Hashable, Sendable, Codable {
        /// It judges: findings at or above the gate fail the run (exit 1).
        case gate
        /// It lists what the inputs hold; findings are shown, nothing passes or fails (exit 0 unless an input
        /// could not be read).
        case listing
    }

    /// The program that produced a report: SARIF's `tool.driver`, JUnit's root name.
    package struct Tool: Hashable, Sendable, Codable {
        /// The program's name (`ipacheck`).
        package var name: String
        /// Its version (`1.2.0`).
        package var version: String
        /// Its home page, an absolute URL.
        package var informationUri: String?
        /// The page documenting every rule, an absolute URL; a rule's help link is this plus `#` and the lowercased
        /// rule ID (the home page's when not given).
        package var rulesUri: String?

        /// Describes the program.
        package init(
            name: String = "ipacheck",
            version: String,
            informationUri: String? = nil,
            rulesUri: String? = nil
        ) {
            self.name = name
            self.version = version
            self.informationUri = informationUri
            self.rulesUri = rulesUri
        }
    }

    /// What a run or an input came to.
    package enum Verdict: String, Hashable, Sendable, Codable {
        /// Read and checked; nothing at or above the gate.
        case pass
        /// Read and checked; something at or above the gate: exit status 1.
        case fail
        /// Could not be read or checked: exit status 2, never a pass in any format.
        case error
    }

    /// Why an input has no verdict of its own.
    package enum ErrorKind: String, Hashable, Sendable, Codable {
        /// The input could not be read.
        case unreadable
        /// The input was read, but nothing could be checked (no network at all).
        case notChecked
        /// The input was read and checked, except what needed the network (no network at all): its findings stand.
        case incomplete
    }

    /// One input with its own counts and verdict.
    package struct Input: Hashable, Sendable, Codable {
        /// The path as the user gave it.
        package var path: String
        /// Its findings, counted.
        package var summary: Summary
        /// Whether it passes the gate, fails it, or could not be read or checked.
        package var verdict: Verdict
        /// Why it could not be read, or why it was read but not checked; `nil` for an input that was checked.
        package var error: String?
        /// Which of the two ``error`` is: the input could not be read, or nothing could be checked (no network).
        package var errorKind: ErrorKind?
        /// Which rules were carried out for it.
        package var coverage: RuleCoverage
        /// The catalogue's rules that were not carried out for it, grouped by reason.
        package internal(set) var notChecked: [NotChecked]

        /// The ``error`` as a sentence the text and JUnit reports print: `cannot be read: REASON` (the reason once,
        /// when it already says so) or `not checked: REASON`.
        package var errorSentence: String? {
            guard let error else { return nil }
            let prefix = errorKind == .notChecked ? "not checked: " : "cannot be read: "
            return error.hasPrefix(prefix) ? error : prefix + error
        }

        /// What a format says of an input with an ``error``: `could not be read`, `was not checked` or `was
        /// checked only in part`.
        package var errorPhrase: String {
            switch errorKind {
            case .notChecked?: "was not checked"
            case .incomplete?: "was checked only in part"
            default: "could not be read"
            }
        }

        init(path: String) {
            self.path = path
            self.summary = Summary()
            self.verdict = .pass
            self.coverage = RuleCoverage()
            self.notChecked = []
        }
    }

    /// A finding a configuration suppressed, with the reason it gave.
    package struct Suppressed: Hashable, Sendable {
        /// The finding.
        package var finding: Finding
        /// Why it is suppressed (required by the configuration).
        package var reason: String

        /// Pairs a finding with its suppression's reason.
        package init(_ finding: Finding, reason: String) {
            self.finding = finding
            self.reason = reason
        }
    }

    /// Why a finding does not count: SARIF's `suppressions[].justification`.
    package struct Suppression: Hashable, Sendable, Codable {
        /// The reason the configuration gives.
        package var reason: String
    }

    /// Rules not carried out for an input, for one reason (`offline: Apple's CDN was not asked`).
    package struct NotChecked: Hashable, Sendable, Codable {
        /// Why they were not carried out.
        package var reason: String
        /// The rule IDs, sorted.
        package var rules: [String]
    }

    /// A finding together with the input it was found in, and its suppression if a configuration suppressed it.
    ///
    /// In JSON it is the finding's own keys plus `"input"` (and `"suppressed": {"reason": …}`), so `findings`
    /// stays a flat list of finding objects.
    @dynamicMemberLookup
    package struct Entry: Hashable, Sendable, Codable {
        /// The input path, as in ``Report/Input/path``.
        package var input: String
        /// The finding.
        package var finding: Finding
        /// Set when a configuration suppressed the finding: it is shown, but counts for nothing.
        package var suppression: Suppression?

        /// Pairs a finding with its input.
        package init(input: String, finding: Finding, suppression: Suppression? = nil) {
            self.input = input
            self.finding = finding
            self.suppression = suppression
        }

        /// The finding's fields, read through the entry (`entry.severity`).
        package subscript<Value>(dynamicMember keyPath: KeyPath<Finding, Value>) -> Value {
            finding[keyPath: keyPath]
        }

        private enum CodingKeys: String, CodingKey {
            case input
            case suppression = "suppressed"
        }

        /// Reads a flat finding object with an `input` key.
        package init(from decoder: any Decoder) throws {
            finding = try Finding(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            input = try container.decode(String.self, forKey: .input)
            suppression = try container.decodeIfPresent(Suppression.self, forKey: .suppression)
        }

        /// Writes the finding's keys, `input`, and `suppressed` when it is.
        package func encode(to encoder: any Encoder) throws {
            try finding.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(input, forKey: .input)
            try container.encodeIfPresent(suppression, forKey: .suppression)
        }
    }
}

extension Report {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private static let standardKeys: Set<String> = [
        "tool", "gate", "inputs", "findings", "summary", "verdict", "rules", "kind", "$schema",
    ]

    /// Reads a report written by ``encode(to:)``; top-level keys it does not know become sections.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        tool = try container.decode(Tool.self, forKey: Key("tool"))
        kind = try container.decodeIfPresent(Kind.self, forKey: Key("kind")) ?? .gate
        gate = try container.decodeIfPresent(FailThreshold.self, forKey: Key("gate")) ?? .default
        inputs = try container.decode([Input].self, forKey: Key("inputs"))
        findings = try container.decode([Entry].self, forKey: Key("findings"))
        summary = try container.decode(Summary.self, forKey: Key("summary"))
        verdict = try container.decodeIfPresent(Verdict.self, forKey: Key("verdict")) ?? .pass
        rules = try container.decode([Rule].self, forKey: Key("rules"))
        let schemaURL = try container.decodeIfPresent(String.self, forKey: Key("$schema"))
        schema = JSONRenderer.Schema.allCases.first { $0.url == schemaURL } ?? .check
        sections = try container.allKeys.filter { !Self.standardKeys.contains($0.stringValue) }
            .sorted { $0.stringValue < $1.stringValue }
            .map { key in ReportSection(key: key.stringValue, value: try container.decode(JSONValue.self, forKey: key))
            }
    }

    /// Writes report.schema.json's keys (`findings`, `summary`, `verdict`, `inputs`, …) and each section under its key;
    /// a listing report has no `gate`, and a `verdict` only when an input could not be read.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(tool, forKey: Key("tool"))
        try container.encode(inputs, forKey: Key("inputs"))
        try container.encode(findings, forKey: Key("findings"))
        try container.encode(summary, forKey: Key("summary"))
        try container.encode(rules, forKey: Key("rules"))
        if kind == .gate {
            try container.encode(gate, forKey: Key("gate"))
            try container.encode(verdict, forKey: Key("verdict"))
        } else {
            try container.encode(kind, forKey: Key("kind"))
            if verdict == .error { try container.encode(verdict, forKey: Key("verdict")) }
        }
        for section in sections where !Self.standardKeys.contains(section.key) {
            try container.encode(section.value, forKey: Key(section.key))
        }
    }
}
