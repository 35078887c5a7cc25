/// One rule as Apple evaluates it, comparable between documents.
///
/// Defaults are merged in (M16, M17), legacy paths expressed as components, path slashes normalized, and the custom
/// substitution variables it uses resolved. Two documents whose rule sets are equal behave the same for that app,
/// whatever their formatting, key order or comments.
public struct AASAEffectiveRule: Sendable, Hashable, Codable {
    /// The `/` pattern with leading and trailing slashes removed (M5, M6); nil = any path.
    public var path: String?
    /// The `?` predicate; nil = any query (also for an ignored non-string dictionary, M12).
    public var query: AASAQueryPattern?
    /// The `#` pattern; nil = any fragment.
    public var fragment: String?
    /// Whether a match blocks the link.
    public var exclude: Bool
    /// Case-sensitive comparison (default true).
    public var caseSensitive: Bool
    /// Compare the URL as percent-encoded (default true).
    public var percentEncoded: Bool
    /// The custom substitution variables the patterns use, with their values.
    public var variables: [String: [String]]

    /// The effective form of `rule` in `detail`, given the domain-level defaults and variables.
    public init(rule: AASARule, detail: AASADetail, appLinks: AASAAppLinks) {
        let inherited = detail.defaults.overlaid(on: appLinks.defaults)
        let fields: AASAFields
        switch rule.kind {
        case .component: fields = rule.fields.overlaid(on: inherited)
        case .legacyPath:
            fields = AASAFields(
                path: rule.fields.path,
                exclude: rule.fields.exclude,
                caseSensitive: inherited.caseSensitive,
                percentEncoded: inherited.percentEncoded
            )
        }
        path = fields.path.map { PatternCompiler.trimSlashes($0) }
        if path.map(Self.isAllStars) == true { path = nil }
        switch fields.query {
        case .whole(let pattern)?: query = Self.isAllStars(pattern) ? nil : .whole(pattern)
        case .items(let items)?:
            // An item pattern of only `*` holds for any value and for a missing item (M10): no constraint.
            let constraining = items.filter { !Self.isAllStars($0.pattern) }.sorted { $0.name < $1.name }
            query = constraining.isEmpty ? nil : .items(constraining)
        case .ignored?, nil: query = nil
        }
        fragment = fields.fragment.flatMap { Self.isAllStars($0) ? nil : $0 }
        exclude = fields.exclude ?? false
        caseSensitive = fields.caseSensitive ?? true
        percentEncoded = fields.percentEncoded ?? true
        var used: [String: [String]] = [:]
        for pattern in [path, fragment].compactMap({ $0 }) + Self.queryPatterns(query) {
            for name in PatternCompiler.variableReferences(in: pattern) {
                if let values = appLinks.substitutionVariables[name] { used[name] = values }
            }
        }
        variables = used
    }

    /// Whether this rule matches every URL (no constraint left).
    public var matchesEverything: Bool {
        guard path == nil, fragment == nil else { return false }
        switch query {
        case nil: return true
        case .whole: return false
        case .items(let items): return items.isEmpty
        case .ignored: return true
        }
    }

    static func isAllStars(_ pattern: String) -> Bool {
        !pattern.isEmpty && pattern.allSatisfy { $0 == "*" }
    }

    private static func queryPatterns(_ query: AASAQueryPattern?) -> [String] {
        switch query {
        case .whole(let pattern)?: [pattern]
        case .items(let items)?: items.map(\.pattern)
        case .ignored?, nil: []
        }
    }
}

/// What one app ID gets from a document for one service: for `applinks`, its effective rules in order.
public struct AASAAppEntry: Sendable, Hashable, Codable {
    /// The service.
    public var service: AASAService
    /// The app ID.
    public var appID: String
    /// The effective rules (applinks only; empty for the flat services).
    public var rules: [AASAEffectiveRule]
}

/// How one app ID's treatment differs between two documents, such as the origin file and Apple's CDN copy.
public struct AASAEntryDifference: Sendable, Hashable, Codable {
    /// What changed.
    public enum Change: String, Sendable, Hashable, Codable {
        /// Only the other document lists the app for this service.
        case added
        /// Only this document lists the app for this service.
        case removed
        /// Both list it, with different effective rules.
        case rulesChanged
    }

    /// The service.
    public var service: AASAService
    /// The app ID.
    public var appID: String
    /// What changed.
    public var change: Change
    /// The rules in this document (nil when absent here).
    public var before: [AASAEffectiveRule]?
    /// The rules in the other document (nil when absent there).
    public var after: [AASAEffectiveRule]?
}

extension AASADocument {
    /// Every (service, app ID) the document serves, with the effective rules that apply (M20–M22 applied), sorted
    /// by service then app ID so two documents can be compared entry by entry.
    public var appEntries: [AASAAppEntry] {
        var entries: [AASAAppEntry] = []
        for service in AASAService.allCases {
            for appID in appIDs(for: service).sorted() {
                entries.append(
                    AASAAppEntry(
                        service: service,
                        appID: appID,
                        rules: service == .applinks ? effectiveRules(for: appID) : []
                    )
                )
            }
        }
        return entries
    }

    /// The effective rules iOS applies to `appID` for universal links (empty when the app is not listed).
    public func effectiveRules(for appID: String) -> [AASAEffectiveRule] {
        guard let applinks, let detail = detail(for: appID) else { return [] }
        return detail.rules.map { AASAEffectiveRule(rule: $0, detail: detail, appLinks: applinks) }
    }

    /// What would change for each app ID if `other` replaced this document: a semantic comparison that ignores
    /// formatting, key order, comments and equivalent spellings (`"/buy/"` vs `"buy"`).
    public func differences(to other: AASADocument) -> [AASAEntryDifference] {
        let mine = Dictionary(appEntries.map { ("\($0.service.rawValue) \($0.appID)", $0) }) { first, _ in first }
        let theirs = Dictionary(other.appEntries.map { ("\($0.service.rawValue) \($0.appID)", $0) }) { first, _ in first
        }
        var result: [AASAEntryDifference] = []
        for key in Set(mine.keys).union(theirs.keys).sorted() {
            let before = mine[key]
            let after = theirs[key]
            guard let entry = before ?? after else { continue }
            let change: AASAEntryDifference.Change
            if before == nil {
                change = .added
            } else if after == nil {
                change = .removed
            } else if before?.rules != after?.rules {
                change = .rulesChanged
            } else {
                continue
            }
            result.append(
                AASAEntryDifference(
                    service: entry.service,
                    appID: entry.appID,
                    change: change,
                    before: before?.rules,
                    after: after?.rules
                )
            )
        }
        return result
    }
}
