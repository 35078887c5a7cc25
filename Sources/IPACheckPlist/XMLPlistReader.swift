import Foundation

/// Reads an XML property list one value at a time, so that a dictionary of a hundred thousand entries (the `files2`
/// of a large app's `_CodeSignature/CodeResources`) can be walked entry by entry without building it.
///
/// libplist builds the whole tree first, about a kilobyte for each entry of such a seal (100 MB for 100,000 files)
/// before ``PlistParser`` converts it; walking the text instead keeps only what the caller keeps. The grammar is
/// Apple's plist DTD: `dict`, `array`, `key`, `string`, `data`, `date`, `integer`, `real`, `true` and `false`,
/// the empty forms (`<dict/>`, `<string/>`), comments, processing instructions, a DOCTYPE without an internal
/// subset, the five predefined entities, character references and CDATA sections. Nesting is capped at
/// ``PlistParser/maximumDepth``; every read is bounds-checked and every error names the byte offset.
package struct XMLPlistReader {
    private let input: XMLPlistInput
    private var position = 0
    private var depth = 0
    /// Whether the top value stands inside `<plist>`, which ``finish()`` then expects closed.
    private var insidePlist = false

    /// Positions the reader on the document's top value (inside `<plist>`, if present).
    ///
    /// - Throws: ``PlistError`` when the bytes are not an XML document or have no value.
    package init(_ bytes: [UInt8]) throws(PlistError) {
        guard bytes.count <= PlistParser.maximumSize else {
            throw PlistError("\(bytes.count) bytes is larger than the \(PlistParser.maximumSize)-byte limit")
        }
        // XML allows no NUL character, and libplist would stop reading at one: refused, so that both never read
        // the same bytes differently.
        if let nul = bytes.firstIndex(of: 0) {
            throw PlistError("malformed XML property list at byte \(nul): a NUL byte, which XML does not allow")
        }
        try self.init(input: XMLPlistInput(bytes))
    }

    /// Positions a reader on the top value of the document `pull` gives a chunk at a time; a NUL byte, a stream
    /// that fails or one larger than `maximumSize` is an error where the reader meets it.
    ///
    /// The size limit of a document read whole (``PlistParser/maximumSize``) bounds what is held; a streamed one
    /// holds only a window, so its reader may allow more (a resource seal of a million files is 300 MB).
    ///
    /// - Throws: ``PlistError`` when the bytes are not an XML document or have no value.
    package init(
        pulling pull: @escaping () -> XMLPlistInput.PullResult,
        maximumSize: Int = PlistParser.maximumSize
    ) throws(PlistError) {
        try self.init(input: XMLPlistInput(pulling: pull, maximumSize: maximumSize))
    }

    private init(input: XMLPlistInput) throws(PlistError) {
        self.input = input
        if input.starts(with: [0xEF, 0xBB, 0xBF], at: 0) { position = 3 }
        try skipMisc()
        guard try peekTag()?.name == "plist" else { return }
        let tag = try readTag()
        guard !tag.isEmptyElement else { throw error("<plist/> holds no value") }
        insidePlist = true
    }

    /// Checks that nothing but `</plist>`, comments and whitespace follow the top value, once it is read.
    ///
    /// - Throws: ``PlistError`` when anything else follows.
    package mutating func finish() throws(PlistError) {
        if insidePlist {
            try closeElement("plist")
            insidePlist = false
        }
        try skipMisc()
        guard input.byte(at: position) == nil else { throw error("more follows the property list's value") }
        // A streamed document that ended early (a NUL byte after the value, a read error) is not a whole one.
        if let failure = input.failure { throw failure }
    }

    /// Whether `bytes` look like an XML property list rather than a binary one.
    package static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(64).drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || isSpace($0) }
        return head.first == UInt8(ascii: "<")
    }

    // MARK: - Values

    /// Reads the next value whole.
    ///
    /// - Throws: ``PlistError`` when it is malformed or nested deeper than ``PlistParser/maximumDepth``.
    package mutating func readValue() throws(PlistError) -> PlistValue {
        let tag = try readOpeningTag()
        switch tag.name {
        case "dict":
            var dictionary: [String: PlistValue] = [:]
            try forEntries(of: tag) { key, reader throws(PlistError) in
                // The last of repeated keys wins, as with libplist (``PlistParser``).
                dictionary[key] = try reader.readValue()
            }
            return .dictionary(dictionary)
        case "array":
            var array: [PlistValue] = []
            try enter()
            if !tag.isEmptyElement {
                while try !atClosingTag("array") { array.append(try readValue()) }
            }
            depth -= 1
            return .array(array)
        case "string": return .string(try text(of: tag))
        case "data": return .data(base64(try text(of: tag)))
        case "integer":
            let text = try text(of: tag).trimmingCharacters(in: .whitespacesAndNewlines)
            if let value = Int64(text) { return .integer(value) }
            if text.hasPrefix("0x") || text.hasPrefix("0X"), let value = UInt64(text.dropFirst(2), radix: 16) {
                return Int64(exactly: value).map(PlistValue.integer) ?? .unsignedInteger(value)
            }
            if let value = UInt64(text) { return .unsignedInteger(value) }
            throw error("\"\(text)\" is not an integer", at: tag.offset)
        case "real":
            let text = try text(of: tag).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let value = Double(text) else { throw error("\"\(text)\" is not a real number", at: tag.offset) }
            return .real(value)
        case "date":
            let text = try text(of: tag).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let date = PlistDate.date(iso8601: text) else {
                throw error("\"\(text)\" is not a date (YYYY-MM-DDTHH:MM:SSZ, years 0001 to 9999)", at: tag.offset)
            }
            return .date(date)
        case "true", "false":
            if !tag.isEmptyElement { try closeElement(tag.name) }
            return .bool(tag.name == "true")
        default:
            throw error("<\(tag.name)> is not a property-list element", at: tag.offset)
        }
    }

    /// Passes over the next value without keeping it.
    ///
    /// - Throws: ``PlistError`` when it is malformed.
    package mutating func skipValue() throws(PlistError) {
        let tag = try readOpeningTag()
        switch tag.name {
        case "dict":
            try forEntries(of: tag) { _, reader throws(PlistError) in try reader.skipValue() }
        case "array":
            try enter()
            if !tag.isEmptyElement {
                while try !atClosingTag("array") { try skipValue() }
            }
            depth -= 1
        case "true", "false":
            if !tag.isEmptyElement { try closeElement(tag.name) }
        case "string", "data", "integer", "real", "date":
            _ = try text(of: tag)
        default:
            throw error("<\(tag.name)> is not a property-list element", at: tag.offset)
        }
    }

    /// Calls `body` with each key of the dictionary that comes next, the reader placed on the key's value; `body`
    /// must read or skip that value.
    ///
    /// - Throws: ``PlistError`` when the next value is not a dictionary or is malformed; what `body` throws.
    package mutating func forEachEntry(
        _ body: (String, inout XMLPlistReader) throws(PlistError) -> Void
    ) throws(PlistError) {
        let tag = try readOpeningTag()
        guard tag.name == "dict" else { throw error("expected a dictionary, found <\(tag.name)>", at: tag.offset) }
        try forEntries(of: tag, body)
    }

    private mutating func forEntries(
        of tag: Tag,
        _ body: (String, inout XMLPlistReader) throws(PlistError) -> Void
    ) throws(PlistError) {
        try enter()
        defer { depth -= 1 }
        guard !tag.isEmptyElement else { return }
        while try !atClosingTag("dict") {
            let keyTag = try readOpeningTag()
            guard keyTag.name == "key" else {
                throw error("expected a <key> in a dictionary, found <\(keyTag.name)>", at: keyTag.offset)
            }
            let key = try text(of: keyTag)
            let before = position
            input.discard(before: keyTag.offset)
            try body(key, &self)
            guard position > before else { throw error("the value of key \"\(key)\" was not read", at: before) }
        }
    }

    private mutating func enter() throws(PlistError) {
        depth += 1
        guard depth <= PlistParser.maximumDepth else {
            throw error("property list nested deeper than \(PlistParser.maximumDepth) levels")
        }
    }

    // MARK: - Tags

    private struct Tag {
        let name: String
        let isEmptyElement: Bool
        let offset: Int
    }

    /// The next element's tag, without moving past it; nil at a closing tag.
    private mutating func peekTag() throws(PlistError) -> Tag? {
        let saved = position
        defer { position = saved }
        try skipMisc()
        guard byte(at: position) == UInt8(ascii: "<"), byte(at: position + 1) != UInt8(ascii: "/") else { return nil }
        return try readTag()
    }

    /// Moves past comments, whitespace and the next opening tag, which it returns.
    private mutating func readOpeningTag() throws(PlistError) -> Tag {
        try skipMisc()
        guard input.byte(at: position) != nil else { throw error("the document ends where a value should be") }
        guard byte(at: position) == UInt8(ascii: "<"), byte(at: position + 1) != UInt8(ascii: "/") else {
            throw error("expected an element")
        }
        return try readTag()
    }

    /// Reads `<name attributes>` or `<name/>` at `position`.
    private mutating func readTag() throws(PlistError) -> Tag {
        let offset = position
        position += 1
        let nameStart = position
        while let byte = byte(at: position), Self.isNameByte(byte) { position += 1 }
        guard position > nameStart else { throw error("a tag without a name", at: offset) }
        let name = String(decoding: input.slice(nameStart..<position), as: UTF8.self)
        var quote: UInt8?
        while let byte = byte(at: position) {
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: ">"):
                let empty = position >= 2 && input.byte(at: position - 2) == UInt8(ascii: "/")
                return Tag(name: name, isEmptyElement: empty, offset: offset)
            case UInt8(ascii: "<"): throw error("<\(name)> is not closed", at: offset)
            default: continue
            }
        }
        throw error("the document ends inside <\(name)>", at: offset)
    }

    /// Whether the next markup closes `name`; if so, moves past it.
    private mutating func atClosingTag(_ name: String) throws(PlistError) -> Bool {
        try skipMisc()
        guard input.byte(at: position) != nil else { throw error("the document ends before </\(name)>") }
        guard byte(at: position) == UInt8(ascii: "<"), byte(at: position + 1) == UInt8(ascii: "/") else {
            return false
        }
        try closeElement(name)
        return true
    }

    /// Moves past `</name>` (after whitespace and comments).
    private mutating func closeElement(_ name: String) throws(PlistError) {
        try skipMisc()
        let offset = position
        guard input.starts(with: Self.closingStart, at: position),
            input.starts(with: name.utf8, at: position + Self.closingStart.count)
        else { throw error("expected </\(name)>", at: offset) }
        position += Self.closingStart.count + name.utf8.count
        while let byte = byte(at: position), Self.isSpace(byte) { position += 1 }
        guard byte(at: position) == UInt8(ascii: ">") else { throw error("expected </\(name)>", at: offset) }
        position += 1
    }

    /// Moves past whitespace, comments, processing instructions and a DOCTYPE.
    private mutating func skipMisc() throws(PlistError) {
        while let byte = byte(at: position) {
            if Self.isSpace(byte) {
                position += 1
            } else if byte != UInt8(ascii: "<") {
                return
            } else if input.starts(with: Self.commentStart, at: position) {
                try skip(past: Self.commentEnd, what: "comment")
            } else if input.starts(with: Self.instructionStart, at: position) {
                try skip(past: Self.instructionEnd, what: "processing instruction")
            } else if input.starts(with: Self.doctypeStart, at: position) {
                try skipDoctype()
            } else {
                return
            }
        }
    }

    /// Moves past `<!DOCTYPE … >`: a `>` inside a quoted literal does not end it (as libplist reads it too), and
    /// an internal subset (`[ … ]`) is refused.
    private mutating func skipDoctype() throws(PlistError) {
        let offset = position
        position += Self.doctypeStart.count
        var quote: UInt8?
        while let byte = byte(at: position) {
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                throw error("a DOCTYPE with an internal subset is not read", at: offset)
            } else if byte == UInt8(ascii: ">") {
                return
            }
        }
        throw error("the document ends inside a DOCTYPE", at: offset)
    }

    private mutating func skip(past end: [UInt8], what: String) throws(PlistError) {
        let offset = position
        guard let found = input.firstRange(of: end, from: position) else {
            throw error("the document ends inside a \(what)", at: offset)
        }
        position = found.upperBound
    }

    // MARK: - Text

    /// The character data of the element opened by `tag`, up to and past its closing tag.
    private mutating func text(of tag: Tag) throws(PlistError) -> String {
        guard !tag.isEmptyElement else { return "" }
        var out: [UInt8] = []
        while true {
            guard let byte = byte(at: position) else { throw error("the document ends inside <\(tag.name)>") }
            if byte == UInt8(ascii: "&") {
                try appendReference(to: &out)
            } else if byte != UInt8(ascii: "<") {
                let run = input.loadedRun(from: position, endingBefore: Self.markupBytes)
                out.append(contentsOf: run)
                position += run.count
            } else if input.starts(with: Self.cdataStart, at: position) {
                let start = position + Self.cdataStart.count
                guard let end = input.firstRange(of: Self.cdataEnd, from: start) else {
                    throw error("the document ends inside a CDATA section")
                }
                out.append(contentsOf: input.slice(start..<end.lowerBound))
                position = end.upperBound
            } else if input.starts(with: Self.commentStart, at: position) {
                try skip(past: Self.commentEnd, what: "comment")
            } else {
                try closeElement(tag.name)
                return String(decoding: out, as: UTF8.self)
            }
        }
    }

    /// Appends what the reference at `position` (`&amp;`, `&#60;`, `&#x3C;`) stands for.
    private mutating func appendReference(to out: inout [UInt8]) throws(PlistError) {
        let offset = position
        guard
            let semicolon = (position..<(position + 16)).first(where: { input.byte(at: $0) == UInt8(ascii: ";") })
        else {
            throw error("an unterminated entity reference", at: offset)
        }
        let name = String(decoding: input.slice((position + 1)..<semicolon), as: UTF8.self)
        position = semicolon + 1
        let predefined = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        if let text = predefined[name] {
            out.append(contentsOf: text.utf8)
            return
        }
        var digits = Substring(name)
        guard digits.popFirst() == "#" else { throw error("unknown entity &\(name);", at: offset) }
        let radix = digits.first == "x" || digits.first == "X" ? 16 : 10
        if radix == 16 { digits = digits.dropFirst() }
        guard let value = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(value), value != 0 else {
            throw error("&\(name); is not a character", at: offset)
        }
        out.append(contentsOf: String(Character(scalar)).utf8)
    }

    /// Base64 as `<data>` holds it, read as libplist reads it: characters outside the alphabet and `=` (line
    /// breaks, indentation) are skipped; every group of four gives three bytes, or fewer when it ends in `=`
    /// (none when it starts with one); a group left incomplete at the end gives nothing.
    private func base64(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 4 * 3)
        // The group's four values (nil for `=`), gathered in `bits` as 6-bit fields from the top.
        var bits: UInt32 = 0
        var taken = 0
        var firstPadding: Int?
        for byte in text.utf8 {
            let value = Self.base64Value(byte)
            guard value != nil || byte == UInt8(ascii: "=") else { continue }
            if let value {
                bits |= UInt32(value) << (18 - 6 * taken)
            } else if firstPadding == nil {
                firstPadding = taken
            }
            taken += 1
            guard taken == 4 else { continue }
            // Bytes before the first `=`: none when it is among the first two values, else one fewer than it.
            let count = min(max((firstPadding ?? 4) - 1, 0), 3)
            for index in 0..<count { out.append(UInt8(truncatingIfNeeded: bits >> (16 - 8 * index))) }
            bits = 0
            taken = 0
            firstPadding = nil
        }
        return out
    }

    private static func base64Value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }

    // MARK: - Bytes

    private func byte(at index: Int) -> UInt8? {
        input.byte(at: index)
    }

    /// Why a streamed input ended early (a NUL byte, a read error, the size limit), if it did: the error to report
    /// rather than the "document ends" the reader met there.
    package var inputFailure: PlistError? { input.failure }

    private func error(_ message: String, at offset: Int? = nil) -> PlistError {
        PlistError("malformed XML property list at byte \(offset ?? position): \(message)")
    }

    private static let commentStart = Array("<!--".utf8)
    private static let commentEnd = Array("-->".utf8)
    private static let instructionStart = Array("<?".utf8)
    private static let instructionEnd = Array("?>".utf8)
    private static let doctypeStart = Array("<!DOCTYPE".utf8)
    private static let cdataStart = Array("<![CDATA[".utf8)
    private static let cdataEnd = Array("]]>".utf8)
    private static let closingStart = Array("</".utf8)
    /// The bytes that end a run of plain character data: a reference or markup starts there.
    private static let markupBytes: (UInt8, UInt8) = (UInt8(ascii: "&"), UInt8(ascii: "<"))

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: ":")
    }
}
