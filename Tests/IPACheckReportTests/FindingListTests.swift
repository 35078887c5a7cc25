import IPACheckReport
import Testing

/// A rule raised many times keeps the first ``FindingList/perRule`` findings and says how many more it saw.
struct FindingListTests {
    static func finding(_ rule: String, _ index: Int, severity: Severity = .warning) -> Finding {
        Finding(rule: rule, severity: severity, message: "problem \(index)", location: "items[\(index)]", fix: "fix it")
    }

    @Test("up to the limit, every finding is listed as it came, and nothing is added")
    func underTheLimit() {
        var list = FindingList()
        let findings = (0..<FindingList.perRule).map { Self.finding("R1", $0) }
        list.append(contentsOf: findings)
        #expect(list.findings == findings)
    }

    @Test("a finding equal to one already listed is the same cause again: neither listed nor counted")
    func repeatsOfAListedFindingAreDropped() {
        var list = FindingList()
        for _ in 0..<1000 { list.append(Self.finding("R1", 0)) }
        #expect(list.findings == [Self.finding("R1", 0)])
    }

    @Test("past the limit, the first ones are listed and one more finding counts the rest, per rule")
    func pastTheLimit() {
        var list = FindingList()
        for index in 0..<1000 { list.append(Self.finding("R1", index, severity: .error)) }
        list.append(Self.finding("R2", 0))
        for index in 0..<(FindingList.perRule + 1) { list.append(Self.finding("R3", index)) }
        let findings = list.findings
        let r1 = findings.filter { $0.rule == "R1" }
        #expect(r1.count == FindingList.perRule + 1)
        #expect(r1.prefix(FindingList.perRule).map(\.message) == (0..<FindingList.perRule).map { "problem \($0)" })
        let summary = r1.last
        #expect(summary?.message == "950 more R1 findings are not listed: only the first 50 findings of a rule are")
        #expect(summary?.severity == .error)
        #expect(summary?.location == nil)
        #expect(summary?.fix == "fix it")
        #expect(summary?.occurrences == 950)
        #expect(findings.filter { $0.rule == "R2" }.count == 1)
        #expect(findings.last?.message == "1 more R3 finding is not listed: only the first 50 findings of a rule are")
    }
}
