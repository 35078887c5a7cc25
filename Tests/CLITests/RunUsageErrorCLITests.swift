import Foundation
import Testing

/// Usage errors only a run can find (the library's `UsageError`): each is said as the parser's own, with the
/// usage line, on stderr, exit 64 and nothing on stdout. (Errors the parser itself finds are tested with their
/// commands.)
struct RunUsageErrorCLITests {
    @Test(arguments: [
        (["rules", "NOPE001"], "no rule NOPE001"),
        (
            ["appflip", "url", "--link", "https://acme.example/f", "--client-id", "c", "--google-app", "x.y"],
            "unknown Google app x.y"
        ),
        (
            ["aasa", "acme.example?mode=sometimes", "--offline", "--aasa-dir", "."],
            "acme.example?mode=sometimes: the only query allowed is ?mode=developer|managed|developer+managed"
        ),
        (["check", "App.ipa", "--max-members", "0"], "--max-members must be between 1 and 500000"),
        (["check", "App.ipa", "--timeout", "0"], "--timeout must be more than 0 and at most 600 seconds"),
    ])
    func saidAsAUsageError(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("Error: \(message)"), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: ipacheck"), "\(result.stderr)")
    }
}
