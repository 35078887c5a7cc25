import Testing

@testable import IPACheckAASA

/// Patterns with substitution variables (docs/matching.md M19: each value is one alternative, values may hold `*` and
/// `?`): the compiled glob agrees with a direct reading of that rule, and a variable used many times with many
/// values costs its values once per start position, not once per use.
struct GlobTests {
    /// Whether `text` matches `pattern` as M19 says, by trying every value of every variable at every position:
    /// slow, obviously right, and independent of the compiled matcher.
    static func referenceMatch(_ pattern: String, _ text: String, variables: [String: [String]]) -> Bool {
        enum Item {
            case scalar(Unicode.Scalar)
            case star
            case any
            case variable([String])
        }
        var items: [Item] = []
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "$", index + 1 < scalars.count, scalars[index + 1] == "(",
                let close = scalars[(index + 2)...].firstIndex(of: ")")
            {
                let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
                items.append(.variable(variables[name] ?? []))
                index = close + 1
                continue
            }
            items.append(scalars[index] == "*" ? .star : scalars[index] == "?" ? .any : .scalar(scalars[index]))
            index += 1
        }
        let characters = Array(text.unicodeScalars)
        func wildcardMatch(_ value: [Unicode.Scalar], _ part: ArraySlice<Unicode.Scalar>) -> Bool {
            guard let first = value.first else { return part.isEmpty }
            let rest = Array(value.dropFirst())
            switch first {
            case "*": return (part.startIndex...part.endIndex).contains { wildcardMatch(rest, part[$0...]) }
            case "?": return !part.isEmpty && wildcardMatch(rest, part.dropFirst())
            default: return part.first == first && wildcardMatch(rest, part.dropFirst())
            }
        }
        func match(_ item: Int, _ position: Int) -> Bool {
            guard item < items.count else { return position == characters.count }
            switch items[item] {
            case .star: return (position...characters.count).contains { match(item + 1, $0) }
            case .any: return position < characters.count && match(item + 1, position + 1)
            case .scalar(let scalar):
                return position < characters.count && characters[position] == scalar && match(item + 1, position + 1)
            case .variable(let values):
                return (position...characters.count).contains { end in
                    values.contains { wildcardMatch(Array($0.unicodeScalars), characters[position..<end]) }
                        && match(item + 1, end)
                }
            }
        }
        return match(0, 0)
    }

    static func compiledMatch(_ pattern: String, _ text: String, variables: [String: [String]]) -> Bool {
        let compiler = PatternCompiler(customVariables: variables)
        let glob = compiler.compile(pattern, caseSensitive: true).glob
        return glob.matches(PatternCompiler.scalars(of: text, caseSensitive: true))
    }

    @Test func randomVariablePatternsMatchLikeTheReference() {
        var state: UInt64 = 0xDA3E_39CB_94B9_5BDB
        func nextRandom(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func randomString(_ pieces: [String], maximumLength: Int) -> String {
            (0..<nextRandom(maximumLength + 1)).map { _ in pieces[nextRandom(pieces.count)] }.joined()
        }
        var matched = 0
        for _ in 0..<600 {
            let variables = [
                "v": (0..<(1 + nextRandom(5))).map { _ in randomString(["a", "b", "ab", "*", "?"], maximumLength: 3) },
                "w": (0..<(1 + nextRandom(5))).map { _ in randomString(["a", "b", "ba"], maximumLength: 3) },
            ]
            let pattern = randomString(["a", "b", "*", "?", "$(v)", "$(w)"], maximumLength: 5)
            for _ in 0..<8 {
                let text = randomString(["a", "b"], maximumLength: 6)
                let expected = Self.referenceMatch(pattern, text, variables: variables)
                if expected { matched += 1 }
                #expect(
                    Self.compiledMatch(pattern, text, variables: variables) == expected,
                    "\(pattern) on \(text) with \(variables)"
                )
            }
        }
        // Both verdicts must be well represented, or this proves little.
        #expect(matched > 300 && matched < 4_500)
    }

    /// Hostile files: a 20,000-value variable used 200 times.
    ///
    /// Against a path of about 1,200 characters, every value was tried at every use (about 10^10 steps); each value
    /// is now tried once per start.
    @Test func manyUsesOfALargeVariable() {
        let values = (0..<20_000).map { "v\($0)x" }
        let pattern = String(repeating: "$(part)", count: 200)
        let text = (0..<200).map { "v\(($0 * 97) % 20_000)x" }.joined()
        #expect(Self.compiledMatch(pattern, text, variables: ["part": values]))
        #expect(!Self.compiledMatch(pattern, text + "y", variables: ["part": values]))
        #expect(!Self.compiledMatch(pattern, String(text.dropLast(2)), variables: ["part": values]))
    }

    /// A value repeated many times is tried once, and the ends found at one start are kept once each, so wildcard
    /// values cannot multiply the work (or the memory) by their count.
    @Test func repeatedWildcardValuesAreTriedOnce() {
        let values = Array(repeating: "a*", count: 50_000) + ["b"]
        let pattern = String(repeating: "$(v)", count: 50)
        let text = String(repeating: "a", count: 500)
        #expect(Self.compiledMatch(pattern, text, variables: ["v": values]))
        #expect(!Self.compiledMatch(pattern, String(repeating: "a", count: 49), variables: ["v": values]))
        #expect(Self.compiledMatch(pattern, text + "b", variables: ["v": values]))
    }
}
