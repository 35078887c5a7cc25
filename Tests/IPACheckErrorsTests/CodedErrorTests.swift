import IPACheckErrors
import Testing

/// Two errors are the same error when their kinds are: tests compare kinds, and the sentences stay free to improve.
struct CodedErrorTests {
    struct SampleError: CodedError {
        enum Code: Hashable, Sendable { case truncated, notAZip }
        let code: Code
        let reason: String
        var description: String { reason }
    }

    @Test func errorsOfOneKindAreEqualWhateverTheyAreSaid() {
        let first = SampleError(code: .truncated, reason: "ends after 12 bytes")
        let second = SampleError(code: .truncated, reason: "ends after 40 bytes")
        #expect(first == second)
        #expect(Set([first, second]).count == 1)
    }

    @Test func errorsOfDifferentKindsDiffer() {
        let truncated = SampleError(code: .truncated, reason: "same words")
        let notAZip = SampleError(code: .notAZip, reason: "same words")
        #expect(truncated != notAZip)
        #expect(Set([truncated, notAZip]).count == 2)
    }
}
