/// A JSON value as written in an AASA file: objects keep their key order and every value its source position,
/// so lint can talk about "the second details entry" and point at line and column.
package indirect enum AASAJSON: Sendable, Hashable {
    /// A JSON object; members in source order (duplicate names already resolved, last one kept).
    case object([Member])
    /// A JSON array.
    case array([AASAJSON])
    /// A JSON string.
    case string(String)
    /// A JSON number, kept as written (so `1e999` and 20-digit integers survive untouched).
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// One `"name": value` pair of an object, with the position of its name.
    package struct Member: Sendable, Hashable {
        /// The member's name.
        package var key: String
        /// The member's value.
        package var value: AASAJSON
        /// Where the name starts in the source.
        package var position: AASASourcePosition

        /// Creates a member.
        package init(key: String, value: AASAJSON, position: AASASourcePosition) {
            self.key = key
            self.value = value
            self.position = position
        }
    }

    /// The members, if this is an object.
    package var members: [Member]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The value of the member named `key`, if this is an object that has one.
    package subscript(key: String) -> AASAJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, if this is a string.
    package var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The boolean, if this is `true` or `false`.
    package var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The elements, if this is an array.
    package var arrayValue: [AASAJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The JSON type's name, for messages (`"string"`, `"object"` …).
    package var typeName: String {
        switch self {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        }
    }

    /// Compact JSON text (`{"/": "/buy/*", "exclude": true}`), in source key order, for one-line explanations.
    package var compactText: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += ", " }
                Self.writeString(member.key, to: &out)
                out += ": "
                member.value.write(to: &out)
            }
            out += "}"
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += ", " }
                element.write(to: &out)
            }
            out += "]"
        case .string(let string): Self.writeString(string, to: &out)
        case .number(let text): out += text
        case .bool(let bool): out += bool ? "true" : "false"
        case .null: out += "null"
        }
    }

    private static func writeString(_ string: String, to out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

/// A place in the source document: byte offset (0-based) plus line and column (1-based, column in bytes).
package struct AASASourcePosition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Byte offset from the start of the JSON text (after any CMS envelope or BOM was removed).
    package var offset: Int
    /// Line number, starting at 1.
    package var line: Int
    /// Column number in bytes, starting at 1.
    package var column: Int

    /// Creates a position.
    package init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `line 3, column 17`.
    package var description: String { "line \(line), column \(column)" }
}

extension AASAJSON {
    /// A repeated member name in one object, with where it repeats.
    package struct DuplicateKey: Hashable, Sendable {
        /// The member's name.
        package var key: String
        /// The JSON path of the object holding it (`suppress[0]`).
        package var objectPath: String
        /// Where the repeated name starts.
        package var position: AASASourcePosition
    }

    /// Reads strict RFC 8259 JSON (no trailing commas, comments or junk), for any file ipacheck reads as JSON:
    /// the first error names its line and column, and repeated keys are returned rather than silently resolved.
    ///
    /// - Throws: ``AASAParseError`` with the position of the first error.
    package static func parseStrict(
        _ bytes: [UInt8],
        maximumDepth: Int = 64
    ) throws(AASAParseError) -> (value: AASAJSON, duplicateKeys: [DuplicateKey]) {
        var parser = StrictJSONParser(bytes: bytes, maximumDepth: maximumDepth)
        let value = try parser.parseDocument()
        let duplicates = parser.duplicates.map {
            DuplicateKey(key: $0.key, objectPath: $0.objectPath, position: $0.position)
        }
        return (value, duplicates)
    }
}
