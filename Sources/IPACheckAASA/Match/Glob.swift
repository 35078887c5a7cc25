/// A compiled AASA pattern: `*` (zero or more characters, crossing `/`), `?` (exactly one), `$(name)`
/// substitution variables (each value one alternative), everything else literal and anchored at both ends (M4).
///
/// Patterns are compiled once. Matching never backtracks exponentially: plain patterns use the greedy two-pointer
/// wildcard algorithm (worst case O(text × pattern)), patterns with variables a reachable-position set in which
/// each variable's values are tried once per start position, however often the pattern uses it (see
/// ``GlobAlternatives``). Characters are Unicode scalars.
struct Glob: Sendable, Hashable {
    /// One element of a pattern.
    enum Token: Sendable, Hashable {
        case scalar(UInt32)
        case any
        case star
        case set(ScalarSet)
        /// Alternatives from a substitution variable; each is a sequence without further groups.
        case group(GlobAlternatives)
    }

    private enum Program: Sendable, Hashable {
        case literal([UInt32])
        case wildcard(WildcardProgram)
        case positions(PositionSetMatcher)
        case never
    }

    private let program: Program
    /// Whether the pattern matches every text (only `*`s): such components constrain nothing.
    let matchesEverything: Bool

    /// A pattern that can never match (it uses an undefined variable).
    static let never = Glob(program: .never, matchesEverything: false)

    init(tokens rawTokens: [Token]) {
        // `**` is `*`: collapsing runs keeps star-heavy patterns short.
        var tokens: [Token] = []
        tokens.reserveCapacity(rawTokens.count)
        for token in rawTokens where !(token == .star && tokens.last == .star) { tokens.append(token) }
        let hasGroup = tokens.contains { if case .group = $0 { true } else { false } }
        let hasWildcard = tokens.contains { if case .scalar = $0 { false } else { true } }
        if !hasWildcard {
            program = .literal(tokens.compactMap { if case .scalar(let value) = $0 { value } else { nil } })
        } else if !hasGroup {
            program = .wildcard(WildcardProgram(tokens: tokens))
        } else {
            program = .positions(PositionSetMatcher(tokens: tokens))
        }
        matchesEverything = !tokens.isEmpty && tokens.allSatisfy { $0 == .star }
    }

    private init(program: Program, matchesEverything: Bool) {
        self.program = program
        self.matchesEverything = matchesEverything
    }

    /// The scalars every matching text starts with (empty when the pattern starts with a wildcard); nil when no
    /// text matches.
    var requiredPrefix: [UInt32]? {
        switch program {
        case .literal(let literal): return literal
        case .wildcard(let wildcard): return wildcard.literalCodes
        case .positions(let matcher):
            var prefix: [UInt32] = []
            for token in matcher.tokens {
                guard case .scalar(let value) = token else { break }
                prefix.append(value)
            }
            return prefix
        case .never: return nil
        }
    }

    /// Whether the whole `text` matches.
    func matches(_ text: [UInt32]) -> Bool {
        switch program {
        case .literal(let literal): return literal == text
        case .wildcard(let wildcard): return wildcard.matches(text)
        case .positions(let matcher): return matcher.matches(text)
        case .never: return false
        }
    }
}

/// A group-free pattern encoded as one `UInt32` per token, matched with the greedy two-pointer algorithm.
///
/// On a mismatch it retries from the last `*` one character further: linear for typical patterns, O(n·m) at worst,
/// never exponential.
private struct WildcardProgram: Sendable, Hashable {
    private static let star: UInt32 = 0xFFFF_FFFF
    private static let any: UInt32 = 0xFFFF_FFFE
    /// Codes at or above this (and below ``any``) are `setBase + index into sets`.
    private static let setBase: UInt32 = 0x8000_0000

    private var codes: [UInt32] = []
    private var sets: [ScalarSet] = []
    /// How many leading codes are plain scalars (checked first, to reject most texts at once).
    private var literalPrefix = 0
    /// How many characters a match needs at least (every code but `*` consumes exactly one).
    private var minimumLength = 0

    init(tokens: [Glob.Token]) {
        for token in tokens {
            switch token {
            case .scalar(let value): codes.append(value)
            case .any: codes.append(Self.any)
            case .star: codes.append(Self.star)
            case .set(let set):
                codes.append(Self.setBase + UInt32(sets.count))
                sets.append(set)
            case .group: break  // never here: patterns with groups use PositionSetMatcher
            }
        }
        literalPrefix = codes.firstIndex { $0 >= Self.setBase } ?? codes.count
        minimumLength = codes.count { $0 != Self.star }
    }

    /// The plain scalars the pattern starts with.
    var literalCodes: [UInt32] { Array(codes[..<literalPrefix]) }

    func matches(_ text: [UInt32]) -> Bool {
        guard text.count >= minimumLength else { return false }
        for index in 0..<literalPrefix where codes[index] != text[index] { return false }
        var textIndex = literalPrefix
        var codeIndex = literalPrefix
        var starCode = -1
        var starText = 0
        while textIndex < text.count {
            if codeIndex < codes.count {
                let code = codes[codeIndex]
                if code == Self.star {
                    starCode = codeIndex
                    starText = textIndex
                    codeIndex += 1
                    continue
                }
                if consumes(code, text[textIndex]) {
                    textIndex += 1
                    codeIndex += 1
                    continue
                }
            }
            guard starCode >= 0 else { return false }
            codeIndex = starCode + 1
            starText += 1
            textIndex = starText
        }
        while codeIndex < codes.count, codes[codeIndex] == Self.star { codeIndex += 1 }
        return codeIndex == codes.count
    }

    private func consumes(_ code: UInt32, _ scalar: UInt32) -> Bool {
        if code < Self.setBase { return code == scalar }
        if code == Self.any { return true }
        let index = Int(code - Self.setBase)
        return index < sets.count && sets[index].contains(scalar)
    }
}

/// A set of Unicode scalars given as ranges (the built-in `$(alpha)`, `$(digit)` … classes).
struct ScalarSet: Sendable, Hashable {
    var ranges: [ClosedRange<UInt32>]

    func contains(_ scalar: UInt32) -> Bool {
        for range in ranges where range.contains(scalar) { return true }
        return false
    }
}

/// Matches patterns with substitution-variable groups by tracking the set of text positions reachable after each
/// token: memory proportional to the text, nothing expanded at compile time (a group shares its
/// ``GlobAlternatives`` with every other pattern using the same variable).
///
/// A group is matched through the ends its alternatives reach from each reachable start, computed at most once per
/// start and variable for one text and reused by every use of the variable: O(uses × text × ends) plus the cost of
/// those ends, instead of uses × alternatives × text.
private struct PositionSetMatcher: Sendable, Hashable {
    let tokens: [Glob.Token]

    func matches(_ text: [UInt32]) -> Bool {
        var reachable = [Bool](repeating: false, count: text.count + 1)
        reachable[0] = true
        var endsByGroup: [GlobAlternatives: [[Int]?]] = [:]
        for token in tokens {
            guard case .group(let alternatives) = token else {
                guard advance(&reachable, through: token, text) else { return false }
                continue
            }
            var ends = endsByGroup.removeValue(forKey: alternatives) ?? Array(repeating: nil, count: text.count + 1)
            var next = [Bool](repeating: false, count: reachable.count)
            var any = false
            for start in reachable.indices where reachable[start] {
                let found = ends[start] ?? alternatives.ends(from: start, in: text)
                ends[start] = found
                for end in found {
                    next[end] = true
                    any = true
                }
            }
            endsByGroup[alternatives] = ends
            guard any else { return false }
            reachable = next
        }
        return reachable[text.count]
    }
}

/// Replaces `reachable` by the positions reachable after `token` (not a group); false when none is left.
private func advance(_ reachable: inout [Bool], through token: Glob.Token, _ text: [UInt32]) -> Bool {
    var next = [Bool](repeating: false, count: reachable.count)
    var any = false
    switch token {
    case .star:
        if let first = reachable.firstIndex(of: true) {
            for position in first..<next.count { next[position] = true }
            any = true
        }
    case .scalar, .any, .set:
        for position in 0..<text.count where reachable[position] && consumes(token, text[position]) {
            next[position + 1] = true
            any = true
        }
    case .group:
        break  // never here: values cannot use variables, and PositionSetMatcher handles a pattern's groups
    }
    guard any else { return false }
    reachable = next
    return true
}

private func consumes(_ token: Glob.Token, _ scalar: UInt32) -> Bool {
    switch token {
    case .scalar(let value): value == scalar
    case .any: true
    case .set(let set): set.contains(scalar)
    case .star, .group: false
    }
}

/// The values of one substitution variable, prepared once and shared by every pattern that uses it.
///
/// A hostile file can use a variable many times and give it many values; trying every value at every use made a
/// match cost uses × values × text, quadratic in the file. Instead, ``ends(from:in:)`` answers where the values
/// that match at one start position end, and the matcher asks it once per start and variable. Plain values are
/// kept sorted, so their ends are found by narrowing a range one character at a time (O(text × log values)); only
/// values with `*` or `?` are tried one by one (O(value × text) each). Repeated values are kept once.
final class GlobAlternatives: Sendable, Hashable {
    /// The values without wildcards, sorted (a value before its extensions).
    private let literals: [[UInt32]]
    /// The values with `*` or `?`.
    private let wildcardValues: [[Glob.Token]]

    /// Prepares the values of a variable, each a sequence of tokens without groups.
    init(_ values: [[Glob.Token]]) {
        var literals: [[UInt32]] = []
        var wildcardValues: [[Glob.Token]] = []
        var seen = Set<[Glob.Token]>()
        for value in values where seen.insert(value).inserted {
            let scalars = value.compactMap { token -> UInt32? in
                if case .scalar(let scalar) = token { scalar } else { nil }
            }
            if scalars.count == value.count {
                literals.append(scalars)
            } else {
                wildcardValues.append(value)
            }
        }
        self.literals = literals.sorted { $0.lexicographicallyPrecedes($1) }
        self.wildcardValues = wildcardValues
    }

    /// The positions, in order, where some value that matches `text` from `start` ends.
    func ends(from start: Int, in text: [UInt32]) -> [Int] {
        var isEnd = [Bool](repeating: false, count: text.count + 1)
        // Invariant: literals[low..<high] are the values that begin with text[start..<start + depth].
        var low = 0
        var high = literals.count
        var depth = 0
        while low < high {
            // The values equal to that text sort first in the range.
            if literals[low].count == depth {
                isEnd[start + depth] = true
                while low < high, literals[low].count == depth { low += 1 }
            }
            let position = start + depth
            guard low < high, position < text.count else { break }
            // Every value left is longer than `depth`, and they are sorted by their scalar at `depth`.
            let scalar = text[position]
            low = firstIndex(in: low..<high) { $0[depth] >= scalar }
            high = firstIndex(in: low..<high) { $0[depth] > scalar }
            depth += 1
        }
        for value in wildcardValues {
            var reachable = [Bool](repeating: false, count: text.count + 1)
            reachable[start] = true
            var alive = true
            for token in value where alive { alive = advance(&reachable, through: token, text) }
            guard alive else { continue }
            for position in reachable.indices where reachable[position] { isEnd[position] = true }
        }
        return isEnd.indices.filter { isEnd[$0] }
    }

    /// The first index of `range` whose literal satisfies `isAtOrPast` (which must hold for a suffix of the range).
    private func firstIndex(in range: Range<Int>, where isAtOrPast: ([UInt32]) -> Bool) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if isAtOrPast(literals[middle]) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }

    /// Identity: each variable (in each case setting) is prepared once.
    static func == (lhs: GlobAlternatives, rhs: GlobAlternatives) -> Bool { lhs === rhs }

    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
