/// One rule as Apple evaluates it, comparable between documents.
///
/// Defaults are merged in (M16, M17), legacy paths expressed as components, path slashes normalized, and the custom
/// substitution variables it uses resolved. Two documents whose rule sets are equal behave the same for that app,
/// whatever their formatting, key order or comments.
package struct AASAEffectiveRule: Sendable, Hashable, Codable {
    /// The `/` pattern with leading and trailing slashes removed (M5, M6); nil = any path.
    package var path: String?
    /// The `?` predicate; nil = any query (also for an ignored non-string dictionary, M12).
    package var query: AASAQueryPattern?
    /// The `#` pattern; nil = any fragment.
    package var fragment: String?
    /// Whether a match blocks the link.
    package var exclude: Bool
    /// Case-sensitive comparison (default true).
    package var caseSensitive: Bool
    /// Compare the URL as percent-encoded (default true).
    package var percentEncoded: Bool
    /// The custom substitution variables the patterns use, with their values.
    package var variables: [String: [String]]

    /// The effective form of `rule` in `detail`, given the domain-level defaults and variables.
    package init(rule: AASAPathRule, detail: AASADetail, appLinks: AASAAppLinks) {
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
    package var matchesEverything: Bool {
        guard path == nil, fragment == nil else { return false }
        switch query {
        case nil: return true
        case .whole: return false
        case .items(let items): return items.isEmpty
        case .ignored: return true
        }
    }

    package static func isAllStars(_ pattern: String) -> Bool {
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
package struct AASAAppEntry: Sendable, Hashable, Codable {
    /// The service.
    package var service: AASAService
    /// The app ID.
    package var appID: String
    /// The effective rules (applinks only; empty for the flat services).
    package var rules: [AASAEffectiveRule]
}

/// How one app ID's treatment differs between two documents, such as the origin file and Apple's CDN copy.
package struct AASAEntryDifference: Sendable, Hashable, Codable {
    /// What changed.
    package enum Change: String, Sendable, Hashable, Codable {
        /// Only the other document lists the app for this service.
        case added
        /// Only this document lists the app for this service.
        case removed
        /// Both list it, with different effective rules.
        case rulesChanged
    }

    /// The service.
    package var service: AASAService
    /// The app ID.
    package var appID: String
    /// What changed.
    package var change: Change
    /// The rules in this document (nil when absent here).
    package var before: [AASAEffectiveRule]?
    /// The rules in the other document (nil when absent there).
    package var after: [AASAEffectiveRule]?
}

extension AASADocument {
    /// Every (service, app ID) the document serves, with the effective rules that apply (M20–M22 applied), sorted
    /// by service then app ID so two documents can be compared entry by entry.
    package var appEntries: [AASAAppEntry] { entriesWithDetails().map(\.entry) }

    /// The effective rules iOS applies to `appID` for universal links (empty when the app is not listed).
    package func effectiveRules(for appID: String) -> [AASAEffectiveRule] {
        guard let applinks, let detail = detail(for: appID) else { return [] }
        return detail.rules.map { AASAEffectiveRule(rule: $0, detail: detail, appLinks: applinks) }
    }

    /// What would change for each app ID if `other` replaced this document: a semantic comparison that ignores
    /// formatting, key order, comments and equivalent spellings (`"/buy/"` vs `"buy"`).
    package func differences(to other: AASADocument) -> [AASAEntryDifference] {
        typealias Keyed = [String: (entry: AASAAppEntry, detail: Int?)]
        let mine: Keyed = Dictionary(
            entriesWithDetails().map { ("\($0.entry.service.rawValue) \($0.entry.appID)", $0) }
        ) {
            first,
            _ in first
        }
        let theirs: Keyed = Dictionary(
            other.entriesWithDetails().map { ("\($0.entry.service.rawValue) \($0.entry.appID)", $0) }
        ) { first, _ in first }
        // App IDs of one details entry share its rules, so each pair of entries is compared once, and each variable
        // once (a rule's variables are its document's values for the names it uses).
        var sameRulesByDetails: [[Int?]: Bool] = [:]
        var sameValuesByName: [String: Bool] = [:]
        func sameValues(_ name: String) -> Bool {
            if let known = sameValuesByName[name] { return known }
            let same = applinks?.substitutionVariables[name] == other.applinks?.substitutionVariables[name]
            sameValuesByName[name] = same
            return same
        }
        func sameRules(
            _ before: (entry: AASAAppEntry, detail: Int?),
            _ after: (entry: AASAAppEntry, detail: Int?)
        ) -> Bool {
            let pair = [before.detail, after.detail]
            if let known = sameRulesByDetails[pair] { return known }
            let same =
                before.entry.rules.count == after.entry.rules.count
                && zip(before.entry.rules, after.entry.rules).allSatisfy {
                    Self.sameRule($0, $1, sameValues: sameValues)
                }
            sameRulesByDetails[pair] = same
            return same
        }
        var result: [AASAEntryDifference] = []
        for key in Set(mine.keys).union(theirs.keys).sorted() {
            let before = mine[key]
            let after = theirs[key]
            guard let entry = before?.entry ?? after?.entry else { continue }
            let change: AASAEntryDifference.Change
            if let before, let after {
                guard !sameRules(before, after) else { continue }
                change = .rulesChanged
            } else {
                change = before == nil ? .added : .removed
            }
            result.append(
                AASAEntryDifference(
                    service: entry.service,
                    appID: entry.appID,
                    change: change,
                    before: before?.entry.rules,
                    after: after?.entry.rules
                )
            )
        }
        return result
    }

    /// Every entry of ``appEntries``, with the position in `applinks.details` of the details entry its rules come
    /// from.
    ///
    /// A details entry's effective rules are built once and shared by every app ID it lists: finding the entry and
    /// building its rules again for each app ID made a file listing many app IDs beside many rules quadratic in
    /// time and memory.
    private func entriesWithDetails() -> [(entry: AASAAppEntry, detail: Int?)] {
        var firstDetail: [String: Int] = [:]
        for (position, detail) in (applinks?.details ?? []).enumerated() {
            for appID in detail.appIDs where firstDetail[appID] == nil { firstDetail[appID] = position }
        }
        var rulesByDetail: [Int: [AASAEffectiveRule]] = [:]
        var entries: [(entry: AASAAppEntry, detail: Int?)] = []
        for service in AASAService.allCases {
            for appID in appIDs(for: service).sorted() {
                guard service == .applinks, let applinks, let position = firstDetail[appID],
                    position < applinks.details.count
                else {
                    entries.append((AASAAppEntry(service: service, appID: appID, rules: []), nil))
                    continue
                }
                let detail = applinks.details[position]
                let rules =
                    rulesByDetail[position]
                    ?? detail.rules.map { AASAEffectiveRule(rule: $0, detail: detail, appLinks: applinks) }
                rulesByDetail[position] = rules
                entries.append((AASAAppEntry(service: service, appID: appID, rules: rules), position))
            }
        }
        return entries
    }

    /// `==` on two rules of this document and `other`, with `sameValues` saying whether a variable has the same
    /// values in both (instead of comparing those values again for every rule).
    private static func sameRule(
        _ mine: AASAEffectiveRule,
        _ theirs: AASAEffectiveRule,
        sameValues: (String) -> Bool
    ) -> Bool {
        mine.path == theirs.path && mine.query == theirs.query && mine.fragment == theirs.fragment
            && mine.exclude == theirs.exclude && mine.caseSensitive == theirs.caseSensitive
            && mine.percentEncoded == theirs.percentEncoded
            && mine.variables.keys.sorted() == theirs.variables.keys.sorted()
            && mine.variables.keys.allSatisfy(sameValues)
    }
}
