package import Foundation

extension PlistValue {
    /// An XML property-list document, laid out as Apple's tools write it (tabs, sorted keys), so
    /// `ipacheck entitlements --format xml` reads like `codesign -d --entitlements -`.
    package var xmlDocument: String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        appendXML(to: &out, indent: "")
        out += "</plist>\n"
        return out
    }

    private func appendXML(to out: inout String, indent: String) {
        switch self {
        case .string(let value):
            out += "\(indent)<string>\(Self.escape(value))</string>\n"
        case .integer(let value):
            out += "\(indent)<integer>\(value)</integer>\n"
        case .unsignedInteger(let value):
            out += "\(indent)<integer>\(value)</integer>\n"
        case .real(let value):
            out += "\(indent)<real>\(value)</real>\n"
        case .bool(let value):
            out += "\(indent)<\(value ? "true" : "false")/>\n"
        case .date(let value):
            out += "\(indent)<date>\(Self.iso8601(value))</date>\n"
        case .data(let value):
            out += "\(indent)<data>\(Data(value).base64EncodedString())</data>\n"
        case .array(let elements):
            if elements.isEmpty {
                out += "\(indent)<array/>\n"
                return
            }
            out += "\(indent)<array>\n"
            for element in elements { element.appendXML(to: &out, indent: indent + "\t") }
            out += "\(indent)</array>\n"
        case .dictionary(let entries):
            if entries.isEmpty {
                out += "\(indent)<dict/>\n"
                return
            }
            out += "\(indent)<dict>\n"
            for key in entries.keys.sorted() {
                out += "\(indent)\t<key>\(Self.escape(key))</key>\n"
                entries[key]?.appendXML(to: &out, indent: indent + "\t")
            }
            out += "\(indent)</dict>\n"
        }
    }

    /// The date as ISO 8601 in UTC (`2026-11-22T01:47:50Z`), the form plists and our JSON use, for any year from
    /// 1 to 9999 (``PlistDate/iso8601(_:)``).
    package static func iso8601(_ date: Date) -> String {
        PlistDate.iso8601(date)
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}

extension PlistValue {
    /// The value on one line, for text reports: text, numbers and dates as they are, a list of strings joined,
    /// anything larger by its shape (`<dictionary of 3>`).
    package var oneLine: String {
        switch self {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        case .unsignedInteger(let number): String(number)
        case .real(let number): String(number)
        case .date(let date): Self.iso8601(date)
        case .data(let bytes): "<\(bytes.count) bytes>"
        case .array(let elements):
            elements.allSatisfy { $0.stringValue != nil }
                ? "[" + elements.compactMap(\.stringValue).joined(separator: ", ") + "]"
                : "<array of \(elements.count)>"
        case .dictionary(let members): "<dictionary of \(members.count)>"
        }
    }
}

extension PlistValue: Encodable {
    /// Encodes as plain JSON: data as base64, dates as ISO 8601, dictionaries as objects.
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .unsignedInteger(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .real(let value):
            var container = encoder.singleValueContainer()
            if value.isFinite { try container.encode(value) } else { try container.encode(String(value)) }
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .date(let value):
            var container = encoder.singleValueContainer()
            try container.encode(Self.iso8601(value))
        case .data(let value):
            var container = encoder.singleValueContainer()
            try container.encode(Data(value).base64EncodedString())
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .dictionary(let entries):
            var container = encoder.container(keyedBy: PlistKey.self)
            for key in entries.keys.sorted() {
                if let value = entries[key] { try container.encode(value, forKey: PlistKey(stringValue: key)) }
            }
        }
    }
}

/// A coding key for arbitrary dictionary keys.
private struct PlistKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
