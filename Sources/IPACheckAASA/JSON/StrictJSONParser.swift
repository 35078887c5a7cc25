/// A strict RFC 8259 JSON reader for untrusted AASA bytes.
///
/// Foundation's JSONSerialization hides duplicate keys, loses key order and positions, and accepts some junk;
/// Apple's own reader is strict. This one is strict too, reports the exact line and column of the first error,
/// keeps object key order, records duplicate keys (the last value wins, as with NSJSONSerialization), caps nesting
/// depth, and never reads outside the buffer: every index is checked against `bytes.count` first.
struct StrictJSONParser {
    private let bytes: [UInt8]
    private let maximumDepth: Int
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var path: [String] = []
    private(set) var duplicates: [AASADocument.DuplicateKey] = []

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Parses the whole input as one JSON value followed only by white space.
    mutating func parseDocument() throws(AASAParseError) -> AASAJSON {
        if let bad = Self.firstInvalidUTF8Offset(bytes) {
            throw AASAParseError(
                .invalidUTF8,
                "invalid UTF-8 byte 0x\(String(bytes[bad], radix: 16, uppercase: true))",
                at: position(of: bad)
            )
        }
        skipWhitespace()
        guard index < bytes.count else { throw AASAParseError(.empty, "the file contains no JSON value") }
        let value = try parseValue(depth: 1)
        skipWhitespace()
        if index < bytes.count {
            throw syntax("unexpected \(describeCurrent()) after the end of the JSON document")
        }
        return value
    }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(AASAParseError) -> AASAJSON {
        guard depth <= maximumDepth else {
            throw AASAParseError(.tooDeep, "JSON nested deeper than \(maximumDepth) levels", at: currentPosition)
        }
        guard let byte = peek() else { throw syntax("unexpected end of file, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "'"): throw syntax("strings must use double quotes, found a single quote")
        case UInt8(ascii: "/"): throw syntax("comments are not allowed in JSON")
        default: throw syntax("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(AASAParseError) -> AASAJSON {
        index += 1  // {
        var members: [AASAJSON.Member] = []
        var seen: [String: Int] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard let byte = peek() else { throw syntax("unexpected end of file inside an object") }
            if byte == UInt8(ascii: "}") { throw syntax("trailing comma before '}'") }
            if byte == UInt8(ascii: "/") { throw syntax("comments are not allowed in JSON") }
            guard byte == UInt8(ascii: "\"") else {
                throw syntax("object member names must be double-quoted strings, found \(describeCurrent())")
            }
            let keyPosition = currentPosition
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw syntax("expected ':' after member name \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            path.append(key)
            let value = try parseValue(depth: depth + 1)
            path.removeLast()
            if let earlier = seen[key] {
                duplicates.append(AASADocument.DuplicateKey(key: key, objectPath: pathText, position: keyPosition))
                members[earlier].value = value
            } else {
                seen[key] = members.count
                members.append(AASAJSON.Member(key: key, value: value, position: keyPosition))
            }
            skipWhitespace()
            guard let next = peek() else { throw syntax("unexpected end of file inside an object") }
            index += 1
            if next == UInt8(ascii: "}") { return .object(members) }
            guard next == UInt8(ascii: ",") else {
                index -= 1
                throw syntax("expected ',' or '}' after an object member, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(AASAParseError) -> AASAJSON {
        index += 1  // [
        var elements: [AASAJSON] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { throw syntax("trailing comma before ']'") }
            path.append("[\(elements.count)]")
            elements.append(try parseValue(depth: depth + 1))
            path.removeLast()
            skipWhitespace()
            guard let next = peek() else { throw syntax("unexpected end of file inside an array") }
            index += 1
            if next == UInt8(ascii: "]") { return .array(elements) }
            guard next == UInt8(ascii: ",") else {
                index -= 1
                throw syntax("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseString() throws(AASAParseError) -> String {
        index += 1  // opening quote
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else { throw syntax("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &utf8)
            case 0..<0x20:
                throw syntax("control character 0x\(String(byte, radix: 16)) must be escaped inside a string")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(AASAParseError) {
        guard let byte = peek() else { throw syntax("unterminated escape sequence") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var code = try parseHex4()
            if (0xD800...0xDBFF).contains(code) {
                guard peek() == UInt8(ascii: "\\"), peek(offset: 1) == UInt8(ascii: "u") else {
                    throw syntax("unpaired UTF-16 high surrogate \\u\(String(code, radix: 16, uppercase: true))")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw syntax("high surrogate not followed by a low surrogate")
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw syntax("unpaired UTF-16 low surrogate \\u\(String(code, radix: 16, uppercase: true))")
            }
            guard let scalar = Unicode.Scalar(code) else { throw syntax("invalid \\u escape") }
            utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            index -= 2  // point at the backslash
            throw syntax("invalid escape sequence '\\\(describeByte(byte))'")
        }
    }

    private mutating func parseHex4() throws(AASAParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw syntax("unterminated \\u escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("\\u escape needs four hex digits, found \(describeCurrent())")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(AASAParseError) -> String {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw syntax("a number needs a digit after '-'") }
        index += 1
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw syntax("numbers must not have leading zeros")
        }
        skipDigits()
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let digit = peek(), isDigit(digit) else { throw syntax("a number needs digits after '.'") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), isDigit(digit) else { throw syntax("a number needs digits in its exponent") }
            skipDigits()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func expectLiteral(_ literal: String) throws(AASAParseError) {
        for byte in literal.utf8 {
            guard peek() == byte else { throw syntax("invalid literal, expected '\(literal)'") }
            index += 1
        }
    }

    // MARK: - Helpers

    private func peek(offset: Int = 0) -> UInt8? {
        let position = index + offset
        return position < bytes.count ? bytes[position] : nil
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { index += 1 }
    }

    private mutating func skipWhitespace() {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private var currentPosition: AASASourcePosition {
        AASASourcePosition(offset: index, line: line, column: index - lineStart + 1)
    }

    private var pathText: String {
        var text = ""
        for component in path {
            if component.hasPrefix("[") || text.isEmpty {
                text += component
            } else {
                text += "." + component
            }
        }
        return text.isEmpty ? "(root)" : text
    }

    /// Position of an arbitrary offset, by counting lines (used only for errors found before parsing).
    private func position(of offset: Int) -> AASASourcePosition {
        var line = 1
        var lineStart = 0
        var cursor = 0
        while cursor < offset, cursor < bytes.count {
            if bytes[cursor] == UInt8(ascii: "\n") {
                line += 1
                lineStart = cursor + 1
            }
            cursor += 1
        }
        return AASASourcePosition(offset: offset, line: line, column: offset - lineStart + 1)
    }

    private func syntax(_ message: String) -> AASAParseError {
        AASAParseError(.invalidJSON, "invalid JSON: " + message, at: currentPosition)
    }

    private func describeCurrent() -> String {
        guard let byte = peek() else { return "end of file" }
        return "'\(describeByte(byte))'"
    }

    private func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return String(UnicodeScalar(byte)) }
        return "0x" + String(byte, radix: 16, uppercase: true)
    }

    /// The offset of the first byte that breaks UTF-8 (overlongs, surrogates and > U+10FFFF included), if any.
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lowerBound: UInt8 = 0x80
            var upperBound: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lowerBound = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upperBound = 0x9F
            case 0xF0:
                length = 4
                lowerBound = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upperBound = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = bytes[index + 1]
            guard second >= lowerBound && second <= upperBound else { return index + 1 }
            for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 {
                return index + offset
            }
            index += length
        }
        return nil
    }
}
