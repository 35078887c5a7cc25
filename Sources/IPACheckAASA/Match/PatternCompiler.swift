import Foundation

/// Turns pattern strings into ``Glob``s: substitution variables resolved, case folded when `caseSensitive` is false.
package struct PatternCompiler: Sendable {
    /// Each custom variable's alternatives, tokenized once per case setting and shared by every pattern using it.
    private let customGroups: [String: (sensitive: GlobAlternatives, folded: GlobAlternatives)]

    /// Prepares the custom variables of `applinks.substitutionVariables`.
    init(customVariables: [String: [String]]) {
        var groups: [String: (sensitive: GlobAlternatives, folded: GlobAlternatives)] = [:]
        for (name, values) in customVariables {
            groups[name] = (
                GlobAlternatives(values.map { Self.tokenizeValue($0, caseSensitive: true) }),
                GlobAlternatives(values.map { Self.tokenizeValue($0, caseSensitive: false) })
            )
        }
        customGroups = groups
    }

    /// The result of compiling one pattern.
    struct Compiled {
        var glob: Glob
        /// `$(name)` references with no definition: the pattern can never match.
        var undefinedVariables: [String]
    }

    /// Compiles a `?`, `#` or query-item pattern.
    func compile(_ pattern: String, caseSensitive: Bool) -> Compiled {
        var undefined: [String] = []
        let tokens = tokenize(Array(pattern.unicodeScalars), caseSensitive: caseSensitive, undefined: &undefined)
        return Compiled(glob: undefined.isEmpty ? Glob(tokens: tokens) : .never, undefinedVariables: undefined)
    }

    /// Compiles a `/` pattern: leading and trailing slashes dropped (M5, M6); a trailing `/*` also matches the
    /// parent path, so that variant is returned as `parent`.
    func compilePath(_ pattern: String, caseSensitive: Bool) -> (main: Compiled, parent: Compiled?) {
        let normalized = Self.trimSlashes(pattern)
        let main = compile(normalized, caseSensitive: caseSensitive)
        guard normalized.hasSuffix("/*") else { return (main, nil) }
        return (main, compile(String(normalized.dropLast(2)), caseSensitive: caseSensitive))
    }

    /// `pattern` or path without leading and trailing `/` (both sides of a path comparison are trimmed).
    static func trimSlashes<S: StringProtocol>(_ text: S) -> String {
        var scalars = Substring(text).unicodeScalars[...]
        while scalars.first == "/" { scalars.removeFirst() }
        while scalars.last == "/" { scalars.removeLast() }
        return String(scalars)
    }

    /// The names a pattern references with `$(name)`, in order.
    package static func variableReferences(in pattern: String) -> [String] {
        var names: [String] = []
        let references = VariableReferences(Array(pattern.unicodeScalars))
        var index = 0
        while index < references.scalars.count {
            if let name = references.name(at: index) {
                names.append(String(String.UnicodeScalarView(references.scalars[name])))
                index = name.upperBound + 1
            } else {
                index += 1
            }
        }
        return names
    }

    /// Whether a pattern has a `$(` with no closing `)`.
    package static func hasUnterminatedVariable(_ pattern: String) -> Bool {
        let references = VariableReferences(Array(pattern.unicodeScalars))
        var index = 0
        while index < references.scalars.count {
            if let name = references.name(at: index) {
                index = name.upperBound + 1
            } else if references.opensReference(at: index) {
                return true
            } else {
                index += 1
            }
        }
        return false
    }

    /// A variable value: `*` and `?` wildcards, everything else literal (values cannot use variables).
    private static func tokenizeValue(_ value: String, caseSensitive: Bool) -> [Glob.Token] {
        value.unicodeScalars.flatMap { scalar -> [Glob.Token] in
            switch scalar {
            case "*": [.star]
            case "?": [.any]
            default: fold(scalar, caseSensitive: caseSensitive).map(Glob.Token.scalar)
            }
        }
    }

    private func tokenize(
        _ scalars: [Unicode.Scalar],
        caseSensitive: Bool,
        undefined: inout [String]
    ) -> [Glob.Token] {
        var tokens: [Glob.Token] = []
        let references = VariableReferences(scalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "*" {
                tokens.append(.star)
            } else if scalar == "?" {
                tokens.append(.any)
            } else if let nameRange = references.name(at: index) {
                let name = String(String.UnicodeScalarView(scalars[nameRange]))
                if let token = resolve(name, caseSensitive: caseSensitive) {
                    tokens.append(token)
                } else {
                    undefined.append(name)
                }
                index = nameRange.upperBound + 1
                continue
            } else {
                for folded in Self.fold(scalar, caseSensitive: caseSensitive) { tokens.append(.scalar(folded)) }
            }
            index += 1
        }
        return tokens
    }

    private func resolve(_ name: String, caseSensitive: Bool) -> Glob.Token? {
        if let group = customGroups[name] {
            return .group(caseSensitive ? group.sensitive : group.folded)
        }
        if let set = Self.builtinSets[name] {
            return .set(caseSensitive ? set : Self.fold(set))
        }
        switch name {
        case "region": return .group(caseSensitive ? BuiltinLists.regionTokens : BuiltinLists.foldedRegionTokens)
        case "lang": return .group(caseSensitive ? BuiltinLists.languageTokens : BuiltinLists.foldedLanguageTokens)
        default: return nil
        }
    }

    /// The predefined single-character classes (Apple, applinks.SubstitutionVariables).
    static let builtinSets: [String: ScalarSet] = [
        "alpha": ScalarSet(ranges: [0x41...0x5A, 0x61...0x7A]),
        "upper": ScalarSet(ranges: [0x41...0x5A]),
        "lower": ScalarSet(ranges: [0x61...0x7A]),
        "alnum": ScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x61...0x7A]),
        "digit": ScalarSet(ranges: [0x30...0x39]),
        "xdigit": ScalarSet(ranges: [0x30...0x39, 0x41...0x46, 0x61...0x66]),
    ]

    /// Every predefined variable name.
    package static let builtinNames: Set<String> = Set(builtinSets.keys).union(["region", "lang"])

    /// A set that also accepts the lower-case form of its upper-case ASCII letters (the text is folded too).
    private static func fold(_ set: ScalarSet) -> ScalarSet {
        var ranges = set.ranges
        for range in set.ranges {
            let lower = max(range.lowerBound, 0x41)
            let upper = min(range.upperBound, 0x5A)
            if lower <= upper { ranges.append((lower + 0x20)...(upper + 0x20)) }
        }
        return ScalarSet(ranges: ranges)
    }

    /// Lower-cases one scalar when matching is case-insensitive (ASCII fast path; Unicode via String).
    static func fold(_ scalar: Unicode.Scalar, caseSensitive: Bool) -> [UInt32] {
        if caseSensitive { return [scalar.value] }
        if scalar.value < 0x80 {
            let value = scalar.value
            return [(0x41...0x5A).contains(value) ? value + 0x20 : value]
        }
        return String(scalar).lowercased().unicodeScalars.map(\.value)
    }

    /// A text's scalars as compared against patterns (folded when case-insensitive).
    static func scalars<S: StringProtocol>(of text: S, caseSensitive: Bool) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(text.utf8.count)
        if caseSensitive {
            for scalar in text.unicodeScalars { result.append(scalar.value) }
        } else {
            for scalar in text.unicodeScalars { result.append(contentsOf: fold(scalar, caseSensitive: false)) }
        }
        return result
    }
}

/// Finds the `$(name)` references of a pattern: `$(` up to the first `)` after it; a `$(` with no `)` after it is
/// literal.
///
/// Searching for the `)` afresh at every `$(` made a pattern of many unterminated `$(` quadratic. The last
/// `)` is found once instead, so a `$(` after it is known to be unterminated without a search, and every search
/// that runs finds a `)`: a caller that resumes after that `)` scans each scalar at most twice.
struct VariableReferences {
    /// The pattern's scalars.
    let scalars: [Unicode.Scalar]
    /// The index of the pattern's last `)`, if any.
    private let lastClose: Int?

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
        lastClose = scalars.lastIndex(of: ")")
    }

    /// Whether a `$(` starts at `index`.
    func opensReference(at index: Int) -> Bool {
        index >= 0 && index + 1 < scalars.count && scalars[index] == "$" && scalars[index + 1] == "("
    }

    /// The range of the name when a terminated `$(name)` starts at `index`; its `)` is at the range's upper bound.
    func name(at index: Int) -> Range<Int>? {
        guard opensReference(at: index), let lastClose, lastClose >= index + 2 else { return nil }
        // Found: a `)` exists at or before `lastClose`.
        guard let close = scalars[(index + 2)...lastClose].firstIndex(of: ")") else { return nil }
        return (index + 2)..<close
    }
}

/// The ISO code lists behind `$(region)` and `$(lang)` (Apple: `Locale.isoRegionCodes`,
/// `Locale.isoLanguageCodes`), taken from Foundation so they follow the platform's ICU data.
enum BuiltinLists {
    /// The two-letter ISO 3166 region codes, so `GB` but never `UK`.
    ///
    /// Foundation on Linux also lists UN M.49 numeric areas (`001`); Apple's `isoRegionCodes` does not, so only
    /// two-letter codes are kept.
    static let regions: [String] = Locale.Region.isoRegions.map(\.identifier)
        .filter { $0.count == 2 && $0.unicodeScalars.allSatisfy { (0x41...0x5A).contains($0.value) } }
        .sorted()

    /// ISO 639 language codes (two- and three-letter, as Foundation lists them).
    static let languages: [String] = Locale.LanguageCode.isoLanguageCodes.map(\.identifier).sorted()

    static let regionTokens = tokens(regions, caseSensitive: true)
    static let foldedRegionTokens = tokens(regions, caseSensitive: false)
    static let languageTokens = tokens(languages, caseSensitive: true)
    static let foldedLanguageTokens = tokens(languages, caseSensitive: false)

    private static func tokens(_ codes: [String], caseSensitive: Bool) -> GlobAlternatives {
        GlobAlternatives(
            codes.map { code in
                code.unicodeScalars.flatMap { PatternCompiler.fold($0, caseSensitive: caseSensitive) }.map(
                    Glob.Token.scalar
                )
            }
        )
    }
}
