/// A compiled AASA pattern: `*` (zero or more characters, crossing `/`), `?` (exactly one), `$(name)`
/// substitution variables (each value one alternative), everything else literal and anchored at both ends (M4).
///
/// Patterns are compiled once. Matching never backtracks exponentially: plain patterns use the greedy two-pointer
/// wildcard algorithm (worst case O(text × pattern)), patterns with variables a reachable-position set
/// (O(text × tokens × alternatives)). Characters are Unicode scalars.
struct Glob: Sendable, Hashable {
    /// One element of a pattern.
    enum Token: Sendable, Hashable {
        case scalar(UInt32)
        case any
        case star
        case set(ScalarSet)
        /// Alternatives from a substitution variable; each is a sequence without further groups.
        case group([[Token]])
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
/// token: O(tokens × alternatives × text) time, memory proportional to the text, nothing expanded at compile time
/// (a group shares its alternatives array with every other pattern using the same variable).
private struct PositionSetMatcher: Sendable, Hashable {
    let tokens: [Glob.Token]

    func matches(_ text: [UInt32]) -> Bool {
        var reachable = [Bool](repeating: false, count: text.count + 1)
        reachable[0] = true
        guard Self.advance(&reachable, through: tokens, text) else { return false }
        return reachable[text.count]
    }

    /// Replaces `reachable` by the positions reachable after `tokens`; false when none is left.
    private static func advance(_ reachable: inout [Bool], through tokens: [Glob.Token], _ text: [UInt32]) -> Bool {
        for token in tokens {
            var next = [Bool](repeating: false, count: reachable.count)
            var any = false
            switch token {
            case .star:
                if let first = reachable.firstIndex(of: true) {
                    for position in first..<next.count { next[position] = true }
                    any = true
                }
            case .group(let alternatives):
                for alternative in alternatives {
                    var branch = reachable
                    if advance(&branch, through: alternative, text) {
                        for position in branch.indices where branch[position] {
                            next[position] = true
                            any = true
                        }
                    }
                }
            case .scalar, .any, .set:
                for position in 0..<text.count where reachable[position] && consumes(token, text[position]) {
                    next[position + 1] = true
                    any = true
                }
            }
            guard any else { return false }
            reachable = next
        }
        return true
    }

    private static func consumes(_ token: Glob.Token, _ scalar: UInt32) -> Bool {
        switch token {
        case .scalar(let value): value == scalar
        case .any: true
        case .set(let set): set.contains(scalar)
        case .star, .group: false
        }
    }
}
