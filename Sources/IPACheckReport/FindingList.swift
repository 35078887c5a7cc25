/// Findings gathered with at most ``perRule`` kept for each rule, and a count of the rest.
///
/// An input can raise one rule many times (80,000 repeated app IDs, 100,000 files added after signing): kept
/// whole, such findings took hundreds of megabytes and buried the report. The first ``perRule`` of each rule are
/// listed as found; the others are counted, and one more finding of the same rule says how many were left out (and
/// stands for them in the report's counts, ``Finding/occurrences``), so the report stays small and still says what
/// it saw.
package struct FindingList: Sendable {
    /// How many findings of one rule are listed.
    package static let perRule = 50

    private var kept: [Finding] = []
    /// `kept` as a set, to drop repeats of a listed finding at once.
    private var listed: Set<Finding> = []
    /// For each rule past its limit: the first finding not listed (for its severity, bundle and domain) and how
    /// many were not listed.
    private var unlisted: [String: (example: Finding, count: Int)] = [:]
    private var counts: [String: Int] = [:]

    /// An empty list.
    package init() {}

    /// Adds a finding, or counts it when its rule already has ``perRule`` listed; a finding equal to one already
    /// listed is the same cause said again and is dropped (the report would merge it anyway).
    package mutating func append(_ finding: Finding) {
        guard !listed.contains(finding) else { return }
        let count = counts[finding.rule, default: 0]
        counts[finding.rule] = count + 1
        guard count >= Self.perRule else {
            kept.append(finding)
            listed.insert(finding)
            return
        }
        if let existing = unlisted[finding.rule] {
            unlisted[finding.rule] = (existing.example, existing.count + 1)
        } else {
            unlisted[finding.rule] = (finding, 1)
        }
    }

    /// Adds findings in order.
    package mutating func append(contentsOf findings: some Sequence<Finding>) {
        for finding in findings { append(finding) }
    }

    /// The listed findings, then one for each rule that had more, saying how many were not listed.
    package var findings: [Finding] {
        kept
            + unlisted.keys.sorted().compactMap { rule in
                guard let (example, count) = unlisted[rule] else { return nil }
                let more = count == 1 ? "1 more \(rule) finding is" : "\(count) more \(rule) findings are"
                return Finding(
                    rule: rule,
                    severity: example.severity,
                    message: "\(more) not listed: only the first \(Self.perRule) findings of a rule are",
                    bundle: example.bundle,
                    domain: example.domain,
                    fix: example.fix,
                    occurrences: count
                )
            }
    }
}
