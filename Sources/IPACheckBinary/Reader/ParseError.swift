/// A failure to parse untrusted bytes, with enough context to tell a person what was wrong and where.
///
/// Equality compares only ``code`` and ``field`` (the swift-asn1 design), so tests can write
/// `#expect(throws: ParseError(.truncated, field: "magic"))` without knowing offsets or source lines.
package struct ParseError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What kind of problem was found.
    package enum Code: String, Sendable, Hashable {
        /// The bytes end before a field they promise.
        case truncated
        /// A magic number or tag is not the expected one.
        case badMagic
        /// An offset or length points outside its container.
        case outOfBounds
        /// A count, size or depth exceeds the limit we accept.
        case limitExceeded
        /// A value is present but not acceptable (bad encoding, impossible combination).
        case invalidValue
        /// A structure is valid but of a kind we do not support.
        case unsupported

        /// The problem in words (`points outside its container`).
        package var words: String {
            switch self {
            case .truncated: "is cut short"
            case .badMagic: "has the wrong magic number"
            case .outOfBounds: "points outside its container"
            case .limitExceeded: "exceeds what ipacheck accepts"
            case .invalidValue: "has an impossible value"
            case .unsupported: "is of a kind ipacheck does not read"
            }
        }
    }

    /// What kind of problem was found.
    package let code: Code
    /// The field or structure being read (`"CodeDirectory.hashOffset"`).
    package let field: String
    /// The byte offset, from the start of the reader's buffer, where the problem was found.
    package let offset: Int
    /// Extra words for people.
    package let reason: String
    /// Where in our source the error was raised, for bug reports.
    package let sourceLocation: String

    /// Creates an error.
    package init(
        _ code: Code,
        field: String,
        at offset: Int = 0,
        reason: String = "",
        file: String = #fileID,
        line: UInt = #line
    ) {
        self.code = code
        self.field = field
        self.offset = offset
        self.reason = reason
        self.sourceLocation = "\(file):\(line)"
    }

    /// A sentence for people: `CodeDirectory.hashOffset is cut short (byte 64): needs 4 bytes`.
    package var description: String {
        var text = "\(field) \(code.words) (byte \(offset))"
        if !reason.isEmpty { text += ": \(reason)" }
        return text
    }

    /// Equal when the code and field agree; offsets, reasons and source lines are diagnostics only.
    package static func == (lhs: ParseError, rhs: ParseError) -> Bool {
        lhs.code == rhs.code && lhs.field == rhs.field
    }

    /// Hashes what ``==`` compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(field)
    }
}

extension Range<Int> {
    /// `bytes 5168 to 6000`: a range in words, for error messages.
    var words: String { "bytes \(lowerBound) to \(upperBound)" }
}

extension [Range<Int>] {
    /// `bytes 0 to 8, bytes 40 to 60`.
    var words: String { map(\.words).joined(separator: ", ") }
}
