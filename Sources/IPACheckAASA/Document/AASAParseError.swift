/// Why an AASA file could not be read at all: Apple would reject it, so there is nothing to match or lint.
package struct AASAParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; each is one rule of the AASA family.
    package enum Code: String, Sendable, Hashable, CaseIterable {
        /// The file is empty (or only a BOM and white space).
        case empty
        /// The bytes are not valid UTF-8.
        case invalidUTF8
        /// The text is not strict JSON (RFC 8259): trailing comma, comment, single quotes, bad escape …
        case invalidJSON
        /// The JSON is valid but its top level is not an object.
        case rootNotObject
        /// Nesting deeper than ``AASADocument/Limits/maximumDepth``.
        case tooDeep
        /// More bytes than ``AASADocument/Limits/hardByteCap``; not read further.
        case tooLarge
        /// It starts like a CMS (PKCS#7) signed file but its structure is broken.
        case malformedCMS
    }

    /// The kind of failure.
    package var code: Code
    /// What is wrong, in one sentence that names the place.
    package var message: String
    /// Where in the JSON text (or the CMS envelope, as a byte offset) it went wrong, if known.
    package var position: AASASourcePosition?

    /// Creates an error.
    package init(_ code: Code, _ message: String, at position: AASASourcePosition? = nil) {
        self.code = code
        self.message = message
        self.position = position
    }

    /// The message with its position: `invalid JSON at line 3, column 5: trailing comma before '}'`.
    package var description: String {
        if let position { return "\(message) (\(position), byte \(position.offset))" }
        return message
    }
}
