import IPACheckReport
import IPACheckSites

/// How a run ends when it does not end with exit 0.
///
/// The README's exit codes (1 problems, 2 an input could not be read); the executable turns it into the
/// process's exit status. The answer, if any, is already out.
package struct CommandExit: Error, Sendable, Equatable {
    /// The exit status.
    package let code: Int32

    /// Ran to the end and found problems at or above the threshold.
    package static let problems = CommandExit(code: 1)
    /// An input could not be read or is not what it claims.
    package static let badInput = CommandExit(code: 2)

    /// Runs `body`, turning an unreadable input into one stderr line naming the file, and no network at all into
    /// one line naming the network; both exit 2.
    package static func reportingInputErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as InputError {
            Console.diagnose("ipacheck: error: \(error.description)")
            throw badInput
        } catch let error as NetworkUnavailable {
            Console.diagnose("ipacheck: error: \(error)")
            throw badInput
        }
    }
}

/// A usage error only a run can find (an unknown rule ID, an unknown Google app, an entitlements file that names
/// no application identifier): the executable says it as it says the parser's own, and exits 64.
package struct UsageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and what to give instead.
    package let description: String

    /// A usage error saying `description`.
    package init(_ description: String) {
        self.description = description
    }

    /// An entitlements file whose application identifier is missing or an Xcode build setting, checked without
    /// `--app-id`: every command that judges it says this.
    static func missingAppID(_ file: String) -> UsageError {
        UsageError("\(file) names no application-identifier: give it with --app-id TEAMID.BUNDLE")
    }
}
