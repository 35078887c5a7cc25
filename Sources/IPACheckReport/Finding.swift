/// One problem found, as data: renderers (text, JSON, SARIF, JUnit, GitHub) only format these.
public struct Finding: Hashable, Sendable, Codable {
    /// The ``Rule/id`` that raised it.
    public var rule: String
    /// How bad it is.
    public var severity: Severity
    /// What is wrong, in one sentence.
    public var message: String
    /// The bundle it concerns (`Payload/App.app/PlugIns/Share.appex`), if any.
    public var bundle: String?
    /// The associated domain or AASA host it concerns, if any.
    public var domain: String?
    /// The URL it concerns, if any.
    public var url: String?
    /// Where exactly: a file inside the ipa, an AASA JSON path (`applinks.details[0].components[2]`), a key path.
    public var location: String?
    /// How to fix it.
    public var fix: String?

    /// Creates a finding; prefer ``Rule/finding(_:severity:bundle:domain:url:location:fix:)``.
    public init(
        rule: String,
        severity: Severity,
        message: String,
        bundle: String? = nil,
        domain: String? = nil,
        url: String? = nil,
        location: String? = nil,
        fix: String? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.bundle = bundle
        self.domain = domain
        self.url = url
        self.location = location
        self.fix = fix
    }
}

extension Finding: Comparable {
    /// Worst first, then by bundle, domain, rule, location and message, so reports are stable and diffable.
    public static func < (lhs: Finding, rhs: Finding) -> Bool {
        if lhs.severity != rhs.severity { return lhs.severity > rhs.severity }
        let left = [lhs.bundle ?? "", lhs.domain ?? "", lhs.rule, lhs.location ?? "", lhs.url ?? "", lhs.message]
        let right = [rhs.bundle ?? "", rhs.domain ?? "", rhs.rule, rhs.location ?? "", rhs.url ?? "", rhs.message]
        return left.lexicographicallyPrecedes(right)
    }
}
