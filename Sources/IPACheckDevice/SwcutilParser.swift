import Foundation

/// Reads `swcutil show` text (verbose or not, a whole file or pasted entries) into a ``SwcutilRecord``.
///
/// As docs/device.md ("Format") says: CRLF and terminal colour codes are removed; sections are found by their
/// `=`-banners, entries split by dashed lines; a key ends at the first `:` followed by two or more spaces (values
/// hold colons), or at a `:` that ends the line (`Flags:` with nothing after it); unknown keys are kept, the key order
/// is not assumed. A line that fits nothing is kept in ``SwcutilRecord/unreadLines``, never dropped.
package enum SwcutilParser {
    /// The most lines read: a real file is tens of thousands (1.7 MB for every app of a phone).
    package static let maximumLines = 2_000_000

    /// The record the text holds.
    package static func parse(_ text: String) -> SwcutilRecord {
        var record = SwcutilRecord()
        var section = Section.preamble
        var entry: SwcutilEntry?
        var setting: SwcutilSetting?
        func closeEntry() {
            if let finished = entry, !finished.appID.isEmpty || !finished.service.isEmpty {
                record.entries.append(finished)
            }
            entry = nil
        }
        var number = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            guard number <= maximumLines else { break }
            let line = stripped(rawLine)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let title = bannerTitle(trimmed) {
                closeEntry()
                section = Section(title: title)
                if section == .database { record.hasDatabaseBanner = true }
                continue
            }
            if trimmed.isEmpty || trimmed == "(empty)" { continue }
            // An 80-dash separator, or the `--` grep prints between the groups of `swcutil show | grep -A5`.
            if trimmed == "--" || (trimmed.count >= 20 && trimmed.allSatisfy { $0 == "-" }) {
                closeEntry()
                continue
            }
            switch section {
            case .preamble, .database:
                guard let field = field(line, number: number) else {
                    record.unreadLines.append(.init(number: number, text: line))
                    continue
                }
                // Entries pasted without a banner start at their first `Service:`; a preamble key never does.
                if field.key == "Service" {
                    closeEntry()
                    section = .database
                    entry = SwcutilEntry()
                    entry?.lines = number...number
                }
                if section == .preamble {
                    record.preamble.append(field)
                } else {
                    if entry == nil {
                        entry = SwcutilEntry()
                        entry?.lines = number...number
                    }
                    entry?.apply(field)
                }
            case .settings:
                if let opened = settingHeader(trimmed, line: number) {
                    if let open = setting { record.settings.append(open) }
                    setting = opened
                } else if trimmed == "}" {
                    if let open = setting { record.settings.append(open) }
                    setting = nil
                } else if let value = settingValue(trimmed, line: number), setting != nil {
                    setting?.values.append(value)
                } else {
                    record.unreadLines.append(.init(number: number, text: line))
                }
            case .network:
                record.network.append(trimmed)
            case .other:
                continue
            }
        }
        closeEntry()
        if let open = setting { record.settings.append(open) }
        return record
    }

    private enum Section: Equatable {
        case preamble, database, network, settings, other

        init(title: String) {
            switch title {
            case "DATABASE": self = .database
            case "NETWORK": self = .network
            case "SETTINGS": self = .settings
            default: self = .other
            }
        }
    }

    /// The title of a `=== TITLE ===` banner (`^=+ ([A-Z][A-Z ]*) =+$`).
    private static func bannerTitle(_ line: String) -> String? {
        guard line.hasPrefix("="), line.hasSuffix("=") else { return nil }
        let inner = line.drop { $0 == "=" }.reversed().drop { $0 == "=" }.reversed()
        let title = String(inner).trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty, title.first?.isUppercase == true,
            title.allSatisfy({ ($0.isASCII && $0.isUppercase) || $0 == " " })
        else { return nil }
        return title
    }

    /// A `Key:   value` line: the key ends at the first `:` followed by two or more spaces, or by the line's end.
    private static func field(_ line: String, number: Int) -> SwcutilRecord.Field? {
        let characters = Array(line)
        var index = 0
        while index < characters.count {
            if characters[index] == ":" {
                let after = characters[(index + 1)...]
                let spaces = after.prefix { $0 == " " || $0 == "\t" }.count
                if spaces >= 2 || spaces == after.count {
                    let key = String(characters[..<index]).trimmingCharacters(in: .whitespaces)
                    guard !key.isEmpty, key.count <= 40 else { return nil }
                    let value = String(after).trimmingCharacters(in: .whitespaces)
                    return .init(key: key, value: value, line: number)
                }
            }
            index += 1
        }
        return nil
    }

    /// A SETTINGS record's first line, such as `{ s = applinks, a = com.apple.AppStore, d = (null) }: {`.
    private static func settingHeader(_ line: String, line number: Int) -> SwcutilSetting? {
        guard line.hasPrefix("{"), line.hasSuffix("{"), let close = line.range(of: "}:") else { return nil }
        var parts: [String: String] = [:]
        for piece in line[line.index(after: line.startIndex)..<close.lowerBound].split(separator: ",") {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            parts[pair[0].trimmingCharacters(in: .whitespaces)] = pair[1].trimmingCharacters(in: .whitespaces)
        }
        guard let service = parts["s"], let app = parts["a"] else { return nil }
        let domain = parts["d"].flatMap { $0 == "(null)" ? nil : $0 }
        return SwcutilSetting(service: service, appID: app, domain: domain, values: [], line: number)
    }

    /// A SETTINGS record's value line, such as `"com.apple.LaunchServices.enabled" = 1;`.
    private static func settingValue(_ line: String, line number: Int) -> SwcutilRecord.Field? {
        guard line.hasPrefix("\""), line.hasSuffix(";"), let equals = line.range(of: " = ") else { return nil }
        let key = line[line.index(after: line.startIndex)..<equals.lowerBound].trimmingCharacters(
            in: CharacterSet(charactersIn: "\"")
        )
        let value = line[equals.upperBound..<line.index(before: line.endIndex)].trimmingCharacters(in: .whitespaces)
        return .init(key: key, value: value, line: number)
    }

    /// The line without terminal colour codes (`ESC [ … m`) or a trailing carriage return.
    private static func stripped(_ line: Substring) -> String {
        guard line.contains("\u{1B}") else { return String(line) }
        var out = ""
        var index = line.startIndex
        while index < line.endIndex {
            if line[index] == "\u{1B}", line.index(after: index) < line.endIndex, line[line.index(after: index)] == "["
            {
                var end = line.index(index, offsetBy: 2)
                while end < line.endIndex, !(line[end].isASCII && line[end].isLetter) { end = line.index(after: end) }
                index = end < line.endIndex ? line.index(after: end) : end
                continue
            }
            out.append(line[index])
            index = line.index(after: index)
        }
        return out
    }
}

extension SwcutilEntry {
    /// Takes one `key: value` line of the entry.
    fileprivate mutating func apply(_ field: SwcutilRecord.Field) {
        lines = lines.lowerBound...max(lines.upperBound, field.line)
        fieldLines[field.key] = field.line
        switch field.key {
        case "Service": service = field.value
        case "App ID": appID = field.value
        case "App Version": appVersion = field.value
        case "Domain": domain = SwcutilDomain(raw: field.value)
        case "User Approval": userApproval = SwcutilApproval(field.value)
        case "Site/Fmwk Approval": siteApproval = SwcutilApproval(field.value)
        case "Flags":
            flags = field.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        case "Last Checked": lastChecked = SwcutilDate(raw: field.value)
        case "Next Check": nextCheck = SwcutilDate(raw: field.value)
        case "Error": error = SwcutilError(raw: field.value)
        case "Retries": retries = Int(field.value)
        case "Patterns": patterns = field.value
        default: otherFields.append(field)
        }
    }
}
