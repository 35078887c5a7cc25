import ArgumentParser
import IPACheckReport
import IPACheckSites

/// The contract's exit codes (see the README): 0 pass, 1 problems, 2 unreadable input, 64 usage.
enum ExitStatus {
    /// Ran to the end and found problems at or above the threshold.
    static let problems = ExitCode(1)
    /// An input could not be read or is not what it claims.
    static let badInput = ExitCode(2)

    /// Runs `body`, turning an unreadable input into one stderr line naming the file, and no network at all into
    /// one line naming the network; both exit 2.
    static func reportingInputErrors<T>(_ body: () async throws -> T) async throws -> T {
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
