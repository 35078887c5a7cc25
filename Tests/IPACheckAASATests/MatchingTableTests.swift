import IPACheckAASA
import Testing

/// Every case of the table, M1–M25.
let matchCases: [MatchCase] = pathAndQueryCases + optionAndDocumentCases

@Suite("AASA matching, M1–M25")
struct MatchingTableTests {
    @Test(arguments: matchCases)
    func verdict(_ testCase: MatchCase) throws {
        let document = try AASADocument.parse(Array(testCase.document.utf8))
        let result = document.matcher(for: testCase.appID, domain: testCase.domain).evaluate(testCase.url)
        #expect(result.verdict == testCase.verdict, "\(result.why)")
        if let rule = testCase.rule {
            #expect(result.rule == rule)
        }
        #expect((result.rule == nil) == (result.verdict == .none))
    }

    @Test("every M row has at least one case")
    func coverage() {
        for row in 1...25 {
            #expect(matchCases.contains { $0.name.hasPrefix("M\(row) ") }, "no case for M\(row)")
        }
    }
}
