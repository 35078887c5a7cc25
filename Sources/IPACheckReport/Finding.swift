/// One problem found, as data: renderers (text, JSON, SARIF, JUnit, GitHub) only format these.
package struct Finding: Hashable, Sendable, Codable {
    /// The ``Rule/id`` that raised it.
    package var rule: String
    /// How bad it is: the rule's effective severity (``Report`` sets it from its catalogue).
    package var severity: Severity
    /// What is wrong, in one sentence.
    package var message: String
    /// The bundle it concerns (`Payload/App.app/PlugIns/Share.appex`), if any.
    package var bundle: String?
    /// The associated domain or AASA host it concerns, if any.
    package var domain: String?
    /// The URL it concerns, if any.
    package var url: String?
    /// Where exactly: a file inside the ipa, an AASA JSON path (`applinks.details[0].components[2]`), a key path.
    package var location: String?
    /// How to fix it.
    package var fix: String?
    /// Everything else the same cause affects: the slices (`arm64`), or the bundles when one cause touches
    /// several (`Payload/App.app (arm64, armv7)`), so one cause is one finding.
    package var affects: [String]?
    /// How many occurrences this finding stands for, when more than one: the finding that counts those a rule
    /// raised beyond ``FindingList/perRule`` (JSON `occurrences`, absent otherwise); the report's counts add them.
    package var occurrences: Int?

    /// Creates a finding; prefer ``Rule/finding(_:bundle:domain:url:location:fix:affects:)``.
    package init(
        rule: String,
        severity: Severity,
        message: String,
        bundle: String? = nil,
        domain: String? = nil,
        url: String? = nil,
        location: String? = nil,
        fix: String? = nil,
        affects: [String]? = nil,
        occurrences: Int? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.bundle = bundle
        self.domain = domain
        self.url = url
        self.location = location
        self.fix = fix
        self.affects = affects?.isEmpty == true ? nil : affects
        self.occurrences = occurrences
    }
}

extension Finding: Comparable {
    /// Worst first, then by bundle, domain, rule, location and message, so reports are stable and diffable.
    package static func < (lhs: Finding, rhs: Finding) -> Bool {
        if lhs.severity != rhs.severity { return lhs.severity > rhs.severity }
        let left = [lhs.bundle ?? "", lhs.domain ?? "", lhs.rule, lhs.location ?? "", lhs.url ?? "", lhs.message]
        let right = [rhs.bundle ?? "", rhs.domain ?? "", rhs.rule, rhs.location ?? "", rhs.url ?? "", rhs.message]
        return left.lexicographicallyPrecedes(right)
    }
}

extension Finding {
    /// One finding per cause, whose ``affects`` lists every slice and bundle it touches.
    ///
    /// Findings that say the same thing (rule, message, domain, URL, location, fix) about several slices or bundles
    /// become one. Order is kept (first occurrence).
    ///
    /// Within one bundle the slices are united; across bundles the finding names no single bundle and
    /// ``affects`` lists each bundle with its slices (`Payload/App.app (arm64, armv7)`).
    package static func merged(_ findings: [Finding]) -> [Finding] {
        struct Cause: Hashable {
            let rule: String
            let message: String
            let domain: String?
            let url: String?
            let location: String?
            let fix: String?
        }
        var order: [Cause] = []
        var groups: [Cause: [Finding]] = [:]
        for finding in findings {
            let cause = Cause(
                rule: finding.rule,
                message: finding.message,
                domain: finding.domain,
                url: finding.url,
                location: finding.location,
                fix: finding.fix
            )
            if groups[cause] == nil { order.append(cause) }
            groups[cause, default: []].append(finding)
        }
        return order.compactMap { cause in
            guard let group = groups[cause], var first = group.first else { return nil }
            guard group.count > 1 else { return first }
            first.severity = group.map(\.severity).max() ?? first.severity
            var bundles: [String?] = []
            var slices: [String?: [String]] = [:]
            for finding in group {
                if !bundles.contains(finding.bundle) { bundles.append(finding.bundle) }
                for item in finding.affects ?? [] where !(slices[finding.bundle]?.contains(item) ?? false) {
                    slices[finding.bundle, default: []].append(item)
                }
            }
            if bundles.count == 1 {
                first.affects = slices[first.bundle].flatMap { $0.isEmpty ? nil : $0 }
            } else {
                first.bundle = nil
                first.affects = bundles.map { bundle in
                    let name = bundle ?? "the archive"
                    guard let items = slices[bundle], !items.isEmpty else { return name }
                    return name + " (" + items.joined(separator: ", ") + ")"
                }
            }
            return first
        }
    }
}
