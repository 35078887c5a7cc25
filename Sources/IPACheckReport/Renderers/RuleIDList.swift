/// Rule IDs written compactly for people: runs of consecutive numbers with the same prefix become a range
/// (`CDN001–CDN012, SERVE060`).
enum RuleIDList {
    /// The IDs, sorted as given, with consecutive runs of three or more joined by an en dash.
    static func compact(_ ids: [String]) -> String {
        var parts: [String] = []
        var run: [(id: String, prefix: Substring, number: Int)] = []
        func flush() {
            guard let first = run.first, let last = run.last else { return }
            if run.count >= 3 {
                parts.append(first.id + "–" + last.id)
            } else {
                parts += run.map(\.id)
            }
            run = []
        }
        for id in ids {
            let prefix = id.prefix { !$0.isNumber }
            let digits = id.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let number = Int(digits) else {
                flush()
                parts.append(id)
                continue
            }
            if let last = run.last, last.prefix == prefix, last.number + 1 == number {
                run.append((id, prefix, number))
            } else {
                flush()
                run = [(id, prefix, number)]
            }
        }
        flush()
        return parts.joined(separator: ", ")
    }
}
