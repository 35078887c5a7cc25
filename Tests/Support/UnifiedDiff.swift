/// A unified diff of two texts, line by line, as `diff -u` prints its hunks: what a failing golden comparison shows,
/// so the change can be read without rerunning anything.
package enum UnifiedDiff {
    /// The hunks turning `expected` into `actual`, with `context` unchanged lines around each change.
    ///
    /// Empty when the texts are equal. Texts too long to compare line by line in a test's time (more than `maximumCells` pairs of
    /// lines) are summed up by their first differing line instead.
    package static func hunks(
        from expected: String,
        to actual: String,
        context: Int = 3,
        maximumCells: Int = 16_000_000
    ) -> String {
        let old = lines(expected)
        let new = lines(actual)
        guard old != new else { return expected == actual ? "" : "(they differ only in their final line feed)" }
        guard old.count.multipliedReportingOverflow(by: new.count).partialValue <= maximumCells else {
            let index = zip(old, new).prefix { $0 == $1 }.count
            return "line \(index + 1) differs (texts of \(old.count) and \(new.count) lines)"
        }
        return format(edits(old, new), context: context)
    }

    /// The lines of `text`; a final line feed ends the last line rather than starting an empty one, as `diff` reads.
    private static func lines(_ text: String) -> [Substring] {
        guard !text.isEmpty else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if text.hasSuffix("\n") { lines.removeLast() }
        return lines
    }

    fileprivate enum Edit: Equatable {
        case same(Substring)
        case removed(Substring)
        case added(Substring)
    }

    /// A shortest edit script by longest common subsequence (removals before additions at each change).
    private static func edits(_ old: [Substring], _ new: [Substring]) -> [Edit] {
        let columns = new.count + 1
        var common = [Int](repeating: 0, count: (old.count + 1) * columns)
        for row in stride(from: old.count - 1, through: 0, by: -1) {
            for column in stride(from: new.count - 1, through: 0, by: -1) {
                common[row * columns + column] =
                    old[row] == new[column]
                    ? common[(row + 1) * columns + column + 1] + 1
                    : max(common[(row + 1) * columns + column], common[row * columns + column + 1])
            }
        }
        var script: [Edit] = []
        var row = 0
        var column = 0
        while row < old.count || column < new.count {
            if row < old.count, column < new.count, old[row] == new[column] {
                script.append(.same(old[row]))
                row += 1
                column += 1
            } else if column == new.count
                || (row < old.count && common[(row + 1) * columns + column] >= common[row * columns + column + 1])
            {
                script.append(.removed(old[row]))
                row += 1
            } else {
                script.append(.added(new[column]))
                column += 1
            }
        }
        return script
    }

    /// The script as hunks: `@@ -start,count +start,count @@` and its lines, changes with their context.
    private static func format(_ script: [Edit], context: Int) -> String {
        let changed = script.indices.filter { !script[$0].isSame }
        var hunks: [ClosedRange<Int>] = []
        for index in changed {
            let range = max(0, index - context)...min(script.count - 1, index + context)
            if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                hunks.append(range)
            }
        }
        var output = ""
        for hunk in hunks {
            let before = script[..<hunk.lowerBound]
            let oldStart = before.filter { !$0.isAdded }.count
            let newStart = before.filter { !$0.isRemoved }.count
            let body = script[hunk]
            let oldCount = body.filter { !$0.isAdded }.count
            let newCount = body.filter { !$0.isRemoved }.count
            output += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for edit in body {
                switch edit {
                case .same(let line): output += " \(line)\n"
                case .removed(let line): output += "-\(line)\n"
                case .added(let line): output += "+\(line)\n"
                }
            }
        }
        return output
    }

    /// `start,count` as `diff -u` writes it: 1-based, `start` alone for one line, the line before for none.
    private static func range(_ start: Int, _ count: Int) -> String {
        switch count {
        case 0: "\(start),0"
        case 1: "\(start + 1)"
        default: "\(start + 1),\(count)"
        }
    }
}

extension UnifiedDiff.Edit {
    fileprivate var isSame: Bool {
        if case .same = self { return true }
        return false
    }

    fileprivate var isAdded: Bool {
        if case .added = self { return true }
        return false
    }

    fileprivate var isRemoved: Bool {
        if case .removed = self { return true }
        return false
    }
}
