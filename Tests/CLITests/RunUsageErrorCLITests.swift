import Foundation
import Testing

/// Usage errors only a run can find (the library's `UsageError`): each is said as the parser's own, with the
/// subcommand's usage line, on stderr, exit 64 and nothing on stdout. (Errors the parser itself finds are tested with their
/// commands.)
struct RunUsageErrorCLITests {
    @Test(arguments: [
        (["rules", "NOPE001"], "rules", "no rule NOPE001"),
        (
            ["appflip", "url", "--link", "https://acme.example/f", "--client-id", "c", "--google-app", "x.y"],
            "appflip url",
            "unknown Google app x.y"
        ),
        (
            ["aasa", "acme.example?mode=sometimes", "--offline", "--aasa-dir", "."],
            "aasa",
            "acme.example?mode=sometimes: the only query allowed is ?mode=developer|managed|developer+managed"
        ),
        (["check", "App.ipa", "--max-members", "0"], "check", "--max-members must be between 1 and 2000000"),
        (["check", "App.ipa", "--timeout", "0"], "check", "--timeout must be more than 0 and at most 600 seconds"),
        (["check", "App.ipa", "--timeout", "-5"], "check", "--timeout must be more than 0 and at most 600 seconds"),
        (
            ["aasa", "example.com", "--resolve", "example.com:443:not-an-ip"],
            "aasa",
            "--resolve 'example.com:443:not-an-ip': 'not-an-ip' is not an IP address"
        ),
    ])
    func saidAsAUsageError(arguments: [String], command: String, message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        // One prefix for every error, and the usage of the subcommand that was run, not the root's.
        #expect(result.stderr.hasPrefix("ipacheck: error: \(message)"), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: ipacheck \(command) "), "\(result.stderr)")
        #expect(result.stderr.contains("See 'ipacheck \(command) --help'"), "\(result.stderr)")
    }
}
