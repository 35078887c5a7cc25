/// The syntax tree of a seal rule, as ``SealRuleRegexParser`` reads it.
indirect enum SealRuleRegexSyntax: Hashable, Sendable {
    /// A literal scalar.
    case scalar(UInt32)
    /// `.`
    case anyButLineTerminator
    /// A bracket expression, by its index in the parser's classes.
    case scalarClass(Int)
    /// `^`
    case startOfInput
    /// `$`
    case endOfInput
    /// Items one after another (an empty sequence matches the empty string).
    case sequence([SealRuleRegexSyntax])
    /// `a|b`
    case alternation([SealRuleRegexSyntax])
    /// `e*`, `e+`, `e?`, `e{n,m}`; `maximum` is `nil` when unbounded.
    case repetition(SealRuleRegexSyntax, minimum: Int, maximum: Int?)

    /// Whether every match must begin at the start of the path: the pattern begins with `^` outside any
    /// alternation.
    var isAnchoredAtStart: Bool {
        switch self {
        case .startOfInput: true
        case .sequence(let items): items.first?.isAnchoredAtStart ?? false
        default: false
        }
    }
}

/// Reads a seal rule into a ``SealRuleRegexSyntax``, refusing anything outside the supported subset of ICU syntax
/// (see ``SealRuleRegex``) rather than guessing what it means.
struct SealRuleRegexParser {
    private typealias Refusal = SealRuleRegex.Refusal

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var groupDepth = 0
    /// The bracket expressions read so far; ``SealRuleRegexSyntax/scalarClass(_:)`` indexes them.
    private(set) var classes: [SealRuleRegex.ScalarClass] = []

    /// Prepares to parse `pattern` (whose length the caller has checked).
    init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    /// Parses the whole pattern.
    mutating func parse() throws(SealRuleRegex.Refusal) -> SealRuleRegexSyntax {
        let syntax = try parseAlternation()
        guard position == scalars.count else {
            throw Refusal(reason: "\")\" at offset \(position) closes no group")
        }
        return syntax
    }

    private var next: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private var afterNext: Unicode.Scalar? { position + 1 < scalars.count ? scalars[position + 1] : nil }

    private mutating func parseAlternation() throws(Refusal) -> SealRuleRegexSyntax {
        var branches = [try parseSequence()]
        while next == "|" {
            position += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseSequence() throws(Refusal) -> SealRuleRegexSyntax {
        var items: [SealRuleRegexSyntax] = []
        while let scalar = next, scalar != "|", scalar != ")" {
            let atom = try parseAtom()
            items.append(try parseQuantifier(on: atom))
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func parseAtom() throws(Refusal) -> SealRuleRegexSyntax {
        guard let scalar = next else { throw Refusal(reason: "the pattern ends where an item was expected") }
        let offset = position
        position += 1
        switch scalar {
        case "(": return try parseGroup(openedAt: offset)
        case "[": return try parseClass(openedAt: offset)
        case ".": return .anyButLineTerminator
        case "^": return .startOfInput
        case "$": return .endOfInput
        case "\\": return .scalar(try parseEscape(at: offset).value)
        case "*", "+", "?", "{":
            throw Refusal(reason: "\"\(scalar)\" at offset \(offset) has nothing to repeat")
        case "}":
            throw Refusal(reason: "an unescaped \"}\" (offset \(offset)) is not supported")
        default:
            // Including "]", which ICU reads as a literal outside a class.
            return .scalar(scalar.value)
        }
    }

    private mutating func parseGroup(openedAt offset: Int) throws(Refusal) -> SealRuleRegexSyntax {
        if next == "?" {
            guard afterNext == ":" else {
                throw Refusal(
                    reason: "\"(?\" at offset \(offset) (lookaround, inline flags, named or atomic groups) is not "
                        + "supported; only (?: ) is"
                )
            }
            position += 2
        }
        guard groupDepth < SealRuleRegex.maximumGroupDepth else {
            throw Refusal(reason: "groups are nested deeper than \(SealRuleRegex.maximumGroupDepth) levels")
        }
        groupDepth += 1
        let body = try parseAlternation()
        groupDepth -= 1
        guard next == ")" else { throw Refusal(reason: "the group opened at offset \(offset) is not closed") }
        position += 1
        return body
    }

    private mutating func parseQuantifier(on atom: SealRuleRegexSyntax) throws(Refusal) -> SealRuleRegexSyntax {
        guard let scalar = next, "*+?{".unicodeScalars.contains(scalar) else { return atom }
        let offset = position
        if atom == .startOfInput || atom == .endOfInput {
            throw Refusal(reason: "a quantifier on an anchor (offset \(offset)) is not supported")
        }
        position += 1
        let repetition: SealRuleRegexSyntax
        switch scalar {
        case "*": repetition = .repetition(atom, minimum: 0, maximum: nil)
        case "+": repetition = .repetition(atom, minimum: 1, maximum: nil)
        case "?": repetition = .repetition(atom, minimum: 0, maximum: 1)
        default:
            let (minimum, maximum) = try parseInterval(openedAt: offset)
            repetition = .repetition(atom, minimum: minimum, maximum: maximum)
        }
        // A lazy quantifier finds the same set of matches; a search only asks whether there is one.
        if next == "?" { position += 1 }
        if let scalar = next, "*+?{".unicodeScalars.contains(scalar) {
            throw Refusal(
                reason: "\"\(scalar)\" at offset \(position) repeats a quantifier (possessive or stacked quantifiers "
                    + "are not supported)"
            )
        }
        return repetition
    }

    /// `{n}`, `{n,}` or `{n,m}`, after the `{`.
    private mutating func parseInterval(openedAt offset: Int) throws(Refusal) -> (Int, Int?) {
        let minimum = try parseCount(openedAt: offset)
        var maximum: Int? = minimum
        if next == "," {
            position += 1
            maximum = next == "}" ? nil : try parseCount(openedAt: offset)
        }
        guard next == "}" else { throw Refusal(reason: "the interval at offset \(offset) is not {n}, {n,} or {n,m}") }
        position += 1
        if let maximum, maximum < minimum {
            throw Refusal(reason: "the interval at offset \(offset) has its maximum below its minimum")
        }
        return (minimum, maximum)
    }

    private mutating func parseCount(openedAt offset: Int) throws(Refusal) -> Int {
        var value = 0
        var digits = 0
        while let scalar = next, ("0"..."9").contains(scalar) {
            // value ≤ maximumRepetitionCount here, so value * 10 + 9 cannot overflow.
            value = value * 10 + Int(scalar.value - 0x30)
            guard value <= SealRuleRegex.maximumRepetitionCount else {
                throw Refusal(
                    reason: "the interval at offset \(offset) counts beyond \(SealRuleRegex.maximumRepetitionCount)"
                )
            }
            digits += 1
            position += 1
        }
        guard digits > 0 else { throw Refusal(reason: "the interval at offset \(offset) is not {n}, {n,} or {n,m}") }
        return value
    }

    /// The literal an escape stands for, after the `\`: only escaped ASCII punctuation (and space) is supported.
    private mutating func parseEscape(at offset: Int) throws(Refusal) -> Unicode.Scalar {
        guard let scalar = next else { throw Refusal(reason: "the pattern ends with a lone \"\\\"") }
        guard Self.isEscapablePunctuation(scalar) else {
            throw Refusal(reason: "the escape \"\\\(scalar)\" at offset \(offset) is not supported")
        }
        position += 1
        return scalar
    }

    private static func isEscapablePunctuation(_ scalar: Unicode.Scalar) -> Bool {
        guard (0x20...0x7E).contains(scalar.value) else { return false }
        return !(("0"..."9").contains(scalar) || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar))
    }

    /// A bracket expression, after the `[`: literals, escaped punctuation and ranges, optionally negated.
    private mutating func parseClass(openedAt offset: Int) throws(Refusal) -> SealRuleRegexSyntax {
        let isNegated = next == "^"
        if isNegated { position += 1 }
        if next == "]" || next == ":" {
            throw Refusal(
                reason: "the class at offset \(offset) starts with \"\(next ?? "]")\", which is not supported"
            )
        }
        var ranges: [ClosedRange<UInt32>] = []
        while true {
            guard let scalar = next else { throw Refusal(reason: "the class opened at offset \(offset) is not closed") }
            if scalar == "]" {
                position += 1
                break
            }
            // A "-" is literal first or last; between two items it makes a range (below).
            if scalar == "-", ranges.isEmpty || afterNext == "]" {
                position += 1
                ranges.append(0x2D...0x2D)
                continue
            }
            let lower = try parseClassItem(inClassAt: offset)
            guard next == "-", afterNext != "]" else {
                ranges.append(lower...lower)
                continue
            }
            position += 1
            let upper = try parseClassItem(inClassAt: offset)
            guard lower <= upper else {
                throw Refusal(reason: "the class at offset \(offset) has a range whose end is before its start")
            }
            ranges.append(lower...upper)
        }
        classes.append(SealRuleRegex.ScalarClass(listing: ranges, isNegated: isNegated))
        return .scalarClass(classes.count - 1)
    }

    /// One scalar of a class: a literal or escaped punctuation; class syntax ICU has and this engine does not
    /// (nested classes, `[:name:]`, `&&`, `--`, `{string}`) is refused.
    private mutating func parseClassItem(inClassAt offset: Int) throws(Refusal) -> UInt32 {
        guard let scalar = next else { throw Refusal(reason: "the class opened at offset \(offset) is not closed") }
        switch scalar {
        case "\\":
            position += 1
            return try parseEscape(at: position - 1).value
        case "[", "{", "}", "-":
            throw Refusal(reason: "\"\(scalar)\" inside the class at offset \(offset) is not supported unescaped")
        case "&" where afterNext == "&":
            throw Refusal(reason: "class intersection (&&) at offset \(position) is not supported")
        default:
            position += 1
            return scalar.value
        }
    }
}
