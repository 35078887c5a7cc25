package import Foundation
package import IPACheckDevice
package import IPACheckReport

/// `ipacheck device EVIDENCE`: what a device holds about associated domains, for the app(s) asked about only.
///
/// The record lists every installed app (forensic tools call it an app footprint), so entries of other apps are
/// counted, never shown, unless every app is asked for (`--all-apps`).
package struct DeviceReport {
    /// Which apps to show.
    package enum Asked: Sendable {
        /// These app IDs (`TEAMID.bundle.id`; a bundle ID alone matches it under any team prefix).
        case appIDs([String])
        /// Every app.
        case allApps
        /// None: only counts are shown.
        case none
    }

    let evidence: Evidence
    let entries: [Entry]
    let settings: [Setting]
    /// The apps left out.
    let otherApps: Int
    let asked: Asked

    /// The listing of `record`, read from `file`, with times relative to the capture (else to `now`).
    package init(record: SwcutilRecord, file: DeviceEvidenceFile, asked: Asked, now: Date) {
        let captured = file.capturedAt
        let reference = captured ?? now
        let shown: (String) -> Bool =
            switch asked {
            case .allApps: { _ in true }
            case .none: { _ in false }
            case .appIDs(let ids): { appID in ids.contains { Self.matches(appID, asked: $0) } }
            }
        let apps = Set(record.entries.map(\.appID) + record.settings.map(\.appID))
        evidence = Evidence(
            path: file.path,
            from: file.origin.kind,
            member: DeviceEvidence.member(of: file.origin),
            capturedAt: captured,
            reference: Evidence.Reference(time: reference, is: captured == nil ? "now" : "capture"),
            verbose: record.isVerbose,
            developerMode: record.developerMode,
            entries: record.entries.count,
            apps: apps.count,
            unreadLines: record.unreadLines.map(\.number)
        )
        // The same app, service and domain listed twice (an edited or joined file?): said, not merged.
        let starts = Dictionary(grouping: record.entries) { "\($0.service) \($0.appID) \($0.domain.raw)" }
            .mapValues { $0.map(\.lines.lowerBound) }
        entries = record.entries.filter { shown($0.appID) }.map { entry in
            let twins = starts["\(entry.service) \(entry.appID) \(entry.domain.raw)"] ?? []
            return Entry(entry, reference: reference, sameEntryAt: twins.count > 1 ? twins : [])
        }
        settings = record.settings.filter { shown($0.appID) }.map(Setting.init)
        otherApps = apps.filter { !shown($0) }.count
        self.asked = asked
    }

    /// Whether the device's `appID` is the one asked: the same, or, when a bundle ID alone was asked, the same
    /// bundle ID under any team prefix.
    static func matches(_ appID: String, asked: String) -> Bool {
        if appID == asked { return true }
        guard !hasTeamPrefix(asked), let dot = appID.firstIndex(of: ".") else { return false }
        return appID[appID.index(after: dot)...] == asked
    }

    /// `ABCDE12345.`: ten upper-case letters or digits and a dot, as Apple's team IDs and app ID prefixes are.
    static func hasTeamPrefix(_ appID: String) -> Bool {
        let prefix = appID.prefix(11)
        return prefix.count == 11 && prefix.last == "."
            && prefix.dropLast().allSatisfy { ($0.isASCII && $0.isUppercase) || ($0.isASCII && $0.isNumber) }
    }

    // MARK: - Sections

    /// The sections, JSON keys `evidence`, `entries`, `settings` and `otherApps`.
    package func sections() throws -> [ReportSection] {
        [
            try ReportSection(key: "evidence", value: evidence, lines: evidenceLines),
            try ReportSection(
                key: "entries",
                value: entries,
                lines: entries.enumerated().flatMap { index, entry in
                    (index == 0 ? [] : [StyledLine()]) + entry.textLines(reference: evidence.reference.is)
                }
            ),
            try ReportSection(key: "settings", value: settings, lines: settings.map(\.line)),
            try ReportSection(key: "otherApps", value: otherApps, lines: otherAppsLines),
        ]
    }

    private var evidenceLines: [StyledLine] {
        var source = StyledLine.text("device record: ", .bold)
        if let member = evidence.member { source.append("\(member) in ") }
        source.append(evidence.path)
        var details = [evidence.verbose ? "verbose (a sysdiagnose's)" : "not verbose (macOS swcutil show)"]
        if let captured = evidence.capturedAt { details.append("captured \(Self.utc(captured))") }
        if let mode = evidence.developerMode { details.append("developer mode \(mode ? "on" : "off")") }
        var lines = [source, .text("  " + details.joined(separator: "; "), .dim)]
        lines.append(
            .text(
                "  \(evidence.entries) entr\(evidence.entries == 1 ? "y" : "ies") for \(evidence.apps) app\(evidence.apps == 1 ? "" : "s")"
            )
        )
        if !evidence.unreadLines.isEmpty {
            lines.append(
                .text(
                    "  \(evidence.unreadLines.count) line\(evidence.unreadLines.count == 1 ? " was" : "s were") not "
                        + "understood (line \(evidence.unreadLines.prefix(5).map(String.init).joined(separator: ", "))"
                        + "\(evidence.unreadLines.count > 5 ? ", …" : "")): read them in the file",
                    .yellow
                )
            )
        }
        if evidence.entries == 0 {
            lines.append(
                .text("  the record lists no entry: no app on the device claims an associated domain", .yellow)
            )
        }
        if case .appIDs(let ids) = asked, entries.isEmpty, evidence.entries > 0 {
            lines.append(
                .text(
                    "  ✗ no entry for \(ids.joined(separator: ", ")): the app is not installed on this device, or "
                        + "another build of it is (another app ID or team prefix), or it claims no domain",
                    .red
                )
            )
        }
        return lines
    }

    private var otherAppsLines: [StyledLine] {
        guard otherApps > 0 else { return [] }
        let lead = entries.isEmpty && settings.isEmpty ? "" : "and "
        switch asked {
        case .none:
            return [
                .text(
                    "\(otherApps) app\(otherApps == 1 ? "" : "s") on the device, not shown: name yours with "
                        + "--app-id or --build (--all-apps lists every app: the record is private to its owner)",
                    .dim
                )
            ]
        default:
            return [
                .text(
                    "\(lead)\(otherApps) other app\(otherApps == 1 ? "" : "s") left out (--all-apps shows them)",
                    .dim
                )
            ]
        }
    }

    static func utc(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        return formatter.string(from: date) + " UTC"
    }

    /// `3 d 4 h`, `25 min`: a duration people read at a glance.
    static func duration(_ seconds: Int) -> String {
        let value = abs(seconds)
        if value >= 86_400 { return "\(value / 86_400) d \(value % 86_400 / 3_600) h" }
        if value >= 3_600 { return "\(value / 3_600) h \(value % 3_600 / 60) min" }
        if value >= 60 { return "\(value / 60) min" }
        return "\(value) s"
    }
}

extension DeviceEvidenceFile.Origin {
    /// `archive`, `folder` or `file`.
    var kind: String {
        switch self {
        case .archiveMember: "archive"
        case .folderFile: "folder"
        case .file: "file"
        }
    }
}

// MARK: - The JSON shapes

extension DeviceReport {
    /// JSON `evidence`.
    struct Evidence: Encodable {
        /// The time relative times are counted from.
        struct Reference: Encodable {
            let time: Date
            let `is`: String
        }

        let path: String
        let from: String
        let member: String?
        let capturedAt: Date?
        let reference: Reference
        let verbose: Bool
        let developerMode: Bool?
        let entries: Int
        let apps: Int
        let unreadLines: [Int]
    }

    /// JSON `entries[]`.
    struct Entry: Encodable {
        struct Domain: Encodable {
            let raw: String
            let host: String
            let wildcard: Bool
            let port: String?
            let modes: [String]
        }

        struct Moment: Encodable {
            let raw: String
            let utc: Date?
            /// Seconds after the reference time (negative: before it).
            let secondsFromReference: Int?
        }

        struct Failure: Encodable {
            let raw: String
            let domain: String?
            let code: Int?
            let cdnReason: String?
            let httpStatus: Int?
            let meaning: String
            let source: String
        }

        struct Lines: Encodable {
            let first: Int
            let last: Int
        }

        let service: String
        let appID: String
        let appVersion: String?
        let domain: Domain
        /// Left out when the entry has no such line (a trimmed paste).
        let userApproval: String?
        let siteApproval: String?
        let flags: [String]
        let lastChecked: Moment?
        let nextCheck: Moment?
        let error: Failure?
        let retries: Int?
        let patterns: String?
        let otherFields: [String: String]
        let lines: Lines
        /// What the entry's own fields say that a reader should not miss (dates that cannot be, a check overdue).
        let notes: [String]

        /// - Parameter sameEntryAt: Where the record lists the same app, service and domain, when more than once.
        init(_ entry: SwcutilEntry, reference: Date, sameEntryAt: [Int] = []) {
            func moment(_ date: SwcutilDate?) -> Moment? {
                date.map { date in
                    Moment(
                        raw: date.raw,
                        utc: date.date,
                        secondsFromReference: date.date.flatMap {
                            Int(exactly: $0.timeIntervalSince(reference).rounded())
                        }
                    )
                }
            }
            service = entry.service
            appID = entry.appID
            appVersion = entry.appVersion
            domain = Domain(
                raw: entry.domain.raw,
                host: entry.domain.host,
                wildcard: entry.domain.isWildcard,
                port: entry.domain.port,
                modes: entry.domain.modes
            )
            userApproval = entry.userApproval?.word
            siteApproval = entry.siteApproval?.word
            flags = entry.flags
            lastChecked = moment(entry.lastChecked)
            nextCheck = moment(entry.nextCheck)
            error = entry.error.map { error in
                let meaning = SwcutilErrorMeaning(error, host: entry.domain.host)
                return Failure(
                    raw: error.raw,
                    domain: error.domain,
                    code: error.code,
                    cdnReason: error.cdnReason,
                    httpStatus: error.httpStatus,
                    meaning: meaning.words,
                    source: meaning.source
                )
            }
            retries = entry.retries
            patterns = entry.patterns
            otherFields = Dictionary(
                entry.otherFields.map { ($0.key, $0.value) },
                uniquingKeysWith: { _, last in last }
            )
            lines = Lines(first: entry.lines.lowerBound, last: entry.lines.upperBound)
            var notes: [String] = []
            for date in [entry.lastChecked, entry.nextCheck].compactMap({ $0 }) where date.date == nil {
                notes.append(
                    "the date \"\(date.raw)\" is in neither form swcutil prints (a localized file?): kept as written"
                )
            }
            if entry.userApproval == .denied {
                notes.append(
                    "the user chose the browser for this domain's links: a long press on a link and \"Open in\" the "
                        + "app undoes it (Apple, TN3155)"
                )
            }
            if entry.siteApproval == .denied {
                notes.append(
                    "the device read the site's file and it does not grant this app this service (Apple, TN3155); "
                        + "once the file is fixed the device reads it again at its Next Check, or when the app is "
                        + "reinstalled"
                )
            }
            let missing = entry.missingKeys
            if !missing.isEmpty {
                notes.append(
                    "the entry has no \(missing.joined(separator: ", ")) line\(missing.count == 1 ? "" : "s"), which "
                        + "swcutil always prints: a trimmed paste? What is absent is unknown (docs/device.md, \"Format\")"
                )
            }
            if entry.lastChecked == nil, missing.isEmpty {
                notes.append(
                    "never checked yet: a new install, a check still queued, or a device offline since (docs/device.md, "
                        + "\"What each state means\")"
                )
            }
            if let next = entry.nextCheck?.date, reference.timeIntervalSince(next) > 3_600,
                entry.lastChecked?.date.map({ next >= $0 }) ?? true
            {
                notes.append(
                    "its Next Check passed \(DeviceReport.duration(Int(reference.timeIntervalSince(next)))) before "
                        + "the reference time: the device was offline or held the check back, so its verdict may be "
                        + "stale (docs/device.md, \"What each state means\")"
                )
            }
            if let last = entry.lastChecked?.date, let next = entry.nextCheck?.date, next < last {
                notes.append(
                    "its Next Check is before its Last Checked, which no device writes (TN3155's own example has it: "
                        + "an edited or made-up entry); its dates are not to be trusted"
                )
            }
            if !sameEntryAt.isEmpty {
                notes.append(
                    "the record lists this app, service and domain \(sameEntryAt.count) times (lines "
                        + sameEntryAt.map(String.init).joined(separator: ", ")
                        + "); `explain --device` reads the first"
                )
            }
            self.notes = notes
        }

        /// The entry for people; `reference` is what relative times count from (`capture` or `now`).
        func textLines(reference: String) -> [StyledLine] {
            var head = StyledLine.text(service, .bold)
            head.append("  \(appID)")
            if let version = appVersion { head.append("  version \(version)", .dim) }
            var first = StyledLine.text("  \(domain.raw)")
            first.append("  user: \(userApproval ?? "not in the record")", userApproval == "denied" ? .red : nil)
            first.append(
                "  site: \(siteApproval ?? "not in the record")",
                siteApproval == "approved" ? .green : siteApproval == "denied" ? .red : nil
            )
            if !flags.isEmpty { first.append("  flags: \(flags.joined(separator: ", "))") }
            var result = [head, first]
            for (label, moment) in [("last checked", lastChecked), ("next check", nextCheck)] {
                guard let moment else { continue }
                var line = StyledLine.text("  \(label) ")
                if let utc = moment.utc {
                    line.append(DeviceReport.utc(utc))
                    if let seconds = moment.secondsFromReference {
                        let span = DeviceReport.duration(seconds)
                        let relative =
                            reference == "capture"
                            ? "\(span) \(seconds < 0 ? "before" : "after") the capture"
                            : seconds < 0 ? "\(span) ago" : "in \(span)"
                        line.append(" (\(relative))", .dim)
                    }
                } else {
                    line.append("\(moment.raw) (not a date ipacheck can read)", .yellow)
                }
                result.append(line)
            }
            if let error {
                result.append(.text("  error the device recorded: \(error.raw)", .red))
                result.append(.text("    \(error.meaning) [\(error.source)]"))
            }
            if let retries { result.append(.text("  retries: \(retries)")) }
            if let patterns { result.append(.text("  patterns: \(patterns)", .dim)) }
            for (key, value) in otherFields.sorted(by: { $0.key < $1.key }) {
                result.append(.text("  \(key): \(value)", .dim))
            }
            result += notes.map { .text("  note: \($0)", .yellow) }
            return result
        }
    }

    /// JSON `settings[]`.
    struct Setting: Encodable {
        let service: String
        let appID: String
        let domain: String?
        let linksEnabled: Bool?
        let values: [String: String]
        let lineNumber: Int

        init(_ setting: SwcutilSetting) {
            service = setting.service
            appID = setting.appID
            domain = setting.domain
            linksEnabled = setting.linksEnabled
            values = Dictionary(setting.values.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            lineNumber = setting.line
        }

        private enum CodingKeys: String, CodingKey {
            case service, appID, domain, linksEnabled, values
            case lineNumber = "line"
        }

        var line: StyledLine {
            var line = StyledLine.text("setting ", .bold)
            line.append("\(service) \(appID) \(domain ?? "(whole app)")")
            switch linksEnabled {
            case false?:
                line.append(
                    "  com.apple.LaunchServices.enabled = 0: the app's links are turned off on this device and open "
                        + "in the browser (docs/device.md, \"Settings\")",
                    .red
                )
            case true?: line.append("  links on")
            case nil:
                line.append(
                    "  " + values.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: "; "),
                    .dim
                )
            }
            return line
        }
    }
}
