package import Foundation

extension AASADocument {
    /// A matcher answering "would iOS open this URL in `appID`?" for one service, with every pattern compiled once.
    ///
    /// The rules it follows are docs/matching.md's (M1–M25, which the comments of this module cite).
    ///
    /// - Parameters:
    ///   - appID: The app's `application-identifier` (`TEAMID.bundle.id`).
    ///   - service: `applinks` matches URLs against rules; the other services only check that the app is listed.
    ///   - domain: When given, URLs whose host is not this domain get `none` (M23); `*.example.com` accepts
    ///     subdomains of example.com only.
    package func matcher(for appID: String, service: AASAService = .applinks, domain: String? = nil) -> AASAMatcher {
        AASAMatcher(document: self, appID: appID, service: service, domain: domain)
    }
}

/// The compiled rules of one app ID in one document; evaluating a URL runs no regex and allocates little.
package struct AASAMatcher: Sendable {
    /// The app ID this matcher answers for.
    package let appID: String
    /// The service.
    package let service: AASAService
    /// The domain URLs must be on, if checked.
    package let domain: String?
    /// The details entry that applies (the first listing the app ID, M22), if any.
    package let detailIndex: Int?

    private enum Scope {
        /// applinks: evaluate the rules.
        case rules([CompiledRule])
        /// The app is in the entry, but the entry has no rules.
        case noRules(String)
        /// The app is not listed for this service.
        case notListed(String)
        /// A flat service lists the app: every URL "matches" (an entry without patterns; docs/matching.md, "Other services").
        case listed(String)
    }

    private let scope: Scope
    /// The rules' path prefixes, to pass over most rules without touching them.
    private let prefilter: PathPrefilter

    init(document: AASADocument, appID: String, service: AASAService, domain: String?) {
        self.appID = appID
        self.service = service
        self.domain = domain?.lowercased()
        guard service == .applinks else {
            prefilter = PathPrefilter(rules: [])
            detailIndex = nil
            if document.serviceApps[service]?.contains(appID) == true {
                scope = .listed("\(appID) is listed in \(service.rawValue).apps")
            } else {
                scope = .notListed("\(appID) is not listed in \(service.rawValue).apps")
            }
            return
        }
        guard let applinks = document.applinks, let detail = document.detail(for: appID) else {
            prefilter = PathPrefilter(rules: [])
            detailIndex = nil
            scope = .notListed("\(appID) is not listed in applinks.details")
            return
        }
        detailIndex = detail.index
        let compiler = PatternCompiler(customVariables: applinks.substitutionVariables)
        let rules = detail.rules.map {
            CompiledRule(rule: $0, detail: detail, domainDefaults: applinks.defaults, compiler: compiler)
        }
        prefilter = PathPrefilter(rules: rules)
        if rules.isEmpty {
            let what = detail.ruleSource == .components ? "an empty components array" : "no components or paths"
            scope = .noRules("\(detail.location), the entry for \(appID), has \(what)")
        } else {
            scope = .rules(rules)
        }
    }

    /// Whether iOS would open `url` in the app, and which rule decided.
    package func evaluate(_ url: String) -> AASAMatchResult {
        let parts = URLParts(url)
        if let domain, let host = parts.host, !Self.host(host, isOn: domain) {
            return AASAMatchResult(
                url: url,
                appID: appID,
                verdict: .none,
                rule: nil,
                why: "host \(host) is not the domain \(domain)"
            )
        }
        switch scope {
        case .notListed(let why), .noRules(let why):
            return AASAMatchResult(url: url, appID: appID, verdict: .none, rule: nil, why: why)
        case .listed(let why):
            return AASAMatchResult(url: url, appID: appID, verdict: .match, rule: nil, why: why)
        case .rules(let rules):
            // The bulk path (`match --urls`): no trace, and the reason built in one string.
            var view = URLView(parts: parts)
            if let rule = Self.firstMatch(rules, prefilter, &view) {
                var why = rule.decidingPrefix(blocks: rule.exclude)
                parts.appendResource(to: &why)
                return AASAMatchResult(
                    url: url,
                    appID: appID,
                    verdict: rule.exclude ? .block : .match,
                    rule: rule.reference,
                    why: why
                )
            }
            var why = noMatchPrefix
            parts.appendResource(to: &why)
            why += noMatchSuffix
            return AASAMatchResult(url: url, appID: appID, verdict: .none, rule: nil, why: why)
        }
    }

    /// Only the verdict and the deciding rule, without building the `why` text: for bulk matching (sitemaps).
    package func decide(_ url: String) -> (verdict: AASAVerdict, rule: AASAPathRuleReference?) {
        let parts = URLParts(url)
        if let domain, let host = parts.host, !Self.host(host, isOn: domain) { return (.none, nil) }
        switch scope {
        case .notListed, .noRules: return (.none, nil)
        case .listed: return (.match, nil)
        case .rules(let rules):
            var view = URLView(parts: parts)
            guard let rule = Self.firstMatch(rules, prefilter, &view) else { return (.none, nil) }
            return (rule.exclude ? .block : .match, rule.reference)
        }
    }

    /// Whether iOS would open `url` in the app, and which rule decided.
    package func evaluate(_ url: URL) -> AASAMatchResult {
        evaluate(url.absoluteString)
    }

    /// The verdict plus every rule tried and why it did or did not match.
    package func explain(_ url: String) -> AASAMatchExplanation {
        run(url, trace: true)
    }

    private func run(_ url: String, trace: Bool) -> AASAMatchExplanation {
        func finish(
            _ verdict: AASAVerdict,
            _ rule: AASAPathRuleReference?,
            _ why: String,
            _ steps: [AASATraceStep] = []
        )
            -> AASAMatchExplanation
        {
            AASAMatchExplanation(
                result: AASAMatchResult(url: url, appID: appID, verdict: verdict, rule: rule, why: why),
                steps: steps
            )
        }
        let parts = URLParts(url)
        if let domain, let host = parts.host, !Self.host(host, isOn: domain) {
            return finish(.none, nil, "host \(host) is not the domain \(domain)")
        }
        switch scope {
        case .notListed(let why): return finish(.none, nil, why)
        case .noRules(let why): return finish(.none, nil, why)
        case .listed(let why): return finish(.match, nil, why)
        case .rules(let rules):
            var view = URLView(parts: parts)
            var steps: [AASATraceStep] = []
            var decision: (verdict: AASAVerdict, rule: CompiledRule)?
            var path = PathOfVariant()
            for rule in rules {
                if decision != nil, !trace { break }
                let outcome = rule.test(&view, path: path.of(rule.variant, in: &view))
                guard trace else {
                    if outcome == .matched { decision = (rule.exclude ? .block : .match, rule) }
                    continue
                }
                let traceOutcome: AASATraceOutcome
                let reason: String
                if outcome == .matched {
                    if decision != nil {
                        traceOutcome = .shadowed
                        reason = "would match, but an earlier rule decided (first match wins)"
                    } else {
                        decision = (rule.exclude ? .block : .match, rule)
                        traceOutcome = rule.exclude ? .blocked : .matched
                        reason = rule.matchDescription(parts) + (rule.exclude ? " (exclude: stops here)" : "")
                    }
                } else {
                    traceOutcome = decision == nil ? .failed : .notReached
                    reason = rule.failureDescription(outcome, view: &view)
                }
                steps.append(
                    AASATraceStep(rule: rule.reference, ruleText: rule.text, outcome: traceOutcome, reason: reason)
                )
            }
            if let decision {
                var why = decision.rule.decidingPrefix(blocks: decision.verdict == .block)
                parts.appendResource(to: &why)
                return finish(decision.verdict, decision.rule.reference, why, steps)
            }
            var why = noMatchPrefix
            parts.appendResource(to: &why)
            return finish(.none, nil, why + noMatchSuffix, steps)
        }
    }

    /// The first rule that matches: the one that decides (M1).
    private static func firstMatch(
        _ rules: [CompiledRule],
        _ prefilter: PathPrefilter,
        _ view: inout URLView
    ) -> CompiledRule? {
        var path = PathOfVariant()
        for index in rules.indices {
            let variant = prefilter.variants[index]
            guard prefilter.admits(index, path: path.of(variant, in: &view)) else { continue }
            let rule = rules[index]
            if rule.test(&view, path: path.of(variant, in: &view)) == .matched { return rule }
        }
        return nil
    }

    /// The URL's path as the rule being tested compares it, prepared again only when a rule's variant differs
    /// from the last one's (a document's rules usually share one): the rule loop then copies no array.
    private struct PathOfVariant {
        private var variant: URLView.Variant?
        private var path: [UInt32] = []

        mutating func of(_ variant: URLView.Variant, in view: inout URLView) -> [UInt32] {
            if self.variant != variant {
                path = view.path(variant)
                self.variant = variant
            }
            return path
        }
    }

    /// What a path must start with for each rule to have a chance, kept in flat arrays of plain values: a URL is
    /// held against most rules without touching their compiled patterns (whose reference counting cost more than
    /// the comparisons on a million-URL sitemap).
    private struct PathPrefilter: Sendable {
        /// The variant each rule compares the path in.
        let variants: [URLView.Variant]
        /// Every rule's prefix, one after the other.
        private let scalars: [UInt32]
        /// Where each rule's prefix lies in `scalars`; nil for a rule that never matches.
        private let ranges: [Range<Int>?]

        init(rules: [CompiledRule]) {
            var scalars: [UInt32] = []
            var ranges: [Range<Int>?] = []
            for rule in rules {
                guard let prefix = rule.requiredPathPrefix else {
                    ranges.append(nil)
                    continue
                }
                let start = scalars.count
                scalars += prefix
                ranges.append(start..<scalars.count)
            }
            variants = rules.map(\.variant)
            self.scalars = scalars
            self.ranges = ranges
        }

        /// Whether rule `index` may match a URL whose path (in the rule's variant) is `path`.
        func admits(_ index: Int, path: [UInt32]) -> Bool {
            guard let range = ranges[index] else { return false }
            guard path.count >= range.count else { return false }
            for (offset, position) in range.enumerated() where scalars[position] != path[offset] { return false }
            return true
        }
    }

    /// `no rule of applinks.details[0] matches `: the start of the reason when no rule matches.
    private var noMatchPrefix: String { "no rule of applinks.details[\(detailIndex ?? 0)] matches " }

    /// ` (15 rules tried)`: the end of the reason when no rule matches.
    private var noMatchSuffix: String {
        guard case .rules(let rules) = scope else { return "" }
        return rules.count == 1 ? " (1 rule tried)" : " (\(rules.count) rules tried)"
    }

    /// Host equality, case-insensitive (M23); `*.example.com` covers subdomains only.
    static func host(_ host: Substring, isOn domain: String) -> Bool {
        let host = host.lowercased()
        if domain.hasPrefix("*.") {
            return host.hasSuffix(String(domain.dropFirst(1))) && host.count > domain.count - 1
        }
        return host == domain
    }
}

/// One rule with defaults merged (M16, M17) and its patterns compiled (a class: evaluating a URL walks the rules
/// without copying them).
final class CompiledRule: Sendable {
    enum Outcome: Equatable {
        case matched
        case path
        case query
        case fragment
        case undefinedVariable
    }

    enum QueryTest: Sendable {
        case whole(Glob, String)
        case items([(name: [UInt32], displayName: String, glob: Glob, pattern: String)])
    }

    let reference: AASAPathRuleReference
    let text: String
    let label: String
    let exclude: Bool
    let variant: URLView.Variant
    private let pathPattern: String?
    private let path: (main: Glob, parent: Glob?)?
    private let query: QueryTest?
    private let fragment: (Glob, String)?
    private let undefinedVariables: [String]
    /// What the path (in ``variant``) must start with for this rule to match; nil when it never matches.
    let requiredPathPrefix: [UInt32]?

    init(rule: AASAPathRule, detail: AASADetail, domainDefaults: AASAFields, compiler: PatternCompiler) {
        reference = AASAPathRuleReference(detail: detail.index, component: rule.index)
        text = rule.text
        let inherited = detail.defaults.overlaid(on: domainDefaults)
        let fields: AASAFields
        switch rule.kind {
        case .component:
            fields = rule.fields.overlaid(on: inherited)
            label = "component \(rule.index)"
        case .legacyPath:
            // Legacy paths: path only (M25); the case and encoding settings still follow the defaults.
            fields = AASAFields(
                path: rule.fields.path,
                exclude: rule.fields.exclude,
                caseSensitive: inherited.caseSensitive,
                percentEncoded: inherited.percentEncoded
            )
            label = "path \(rule.index)"
        }
        exclude = fields.exclude ?? false
        let caseSensitive = fields.caseSensitive ?? true
        variant = URLView.Variant(caseSensitive: caseSensitive, percentEncoded: fields.percentEncoded ?? true)
        var undefined: [String] = []

        pathPattern = fields.path
        if let pattern = fields.path {
            let compiled = compiler.compilePath(pattern, caseSensitive: caseSensitive)
            undefined += compiled.main.undefinedVariables + (compiled.parent?.undefinedVariables ?? [])
            path = compiled.main.glob.matchesEverything ? nil : (compiled.main.glob, compiled.parent?.glob)
        } else {
            path = nil
        }

        switch fields.query {
        case .whole(let pattern)?:
            let compiled = compiler.compile(pattern, caseSensitive: caseSensitive)
            undefined += compiled.undefinedVariables
            query = compiled.glob.matchesEverything ? nil : .whole(compiled.glob, pattern)
        case .items(let items)?:
            query = .items(
                items.map { item in
                    let compiled = compiler.compile(item.pattern, caseSensitive: caseSensitive)
                    undefined += compiled.undefinedVariables
                    return (
                        PatternCompiler.scalars(of: item.name, caseSensitive: caseSensitive), item.name,
                        compiled.glob, item.pattern
                    )
                }
            )
        case .ignored?, nil:
            query = nil
        }

        if let pattern = fields.fragment {
            let compiled = compiler.compile(pattern, caseSensitive: caseSensitive)
            undefined += compiled.undefinedVariables
            fragment = compiled.glob.matchesEverything ? nil : (compiled.glob, pattern)
        } else {
            fragment = nil
        }
        undefinedVariables = undefined
        requiredPathPrefix = Self.requiredPrefix(path, undefined: undefined)
    }

    /// The prefix both path patterns require (the text matches either); nil when neither can match.
    private static func requiredPrefix(_ path: (main: Glob, parent: Glob?)?, undefined: [String]) -> [UInt32]? {
        guard undefined.isEmpty else { return nil }
        guard let path else { return [] }
        let main = path.main.requiredPrefix
        guard let parent = path.parent else { return main }
        guard let main else { return parent.requiredPrefix }
        guard let other = parent.requiredPrefix else { return main }
        return Array(zip(main, other).prefix { $0 == $1 }.map(\.0))
    }

    /// Whether the URL in `view`, whose path in this rule's variant is `text`, meets every part of the rule.
    func test(_ view: inout URLView, path text: [UInt32]) -> Outcome {
        if !undefinedVariables.isEmpty { return .undefinedVariable }
        if let path, !path.main.matches(text), !(path.parent?.matches(text) ?? false) { return .path }
        if let fragment, !fragment.0.matches(view.fragment(variant)) { return .fragment }
        if let query {
            switch query {
            case .whole(let glob, _):
                if !glob.matches(view.query(variant)) { return .query }
            case .items(let predicates):
                let items = view.queryItems(variant)
                for predicate in predicates where !Self.itemHolds(predicate.name, predicate.glob, items) {
                    return .query
                }
            }
        }
        return .matched
    }

    /// Every occurrence of the item must match (M11); a missing item counts as empty (M10).
    private static func itemHolds(_ name: [UInt32], _ glob: Glob, _ items: [URLView.QueryItem]) -> Bool {
        var found = false
        for item in items where item.name == name {
            found = true
            if !glob.matches(item.value) { return false }
        }
        return found || glob.matches([])
    }

    /// `component 3 {"/": "/settings/*"} matches `: the start of the reason when this rule decides.
    func decidingPrefix(blocks: Bool) -> String {
        var why = ""
        why.reserveCapacity(label.utf8.count + text.utf8.count + 72)
        why += label
        why += " "
        why += text
        why += blocks ? " blocks " : " matches "
        return why
    }

    func matchDescription(_ parts: URLParts) -> String {
        "\(parts.resource) matches every part the rule specifies"
    }

    func failureDescription(_ outcome: Outcome, view: inout URLView) -> String {
        switch outcome {
        case .matched: return "matches"
        case .undefinedVariable:
            return "uses undefined substitution variable(s) "
                + undefinedVariables.map { "$(\($0))" }.joined(separator: ", ")
                + ", so it never matches"
        case .path:
            return "path \"/\(Self.string(view.path(variant)))\" does not match \"\(pathPattern ?? "*")\""
        case .fragment:
            let value = view.parts.fragment.map { "\"\($0)\"" } ?? "(none, counts as empty)"
            return "fragment \(value) does not match \"\(fragment?.1 ?? "*")\""
        case .query:
            switch query {
            case .whole(_, let pattern)?:
                let value = view.parts.query.map { "\"\($0)\"" } ?? "(none, counts as empty)"
                return "query \(value) does not match \"\(pattern)\" (a string is matched against the whole query)"
            case .items(let predicates)?:
                let items = view.queryItems(variant)
                for predicate in predicates where !Self.itemHolds(predicate.name, predicate.glob, items) {
                    let values = items.filter { $0.name == predicate.name }.map { "\"\(Self.string($0.value))\"" }
                    if values.isEmpty {
                        return "query item \"\(predicate.displayName)\" is missing (counts as empty) and empty does "
                            + "not match \"\(predicate.pattern)\""
                    }
                    return "query item \"\(predicate.displayName)\" = \(values.joined(separator: ", ")) does not "
                        + "match \"\(predicate.pattern)\" (every occurrence must match)"
                }
                return "query does not match"
            case nil: return "query does not match"
            }
        }
    }

    private static func string(_ scalars: [UInt32]) -> String {
        var text = ""
        for value in scalars { if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) } }
        return text
    }
}
