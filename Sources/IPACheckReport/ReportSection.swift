import Foundation

/// What a command shows besides its findings (the bundle tree of `info`, the domains of `domains`, the signatures
/// of `verify`, the sites of `aasa`), kept as data so every renderer formats it the same way: JSON puts ``value``
/// under ``key`` at the top level, text prints ``lines`` before the findings.
package struct ReportSection: Hashable, Sendable {
    /// The top-level JSON key (`bundles`, `subjects`, `sites`).
    package var key: String
    /// The value, as JSON.
    package var value: JSONValue
    /// The same for people.
    package var lines: [StyledLine]

    /// Creates a section from any encodable value.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded as JSON.
    package init(key: String, value: some Encodable, lines: [StyledLine]) throws {
        self.key = key
        self.value = try JSONValue(encoding: value)
        self.lines = lines
    }

    init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
        self.lines = []
    }
}

/// A JSON value: what a ``ReportSection`` holds, so a report stays plain data whatever the command.
package enum JSONValue: Hashable, Sendable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case integer(Int64)
    /// An integer above `Int64.max` (a plist's unsigned 64-bit value).
    case unsignedInteger(UInt64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// The JSON form of `value`, as `JSONEncoder` writes it (dates as ISO 8601 text, not seconds since 2001).
    package init(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Reads any JSON value.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(UInt64.self) {
            self = .unsignedInteger(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Writes the value.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .unsignedInteger(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The member `key` of an object, or `nil`.
    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}

/// One line of text for people, in spans that may be emphasised (bold, dim, coloured on a terminal).
package struct StyledLine: Hashable, Sendable, ExpressibleByStringLiteral {
    /// How a span is shown on a terminal; plain text everywhere else.
    package enum Emphasis: Hashable, Sendable {
        /// Bold (names, headings).
        case bold
        /// Dim (details).
        case dim
        /// Red (broken).
        case red
        /// Green (valid).
        case green
        /// Yellow (warnings).
        case yellow
    }

    /// A piece of the line.
    package struct Span: Hashable, Sendable {
        /// The text; from an input, it is made visible before printing (``UntrustedText``).
        package var text: String
        /// How it is emphasised, if at all.
        package var emphasis: Emphasis?
    }

    /// The pieces, in order.
    package var spans: [Span]

    /// An empty line.
    package init() {
        spans = []
    }

    /// A plain line.
    package init(stringLiteral text: String) {
        spans = [Span(text: text, emphasis: nil)]
    }

    /// Appends plain or emphasised text.
    @discardableResult
    package mutating func append(_ text: String, _ emphasis: Emphasis? = nil) -> StyledLine {
        spans.append(Span(text: text, emphasis: emphasis))
        return self
    }

    /// Appends another line's spans.
    package mutating func append(contentsOf other: StyledLine) {
        spans += other.spans
    }

    /// A line of one span.
    package static func text(_ text: String, _ emphasis: Emphasis? = nil) -> StyledLine {
        var line = StyledLine()
        line.append(text, emphasis)
        return line
    }

    /// The line without emphasis, control characters made visible.
    package var plain: String { render(TextStyle.plain) }

    /// The line in a text style: ANSI colours when the style has them.
    package func render(_ style: TextStyle) -> String {
        spans.map { span in
            let text = UntrustedText.visibleOnOneLine(span.text)
            switch span.emphasis {
            case nil: return text
            case .bold: return style.bold(text)
            case .dim: return style.dim(text)
            case .red: return style.red(text)
            case .green: return style.green(text)
            case .yellow: return style.yellow(text)
            }
        }.joined()
    }
}
