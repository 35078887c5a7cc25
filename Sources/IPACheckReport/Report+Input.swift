extension Report.Input {
    /// Inputs are equal when everything the JSON shows is (how coverage was recorded is not compared).
    package static func == (lhs: Report.Input, rhs: Report.Input) -> Bool {
        lhs.path == rhs.path && lhs.summary == rhs.summary && lhs.verdict == rhs.verdict && lhs.error == rhs.error
            && lhs.notChecked == rhs.notChecked
    }

    /// Hashes what ``==`` compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(summary)
        hasher.combine(verdict)
        hasher.combine(error)
        hasher.combine(notChecked)
    }

    private enum CodingKeys: String, CodingKey {
        case path, summary, verdict, error, notChecked
    }

    /// Reads an input; its coverage is not part of the JSON (only what was not checked is).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        summary = try container.decode(Report.Summary.self, forKey: .summary)
        verdict = try container.decode(Report.Verdict.self, forKey: .verdict)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        notChecked = try container.decodeIfPresent([Report.NotChecked].self, forKey: .notChecked) ?? []
        coverage = RuleCoverage()
        for group in notChecked {
            coverage.skip(group.rules, because: group.reason)
        }
        coverage.assumeTheRestRan()
    }

    /// Writes `path`, `summary`, `verdict`, and `error` or `notChecked` when they apply.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(summary, forKey: .summary)
        try container.encode(verdict, forKey: .verdict)
        try container.encodeIfPresent(error, forKey: .error)
        if !notChecked.isEmpty { try container.encode(notChecked, forKey: .notChecked) }
    }
}
