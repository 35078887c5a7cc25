extension Report {
    /// Counts of findings by severity; JSON `{"errors": n, "warnings": n, "notes": n}` (plus `suppressed`).
    package struct Summary: Hashable, Sendable, Codable, CustomStringConvertible {
        /// Unsuppressed findings of severity error.
        package var errors: Int
        /// Unsuppressed findings of severity warning.
        package var warnings: Int
        /// Unsuppressed findings of severity note.
        package var notes: Int
        /// Findings a configuration suppressed (of any severity): still reported, never counted above.
        package var suppressed: Int

        /// Counts given directly.
        package init(errors: Int = 0, warnings: Int = 0, notes: Int = 0, suppressed: Int = 0) {
            self.errors = errors
            self.warnings = warnings
            self.notes = notes
            self.suppressed = suppressed
        }

        /// Counts these severities (all unsuppressed).
        package init(counting severities: some Sequence<Severity>) {
            self.init()
            for severity in severities { count(severity) }
        }

        /// Counts these entries, suppressed ones apart.
        init(counting entries: [Entry]) {
            self.init()
            for entry in entries {
                let times = max(entry.finding.occurrences ?? 1, 1)
                if entry.suppression != nil {
                    suppressed += times
                } else {
                    count(entry.finding.severity, times: times)
                }
            }
        }

        private mutating func count(_ severity: Severity, times: Int = 1) {
            switch severity {
            case .error: errors += times
            case .warning: warnings += times
            case .note: notes += times
            }
        }

        /// Unsuppressed findings counted.
        package var total: Int { errors + warnings + notes }

        /// `3 errors, 1 warning, 0 notes` (and `, 2 suppressed` when there are any).
        package var description: String {
            var text = [(errors, "error"), (warnings, "warning"), (notes, "note")]
                .map { count, noun in "\(count) \(noun)\(count == 1 ? "" : "s")" }
                .joined(separator: ", ")
            if suppressed > 0 { text += ", \(suppressed) suppressed" }
            return text
        }

        private enum CodingKeys: String, CodingKey {
            case errors, warnings, notes, suppressed
        }

        /// Reads the counts; `suppressed` may be absent.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            errors = try container.decode(Int.self, forKey: .errors)
            warnings = try container.decode(Int.self, forKey: .warnings)
            notes = try container.decode(Int.self, forKey: .notes)
            suppressed = try container.decodeIfPresent(Int.self, forKey: .suppressed) ?? 0
        }

        /// Writes the three counts of report.schema.json, and `suppressed` only when some finding was suppressed.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(errors, forKey: .errors)
            try container.encode(warnings, forKey: .warnings)
            try container.encode(notes, forKey: .notes)
            if suppressed > 0 { try container.encode(suppressed, forKey: .suppressed) }
        }
    }
}
