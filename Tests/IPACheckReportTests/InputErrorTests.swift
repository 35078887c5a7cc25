import IPACheckReport
import Testing

/// An input error is the one line the CLI prints, whatever the input names: a zip member may be called anything,
/// a line feed included (zip2's deflate64_issue_25.zip has one in a member name that a truncation message quotes).
struct InputErrorTests {
    @Test func aLineFeedFromTheInputStaysOnTheLine() {
        let error = InputError("truncated", file: "App.ipa", "it ends inside member a\nb, after 3 bytes")
        #expect(error.message == "it ends inside member a\\nb, after 3 bytes")
        #expect(!error.description.contains("\n"))
        #expect(InputError("x", file: "App.ipa", "plain words").message == "plain words")
    }
}
