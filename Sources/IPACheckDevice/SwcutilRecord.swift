package import Foundation

/// What a device's `swcutil show` printed (a sysdiagnose's `swcutil_show.txt`, or pasted macOS output): facts read
/// from the text, never judged here.
///
/// The format is described in docs/device.md (sections, keys, dates, the vocabularies); what each state
/// means for a link is decided above this module.
package struct SwcutilRecord: Sendable, Equatable {
    /// The `key: value` lines before the first section (`PID`, `Storage`, `Developer Mode`, …), in order.
    package var preamble: [Field] = []
    /// The DATABASE section's entries, in order.
    package var entries: [SwcutilEntry] = []
    /// The SETTINGS section's records (verbose output only).
    package var settings: [SwcutilSetting] = []
    /// The NETWORK section's lines, when it lists any.
    package var network: [String] = []
    /// Whether a DATABASE banner was seen (pasted output may be entries alone).
    package var hasDatabaseBanner = false
    /// Lines that were not understood, with where they are: kept so that nothing is lost silently.
    package var unreadLines: [Line] = []

    /// One `key: value` line.
    package struct Field: Sendable, Equatable {
        package let key: String
        package let value: String
        /// The line's number in the text, from 1.
        package let line: Int
    }

    /// A line of the text and its number, from 1.
    package struct Line: Sendable, Equatable {
        package let number: Int
        package let text: String
    }

    /// Whether the output was the verbose one (sysdiagnose's): entries carry `App Version`, or a SETTINGS section
    /// was printed.
    package var isVerbose: Bool {
        !settings.isEmpty || entries.contains { $0.appVersion != nil }
    }

    /// The preamble's `Developer Mode` value read as a yes or no, when it is there.
    package var developerMode: Bool? {
        guard let value = preamble.last(where: { $0.key == "Developer Mode" })?.value.lowercased() else {
            return nil
        }
        if ["yes", "true", "1", "enabled", "on"].contains(value) { return true }
        if ["no", "false", "0", "disabled", "off"].contains(value) { return false }
        return nil
    }
}

/// One DATABASE entry: an app × service × domain the device holds.
package struct SwcutilEntry: Sendable, Equatable {
    /// `applinks`, `webcredentials`, `activitycontinuation`, `appclips`, or another service the device names.
    package var service: String = ""
    /// `TEAMID.bundle.id` (system apps may have no prefix).
    package var appID: String = ""
    /// The bundle version the device holds (verbose output only).
    package var appVersion: String?
    /// The domain as the device wrote it, with its parts.
    package var domain = SwcutilDomain(raw: "")
    /// Whether the user chose the app or the browser for this domain.
    package var userApproval: SwcutilApproval?
    /// Whether the site's file (or the system) approved this app for this service.
    package var siteApproval: SwcutilApproval?
    /// The flags, in order (`developer`, `managed`, `updating`, …); empty when the line is empty or absent.
    package var flags: [String] = []
    /// When the device last asked for the file, and when it will ask again; absent before the first check.
    package var lastChecked: SwcutilDate?
    package var nextCheck: SwcutilDate?
    /// The last check's error, when it failed.
    package var error: SwcutilError?
    /// How many checks failed in a row (absent when none).
    package var retries: Int?
    /// The stored patterns (verbose output, after a successful download), as printed.
    package var patterns: String?
    /// Keys this reader does not know, kept as printed (new fields survive OS updates).
    package var otherFields: [SwcutilRecord.Field] = []
    /// The entry's first and last line in the text.
    package var lines: ClosedRange<Int> = 1...1
    /// The keys swcutil always prints (docs/device.md, "Format") that the entry lacks: a trimmed paste (`grep -A5`)
    /// leaves them out, and what is absent is unknown, never a default.
    package var missingKeys: [String] {
        [
            ("Service", service.isEmpty), ("App ID", appID.isEmpty), ("Domain", domain.raw.isEmpty),
            ("User Approval", userApproval == nil), ("Site/Fmwk Approval", siteApproval == nil),
        ]
        .filter(\.1).map(\.0)
    }

    /// Each key's line in the text (the last, for a key written twice): the evidence a diagnosis rests on.
    package var fieldLines: [String: Int] = [:]

    /// The lines of these keys that the entry has, in order; the whole entry's first line when it has none.
    package func lines(of keys: [String]) -> [Int] {
        let found = keys.compactMap { fieldLines[$0] }.sorted()
        return found.isEmpty ? [lines.lowerBound] : found
    }
}

/// An entry's domain: `host` or `*.host`, an optional `:port`, an optional `?mode=` suffix.
package struct SwcutilDomain: Sendable, Equatable {
    /// As the device printed it.
    package let raw: String
    /// The host without `*.`, port or mode, lower-cased.
    package let host: String
    /// Whether the entry was `*.host`.
    package let isWildcard: Bool
    /// The port, when the domain named one (iOS never uses such an entry: TN3155).
    package let port: String?
    /// The modes of the `?mode=` suffix (`developer`, `managed`), in order.
    package let modes: [String]

    package init(raw: String) {
        self.raw = raw
        var rest = Substring(raw)
        var modes: [String] = []
        if let query = rest.range(of: "?mode=") {
            modes = rest[query.upperBound...].split(separator: "+").map(String.init)
            rest = rest[..<query.lowerBound]
        }
        isWildcard = rest.hasPrefix("*.")
        if isWildcard { rest = rest.dropFirst(2) }
        if let colon = rest.lastIndex(of: ":"), !rest[rest.index(after: colon)...].isEmpty,
            rest[rest.index(after: colon)...].allSatisfy(\.isASCII),
            rest[rest.index(after: colon)...].allSatisfy(\.isNumber)
        {
            port = String(rest[rest.index(after: colon)...])
            rest = rest[..<colon]
        } else {
            port = nil
        }
        host = rest.lowercased()
        self.modes = modes
    }
}

/// An approval state: the three words swcutil prints, or the number it prints for any other state.
package enum SwcutilApproval: Sendable, Equatable {
    case unspecified
    case approved
    case denied
    /// A state outside the known words, as printed.
    case other(String)

    package init(_ text: String) {
        switch text.lowercased() {
        case "unspecified", "0": self = .unspecified
        case "approved", "1": self = .approved
        case "denied", "2": self = .denied
        default: self = .other(text)
        }
    }

    /// The word for JSON and text.
    package var word: String {
        switch self {
        case .unspecified: "unspecified"
        case .approved: "approved"
        case .denied: "denied"
        case .other(let text): text
        }
    }
}

/// A date as the device printed it, and the instant when it could be read.
package struct SwcutilDate: Sendable, Equatable {
    /// As printed.
    package let raw: String
    /// The instant, when the text is one of the forms swcutil prints; `nil` otherwise (the raw text is kept).
    package let date: Date?

    package init(raw: String) {
        self.raw = raw
        date = Self.parse(raw)
    }

    /// `YYYY-MM-DD HH:MM:SS +ZZZZ` (24-hour), or the 12-hour `YYYY-MM-DD H:MM:SS AM|PM +ZZZZ` of iOS 18.2 and later.
    private static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 3 || parts.count == 4 else { return nil }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard day.count == 3, time.count == 3,
            let year = number(day[0], digits: 4...4), let month = number(day[1], digits: 2...2),
            let dayOfMonth = number(day[2], digits: 2...2), var hour = number(time[0], digits: 1...2),
            let minute = number(time[1], digits: 2...2), let second = number(time[2], digits: 2...2),
            (1...12).contains(month), (1...31).contains(dayOfMonth), minute < 60, second < 61
        else { return nil }
        if parts.count == 4 {
            guard (1...12).contains(hour) else { return nil }
            switch parts[2].uppercased() {
            case "AM": hour = hour == 12 ? 0 : hour
            case "PM": hour = hour == 12 ? 12 : hour + 12
            default: return nil
            }
        }
        guard hour < 24, let offset = zoneOffset(parts[parts.count - 1]) else { return nil }
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = dayOfMonth
        components.hour = hour
        components.minute = minute
        components.second = second
        components.timeZone = TimeZone(secondsFromGMT: 0)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        guard let local = calendar.date(from: components),
            calendar.component(.day, from: local) == dayOfMonth
        else { return nil }
        return local.addingTimeInterval(TimeInterval(-offset))
    }

    private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// `+0000`, `-0530`: seconds east of UTC.
    private static func zoneOffset(_ text: Substring) -> Int? {
        guard text.count == 5, let sign = text.first, sign == "+" || sign == "-",
            let hours = number(text.dropFirst().prefix(2), digits: 2...2),
            let minutes = number(text.suffix(2), digits: 2...2), hours < 24, minutes < 60
        else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}

/// An entry's `Error` value, with the parts triage reads.
package struct SwcutilError: Sendable, Equatable {
    /// As printed (verbose: an `NSError` description; plain: `<domain> <code>`).
    package let raw: String
    /// The error domain (`SWCErrorDomain`, `NSURLErrorDomain`, `NSCocoaErrorDomain`, `HTTP`), when it can be read.
    package let domain: String?
    /// The error code, when it can be read.
    package let code: Int?
    /// The CDN's failure reason code (`SWCERR00101`) and its text, when the error carries one.
    package let cdnReason: String?
    /// The HTTP status the error names (the CDN's or, on the direct route, the site's), when it names one.
    package let httpStatus: Int?

    package init(raw: String) {
        self.raw = raw
        var domain: String?
        var code: Int?
        if let range = raw.range(of: "Error Domain=") {
            let rest = raw[range.upperBound...]
            domain = rest.prefix { !$0.isWhitespace }.description
            if let codeRange = rest.range(of: "Code=") {
                code = Int(rest[codeRange.upperBound...].prefix { $0 == "-" || $0.isNumber })
            }
        } else {
            let words = raw.split(separator: " ", maxSplits: 2)
            if words.count >= 2, let number = Int(words[1]) {
                domain = String(words[0])
                code = number
            }
        }
        self.domain = domain
        self.code = code
        if let start = raw.range(of: "SWCERR") {
            let reason = raw[start.lowerBound...].prefix { $0 != "\"" && $0 != "\n" }
            let trimmed = reason.components(separatedBy: " -- ").first ?? String(reason)
            cdnReason = trimmed.trimmingCharacters(in: .whitespaces)
        } else {
            cdnReason = nil
        }
        if domain == "HTTP" {
            httpStatus = code
        } else if let range = raw.range(of: "HTTP ", options: .backwards) {
            httpStatus = Int(raw[range.upperBound...].prefix { $0.isNumber })
        } else if let range = raw.range(of: "Bad HTTP Response: ") {
            httpStatus = Int(raw[range.upperBound...].prefix { $0.isNumber })
        } else {
            httpStatus = nil
        }
    }
}

/// A SETTINGS record: `{ s = service, a = appID, d = domain | (null) }: { "key" = value; … }`.
package struct SwcutilSetting: Sendable, Equatable {
    package let service: String
    package let appID: String
    /// `nil` for `(null)`: the record applies to the whole app.
    package let domain: String?
    /// The record's `"key" = value;` pairs, in order.
    package var values: [SwcutilRecord.Field]
    /// The record's first line.
    package let line: Int

    /// `com.apple.LaunchServices.enabled`: `false` when the user turned the app's links off (they open in the
    /// browser); nil when the record does not say.
    package var linksEnabled: Bool? {
        guard let value = values.last(where: { $0.key == "com.apple.LaunchServices.enabled" })?.value else {
            return nil
        }
        return value == "1" ? true : value == "0" ? false : nil
    }
}
