import ArgumentParser
import Foundation
import IPACheckCommands

/// `--now`: the moment expiries and dated requirements are judged at, shared by every command that judges time.
struct TimeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Judge expiries and dated requirements at this time: an ISO 8601 date-time (2026-11-26T09:30:00Z) or "
                + "date (default: SOURCE_DATE_EPOCH when set, else now).",
            valueName: "date"
        )
    )
    var now: String?

    func validate() throws {
        do { _ = try JudgementTime.resolve(now) } catch { throw ValidationError(error.description) }
    }

    /// The time asked for (checked by ``validate()``).
    var date: Date { (try? JudgementTime.resolve(now)) ?? Date() }
}
