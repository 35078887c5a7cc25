/// An App Flip input that is not what it claims: a config file that cannot be read, or a link that cannot be used.
///
/// The CLI maps these to exit code 2 with ``description`` as its one stderr line.
package struct AppFlipError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is, stable for tests and scripts.
    package enum Code: String, Hashable, Sendable, Codable {
        /// The file is empty, too large or not UTF-8 JSON.
        case unreadable
        /// The JSON does not parse.
        case malformedJSON
        /// The top level is not a JSON object.
        case notAnObject
        /// A required key is absent.
        case missingKey
        /// A key holds the wrong JSON type.
        case wrongType
        /// A key holds a value of the right type that is not allowed.
        case invalidValue
        /// A key this schema does not define (usually a typo).
        case unknownKey
        /// A URL that cannot serve as the App Flip universal link.
        case invalidLink
    }

    /// The kind of problem.
    package let code: Code
    /// Where: the file (or the argument) concerned.
    package let subject: String
    /// The key inside the file (`clientID`, `scopes[1]`), when the error is about one.
    package let key: String?
    /// What is wrong, in words a person can act on.
    package let reason: String

    /// Creates an error about a file or an argument as a whole.
    package init(_ code: Code, context: String, reason: String) {
        self.code = code
        self.subject = context
        self.key = nil
        self.reason = reason
    }

    /// Creates an error about `key` of the config file `file`.
    package init(_ code: Code, file: String, key: String, reason: String) {
        self.code = code
        self.subject = file
        self.key = key
        self.reason = reason
    }

    /// Where, in one string: `appflip.json: scopes[1]`, or the file or argument alone.
    package var context: String { key.map { "\(subject): \($0)" } ?? subject }

    /// What follows the file's name, for a message that names the file itself: `scopes[1]: …`.
    package var detail: String { key.map { "\($0): \(reason)" } ?? reason }

    /// `appflip.json: clientID: must be a non-empty string`.
    package var description: String { "\(context): \(reason)" }
}
