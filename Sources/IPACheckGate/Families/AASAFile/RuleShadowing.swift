import IPACheckAASA
/// One effective rule prepared once for the linter's flow checks (duplicate rules, AASA105; rules that can never
/// fire, AASA104), which compare the rules of a details entry in pairs.
///
/// Folding and slicing each path here, once, keeps a pairwise comparison to one prefix test; before, every pair
/// folded and sliced both paths again, so a few hundred long paths took minutes.
struct RuleShadowing {
    /// What makes two rules of one document equal for matching.
    ///
    /// `variables` is left out: within one document a variable name always stands for the same values, so rules
    /// with equal patterns have equal variables, and hashing every value list once per rule made a file with a
    /// large variable and many rules using it quadratic.
    struct DuplicateKey: Hashable {
        let path: String?
        let query: AASAQueryPattern?
        let fragment: String?
        let caseSensitive: Bool
        let percentEncoded: Bool
    }

    /// The rule as the broader one: a literal prefix then a single trailing `*` (`P/*` also matches `P`).
    private struct Broader {
        let prefix: String
        let parent: String?

        func matches(_ literal: String) -> Bool { literal.hasPrefix(prefix) || literal == parent }
    }

    /// The rule's path as the narrower one.
    private enum Narrower {
        /// A path without wildcards.
        case literal(String)
        /// The text before the first wildcard, and the parent variant a trailing `/*` also matches.
        case wildcard(literalPrefix: String, slashStarParent: String?)
    }

    private static let wildcards: Set<Character> = ["*", "?", "$"]

    /// Equal for rules that match the same URLs in one document (exclude set aside).
    let duplicateKey: DuplicateKey
    /// The bytes of the path, counted against the linter's text window.
    let pathBytes: Int
    private let matchesEverything: Bool
    /// Only the path constrains the rule (no query, fragment or variables), so it can cover others.
    private let constrainsOnlyPath: Bool
    private let usesVariables: Bool
    private let caseSensitive: Bool
    private let percentEncoded: Bool
    private let broader: Broader?
    private let narrower: Narrower?

    init(_ rule: AASAEffectiveRule) {
        duplicateKey = DuplicateKey(
            path: rule.path,
            query: rule.query,
            fragment: rule.fragment,
            caseSensitive: rule.caseSensitive,
            percentEncoded: rule.percentEncoded
        )
        pathBytes = rule.path?.utf8.count ?? 0
        matchesEverything = rule.matchesEverything
        usesVariables = !rule.variables.isEmpty
        constrainsOnlyPath = rule.query == nil && rule.fragment == nil && !usesVariables
        caseSensitive = rule.caseSensitive
        percentEncoded = rule.percentEncoded
        guard let path = rule.path else {
            broader = nil
            narrower = nil
            return
        }
        let folded = rule.caseSensitive ? path : path.lowercased()
        if folded.hasSuffix("*"), !folded.dropLast().contains(where: Self.wildcards.contains) {
            let prefix = String(folded.dropLast())
            broader = Broader(prefix: prefix, parent: prefix.hasSuffix("/") ? String(prefix.dropLast()) : nil)
        } else {
            broader = nil
        }
        if let firstWildcard = folded.firstIndex(where: Self.wildcards.contains) {
            narrower = .wildcard(
                literalPrefix: String(folded[..<firstWildcard]),
                slashStarParent: folded.hasSuffix("/*") ? String(folded.dropLast(2)) : nil
            )
        } else {
            narrower = .literal(folded)
        }
    }

    /// Whether every URL `other` matches is also matched by this rule (a conservative check: catch-alls, and
    /// literal-prefix `*` paths without query or fragment constraints).
    func covers(_ other: RuleShadowing) -> Bool {
        if matchesEverything { return true }
        guard constrainsOnlyPath, let broader, caseSensitive == other.caseSensitive,
            percentEncoded == other.percentEncoded, !other.usesVariables, let narrower = other.narrower
        else { return false }
        switch narrower {
        case .literal(let literal):
            return broader.matches(literal)
        case .wildcard(let literalPrefix, let slashStarParent):
            guard literalPrefix.hasPrefix(broader.prefix) else { return false }
            // Their parent variant (Q/* also matches Q) must be covered too.
            if let slashStarParent { return broader.matches(slashStarParent) }
            return true
        }
    }
}
