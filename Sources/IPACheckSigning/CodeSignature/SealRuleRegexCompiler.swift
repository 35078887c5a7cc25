/// Turns a ``SealRuleRegexSyntax`` into a Thompson-NFA program for ``SealRuleRegex``.
///
/// The program's size is computed and checked against ``SealRuleRegex/maximumProgramSize`` before anything is
/// emitted, so counted repetition (which copies its operand) cannot make compilation itself expensive.
struct SealRuleRegexCompiler {
    private typealias Instruction = SealRuleRegex.Instruction

    private var program: [Instruction] = []

    /// The program for `syntax`, ending with the match instruction.
    ///
    /// - Throws: ``SealRuleRegex/Refusal`` when the program would exceed ``SealRuleRegex/maximumProgramSize``.
    mutating func compile(_ syntax: SealRuleRegexSyntax) throws(SealRuleRegex.Refusal) -> [SealRuleRegex.Instruction] {
        // One more instruction for the final match.
        guard let size = Self.size(of: syntax), size < SealRuleRegex.maximumProgramSize else {
            throw SealRuleRegex.Refusal(
                reason: "the pattern compiles to more than \(SealRuleRegex.maximumProgramSize) instructions"
            )
        }
        program = []
        program.reserveCapacity(size + 1)
        emit(syntax)
        program.append(.match)
        return program
    }

    /// How many instructions `syntax` emits, or `nil` when that exceeds ``SealRuleRegex/maximumProgramSize``.
    ///
    /// Every partial result is at most the cap (4,096) and every count at most
    /// ``SealRuleRegex/maximumRepetitionCount`` (1,000), so no product or sum here can overflow.
    static func size(of syntax: SealRuleRegexSyntax) -> Int? {
        let cap = SealRuleRegex.maximumProgramSize
        let total: Int
        switch syntax {
        case .scalar, .anyButLineTerminator, .scalarClass, .startOfInput, .endOfInput:
            total = 1
        case .sequence(let items):
            var sum = 0
            for item in items {
                guard let itemSize = size(of: item) else { return nil }
                sum += itemSize
                guard sum <= cap else { return nil }
            }
            total = sum
        case .alternation(let branches):
            // A split before every branch but the last, and a jump after it.
            var sum = 0
            for (index, branch) in branches.enumerated() {
                guard let branchSize = size(of: branch) else { return nil }
                sum += branchSize + (index < branches.count - 1 ? 2 : 0)
                guard sum <= cap else { return nil }
            }
            total = sum
        case .repetition(let operand, let minimum, let maximum):
            guard let operandSize = size(of: operand) else { return nil }
            if operandSize == 0 {
                total = 0
            } else if let maximum {
                // `minimum` copies, then `maximum - minimum` optional copies (a split each).
                total = minimum * operandSize + (maximum - minimum) * (operandSize + 1)
            } else if minimum == 0 {
                // e*: split, e, jump back.
                total = operandSize + 2
            } else {
                // e{n,}: n copies, the last followed by a split back to it.
                total = minimum * operandSize + 1
            }
        }
        return total <= cap ? total : nil
    }

    private mutating func emit(_ syntax: SealRuleRegexSyntax) {
        switch syntax {
        case .scalar(let value): program.append(.scalar(value))
        case .anyButLineTerminator: program.append(.anyButLineTerminator)
        case .scalarClass(let index): program.append(.scalarClass(index))
        case .startOfInput: program.append(.startOfInput)
        case .endOfInput: program.append(.endOfInput)
        case .sequence(let items):
            for item in items { emit(item) }
        case .alternation(let branches):
            var jumpsToEnd: [Int] = []
            for (index, branch) in branches.enumerated() {
                guard index < branches.count - 1 else {
                    emit(branch)
                    break
                }
                let split = program.count
                program.append(.split(split + 1, split + 1))
                emit(branch)
                jumpsToEnd.append(program.count)
                program.append(.jump(program.count))
                program[split] = .split(split + 1, program.count)
            }
            for jump in jumpsToEnd { program[jump] = .jump(program.count) }
        case .repetition(let operand, let minimum, let maximum):
            emitRepetition(operand, minimum: minimum, maximum: maximum)
        }
    }

    private mutating func emitRepetition(_ operand: SealRuleRegexSyntax, minimum: Int, maximum: Int?) {
        // An operand that emits nothing (an empty group) repeated is still nothing.
        guard Self.size(of: operand) != 0 else { return }
        if let maximum {
            for _ in 0..<minimum { emit(operand) }
            for _ in minimum..<maximum {
                let split = program.count
                program.append(.split(split + 1, split + 1))
                emit(operand)
                program[split] = .split(split + 1, program.count)
            }
        } else if minimum == 0 {
            let split = program.count
            program.append(.split(split + 1, split + 1))
            emit(operand)
            program.append(.jump(split))
            program[split] = .split(split + 1, program.count)
        } else {
            for _ in 0..<(minimum - 1) { emit(operand) }
            let loopStart = program.count
            emit(operand)
            program.append(.split(loopStart, program.count + 1))
        }
    }
}
