package import Foundation

/// The moment a run judges expiries, signers' validity and dated requirements at.
///
/// Profiles, certificates, App Store Connect's SDK minimum, when a CDN copy refreshes: all at `--now`, else
/// `SOURCE_DATE_EPOCH` (as reproducible builds set it), else the clock. Time is an input, so a report can be
/// reproduced on another day.
package enum JudgementTime {
    /// The time asked for.
    ///
    /// - Parameters:
    ///   - now: `--now`: an ISO 8601 date-time with its offset (`2026-11-26T09:30:00Z`) or a date (`2026-11-26`,
    ///     midnight UTC).
    ///   - environment: Where `SOURCE_DATE_EPOCH` (whole seconds since 1970, UTC) is read when `now` is absent.
    /// - Throws: ``UsageError`` naming the value and the accepted forms.
    package static func resolve(
        _ now: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(UsageError) -> Date {
        if let now {
            if let date = parse(now) { return date }
            throw UsageError(
                "--now '\(now)' is not a date: write an ISO 8601 date-time with its offset (2026-11-26T09:30:00Z) "
                    + "or a date (2026-11-26)"
            )
        }
        if let epoch = environment["SOURCE_DATE_EPOCH"] {
            guard let seconds = Int64(epoch.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
                throw UsageError("SOURCE_DATE_EPOCH '\(epoch)' is not a whole number of seconds since 1970")
            }
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        return Date()
    }

    private static func parse(_ text: String) -> Date? {
        let dateTime = ISO8601DateFormatter()
        dateTime.formatOptions = [.withInternetDateTime]
        if let date = dateTime.date(from: text) { return date }
        dateTime.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = dateTime.date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return day.date(from: text)
    }
}
