/// A regular expression from a resource seal's rules (a `rules2` or `rules` key), matched without backtracking.
///
/// Both the patterns and the paths they are tried on come from the ipa. A backtracking engine (NSRegularExpression)
/// takes exponential time on a pattern such as `^(a+)+$` against `aaaa…ab`, so a hostile seal could stall a check
/// for minutes. This engine compiles the pattern to a Thompson NFA and runs all its threads in lockstep (a Pike VM
/// without captures): each instruction is visited at most once per position of the path, so one search costs at
/// most `2 × programSize × (path length + 1)` steps, and a caller-supplied budget bounds the total.
///
/// It reads the syntax codesign's rules use, with ICU's meaning (NSRegularExpression's, which it replaces):
/// literals and escaped punctuation (`\.`, `\/`), `.` (anything but a line terminator), `^` and `$` (no multiline
/// mode; `$` also before a final line terminator), classes (`[a-z]`, `[^/]`), groups `( )` and `(?: )`, alternation,
/// `*` `+` `?` (and their lazy forms: a search only asks whether some match exists) and `{n}` `{n,}` `{n,m}`.
/// Anything else — letter escapes (`\d`, `\b`, backreferences), lookaround, inline flags, nested or POSIX classes,
/// possessive quantifiers — is refused with a reason, never approximated.
struct SealRuleRegex: Sendable {
    /// The longest pattern accepted, in UTF-8 bytes (Apple's standard rules are under 100).
    static let maximumPatternLength = 1_024
    /// The largest count `{n,m}` may use.
    static let maximumRepetitionCount = 1_000
    /// The deepest nesting of groups accepted.
    static let maximumGroupDepth = 32
    /// The most instructions one compiled pattern may have (counted repetition copies its operand).
    static let maximumProgramSize = 4_096

    /// Why a pattern was refused: invalid, unsupported or over a cap, in words.
    struct Refusal: Error, Hashable, Sendable {
        /// What is wrong, in words (`the escape "\d" at offset 0 is not supported`).
        let reason: String
    }

    /// The result of one search.
    enum Outcome: Equatable, Sendable {
        /// Some substring of the path matches.
        case match
        /// No substring matches.
        case noMatch
        /// The step budget ran out before the answer was known.
        case outOfSteps
    }

    /// One instruction of the compiled program.
    enum Instruction: Hashable, Sendable {
        /// Consumes this scalar.
        case scalar(UInt32)
        /// Consumes any scalar but a line terminator (`.`).
        case anyButLineTerminator
        /// Consumes a scalar of `classes[index]`.
        case scalarClass(Int)
        /// Continues at both targets.
        case split(Int, Int)
        /// Continues at the target.
        case jump(Int)
        /// Holds at the start of the path (`^`).
        case startOfInput
        /// Holds at the end of the path, or before a final line terminator (`$`).
        case endOfInput
        /// The pattern matched.
        case match
    }

    /// The compiled program; execution starts at index 0.
    let program: [Instruction]
    /// The character classes the program refers to, shared by every copy of a repeated class.
    let classes: [ScalarClass]
    /// Whether every match must start at the start of the path (the pattern begins with `^`), so a search can stop
    /// as soon as no thread is left.
    let isAnchoredAtStart: Bool

    /// How many instructions the compiled pattern has.
    var programSize: Int { program.count }

    /// Compiles `pattern`.
    ///
    /// - Throws: ``Refusal`` when the pattern is invalid, uses syntax this engine does not support, or exceeds a cap.
    init(_ pattern: String) throws(Refusal) {
        // NSRegularExpression refused an empty pattern, so a seal rule never was one.
        guard !pattern.isEmpty else { throw Refusal(reason: "the pattern is empty") }
        guard pattern.utf8.count <= Self.maximumPatternLength else {
            throw Refusal(reason: "the pattern is longer than \(Self.maximumPatternLength) bytes")
        }
        var parser = SealRuleRegexParser(pattern)
        let syntax = try parser.parse()
        var compiler = SealRuleRegexCompiler()
        program = try compiler.compile(syntax)
        classes = parser.classes
        isAnchoredAtStart = syntax.isAnchoredAtStart
    }

    /// Searches `path` for a match anywhere (NSRegularExpression's `firstMatch`), spending at most `budget` steps.
    ///
    /// - Parameters:
    ///   - path: The path's Unicode scalars.
    ///   - budget: Steps left; decreased by the steps spent.
    func search(_ path: [Unicode.Scalar], budget: inout Int) -> Outcome {
        var machine = Machine(regex: self, path: path, budget: budget)
        let outcome = machine.run()
        budget = machine.budget
        return outcome
    }
}

extension SealRuleRegex {
    /// A set of scalars written as a bracket expression (`[a-z_]`, `[^/]`).
    struct ScalarClass: Hashable, Sendable {
        /// The scalars listed, as sorted, disjoint, non-adjacent ranges, so a lookup is a binary search.
        let ranges: [ClosedRange<UInt32>]
        /// Whether the class is negated (`[^…]`).
        let isNegated: Bool

        /// A class of the scalars in `listed` (in any order, overlapping or not), or of all others when negated.
        init(listing listed: [ClosedRange<UInt32>], isNegated: Bool) {
            var merged: [ClosedRange<UInt32>] = []
            for range in listed.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                // Scalars are at most 0x10FFFF, so `upperBound + 1` cannot overflow.
                if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                    merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
                } else {
                    merged.append(range)
                }
            }
            ranges = merged
            self.isNegated = isNegated
        }

        /// Whether `scalar` belongs to the class.
        func contains(_ scalar: UInt32) -> Bool {
            var low = 0
            var high = ranges.count
            while low < high {
                let middle = low + (high - low) / 2
                if ranges[middle].upperBound < scalar {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            let listed = low < ranges.count && ranges[low].contains(scalar)
            return listed != isNegated
        }
    }
}

/// The Pike VM: the set of live instructions at each position of the path, each kept once.
private struct Machine {
    let regex: SealRuleRegex
    let path: [Unicode.Scalar]
    var budget: Int
    /// The position at which each instruction was last added to a thread list, so it is added once per position.
    private var addedAt: [Int]
    private var pending: [Int] = []

    init(regex: SealRuleRegex, path: [Unicode.Scalar], budget: Int) {
        self.regex = regex
        self.path = path
        self.budget = budget
        addedAt = Array(repeating: -1, count: regex.program.count)
        pending.reserveCapacity(regex.program.count)
    }

    mutating func run() -> SealRuleRegex.Outcome {
        var current: [Int] = []
        var next: [Int] = []
        current.reserveCapacity(regex.program.count)
        next.reserveCapacity(regex.program.count)
        var position = 0
        while true {
            if position == 0 || !regex.isAnchoredAtStart {
                switch addThreads(from: 0, at: position, into: &current) {
                case .match: return .match
                case .outOfSteps: return .outOfSteps
                case .noMatch: break
                }
            }
            if current.isEmpty, regex.isAnchoredAtStart { return .noMatch }
            guard position < path.count else { return .noMatch }
            let scalar = path[position].value
            next.removeAll(keepingCapacity: true)
            for index in current {
                guard spendStep() else { return .outOfSteps }
                guard consumes(regex.program[index], scalar) else { continue }
                switch addThreads(from: index + 1, at: position + 1, into: &next) {
                case .match: return .match
                case .outOfSteps: return .outOfSteps
                case .noMatch: break
                }
            }
            swap(&current, &next)
            position += 1
        }
    }

    /// Follows the non-consuming instructions reachable from `start` at `position`, adding the consuming ones to
    /// `list`; `.match` as soon as the match instruction is reached.
    private mutating func addThreads(
        from start: Int,
        at position: Int,
        into list: inout [Int]
    )
        -> SealRuleRegex.Outcome
    {
        pending.removeAll(keepingCapacity: true)
        pending.append(start)
        while let index = pending.popLast() {
            guard index < regex.program.count, addedAt[index] != position else { continue }
            addedAt[index] = position
            guard spendStep() else { return .outOfSteps }
            switch regex.program[index] {
            case .scalar, .anyButLineTerminator, .scalarClass:
                list.append(index)
            case .split(let first, let second):
                pending.append(second)
                pending.append(first)
            case .jump(let target):
                pending.append(target)
            case .startOfInput:
                if position == 0 { pending.append(index + 1) }
            case .endOfInput:
                if isEnd(position) { pending.append(index + 1) }
            case .match:
                return .match
            }
        }
        return .noMatch
    }

    private mutating func spendStep() -> Bool {
        guard budget > 0 else { return false }
        budget -= 1
        return true
    }

    private func consumes(_ instruction: SealRuleRegex.Instruction, _ scalar: UInt32) -> Bool {
        switch instruction {
        case .scalar(let value): value == scalar
        case .anyButLineTerminator: !Self.isLineTerminator(scalar)
        case .scalarClass(let index): index < regex.classes.count && regex.classes[index].contains(scalar)
        case .split, .jump, .startOfInput, .endOfInput, .match: false
        }
    }

    /// ICU's `$` without multiline mode: the end of the path, or just before a line terminator (or CR LF) that
    /// ends it, but not between the CR and the LF.
    private func isEnd(_ position: Int) -> Bool {
        let remaining = path.count - position
        if remaining == 0 { return true }
        let scalar = path[position].value
        if remaining == 1 {
            let splitsCRLF = scalar == 0x0A && position > 0 && path[position - 1].value == 0x0D
            return Self.isLineTerminator(scalar) && !splitsCRLF
        }
        return remaining == 2 && scalar == 0x0D && path[position + 1].value == 0x0A
    }

    /// ICU's line terminators: LF, VT, FF, CR, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR.
    private static func isLineTerminator(_ scalar: UInt32) -> Bool {
        (0x0A...0x0D).contains(scalar) || scalar == 0x85 || scalar == 0x2028 || scalar == 0x2029
    }
}
