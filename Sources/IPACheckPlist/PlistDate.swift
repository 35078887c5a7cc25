package import Foundation

/// Dates as property lists hold them, read and written without losing a year or a second, for any year from 1 to
/// 9999.
///
/// A binary plist stores a date as marker `0x33` and a big-endian float64 of seconds since 2001-01-01T00:00:00Z;
/// an XML plist as `<date>YYYY-MM-DDTHH:MM:SSZ</date>` in UTC. The calendar arithmetic here is the proleptic
/// Gregorian calendar on 64-bit integers, so no date wraps (libplist 2.2's `plist_get_date_val` gives 32-bit
/// seconds: 2069-01-19 and later came back as 1932) and no locale, time zone or ICU setting takes part.
///
/// A date is a float in a binary file, so a hostile one can be NaN, infinite or 1e300: those are refused with a
/// ``PlistError``, as is anything outside the years 1 to 9999 (the years ISO 8601 writes with four digits;
/// `NSDate.distantPast` and `distantFuture`, years 1 and 4001, are inside).
package enum PlistDate {
    /// 0001-01-01T00:00:00Z, the earliest date read, in seconds since 2001-01-01.
    package static let earliest: TimeInterval = -63_113_904_000

    /// 10000-01-01T00:00:00Z, the first moment past the latest date read, in seconds since 2001-01-01.
    package static let end: TimeInterval = 252_423_993_600

    /// Seconds from 1970-01-01 to 2001-01-01.
    private static let unixToReference: Int64 = 978_307_200

    private static let secondsPerDay: Int64 = 86_400

    /// The date `seconds` after 2001-01-01T00:00:00Z, the value of a binary plist's date object.
    ///
    /// - Throws: ``PlistError`` when `seconds` is NaN, infinite or outside the years 1 to 9999.
    package static func date(secondsSinceReferenceDate seconds: Double) throws(PlistError) -> Date {
        guard !seconds.isNaN else { throw PlistError("a date holds NaN (not a number) instead of a time") }
        guard seconds >= earliest, seconds < end else {
            throw PlistError("a date lies \(seconds) seconds from 2001-01-01, outside the years 1 to 9999")
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// The date written as `YYYY-MM-DDTHH:MM:SSZ`, the form of an XML plist's `<date>`, or nil when `text` is not
    /// exactly that (a fraction of a second, `.` and digits before the `Z`, is accepted and kept).
    ///
    /// Years run from 0001 to 9999; months, days (in that month of that year), hours, minutes and seconds must be
    /// in range. Nothing else is accepted: no time-zone offset, no missing part, no spaces.
    package static func date(iso8601 text: some StringProtocol) -> Date? {
        let bytes = Array(text.utf8)
        // "YYYY-MM-DDTHH:MM:SS" then an optional fraction, then "Z".
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"),
            bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
            (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction: TimeInterval = 0
        if bytes.count > 20 {
            let digits = bytes[20..<(bytes.count - 1)]
            guard bytes[19] == UInt8(ascii: "."), !digits.isEmpty, digits.count <= 18,
                digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = TimeInterval("0." + String(decoding: digits, as: UTF8.self))
            else { return nil }
            fraction = value
        }
        // Years 1...9999 keep every product below 2^39, far inside Int64.
        let days = daysFromCivil(year: year, month: month, day: day)
        let unix = days * secondsPerDay + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSinceReferenceDate: TimeInterval(unix - unixToReference) + fraction)
    }

    /// The date as ISO 8601 in UTC to the second (`2117-06-01T00:00:00Z`), as XML plists and our JSON write it;
    /// a fraction of a second is dropped (rounded down, also before 1970).
    ///
    /// Years outside 0000 to 9999 are written with a sign (`+10000-01-01T00:00:00Z`), ISO 8601's expanded form; a
    /// time too far out for 64-bit seconds, or not a number, is written as its number of seconds from 2001.
    package static func iso8601(_ date: Date) -> String {
        let interval = date.timeIntervalSinceReferenceDate
        // 1e15 seconds is 31 million years: the arithmetic below stays far inside Int64.
        guard interval.isFinite, abs(interval) < 1e15 else { return "\(interval) seconds from 2001-01-01" }
        let unix = Int64(interval.rounded(.down)) + unixToReference
        let days = floorDivide(unix, secondsPerDay)
        let secondOfDay = unix - days * secondsPerDay
        let (year, month, day) = civilFromDays(days)
        let yearText: String
        if (0...9999).contains(year) {
            yearText = padded(year, 4)
        } else {
            yearText = (year < 0 ? "-" : "+") + padded(year.magnitude, 4)
        }
        return yearText + "-" + padded(month, 2) + "-" + padded(day, 2) + "T" + padded(secondOfDay / 3600, 2) + ":"
            + padded(secondOfDay % 3600 / 60, 2) + ":" + padded(secondOfDay % 60, 2) + "Z"
    }

    // MARK: - Calendar arithmetic

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the proleptic Gregorian calendar `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `value / divisor` rounded toward negative infinity (`divisor` > 0).
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// The decimal number in `bytes[start..<start + count]`, if those are all digits.
    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for byte in bytes[start..<(start + count)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func padded(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
