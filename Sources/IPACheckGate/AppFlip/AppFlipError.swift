/// An App Flip input that is not what it claims: a config file that cannot be read, or a link that cannot be used.
///
/// The CLI maps these to exit code 2 with ``description`` as its one stderr line.
public struct AppFlipError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is, stable for tests and scripts.
    public enum Code: String, Hashable, Sendable, Codable {
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
    public let code: Code
    /// Where: the file, and the key inside it (`appflip.json: scopes[1]`), or the argument.
    public let context: String
    /// What is wrong, in words a person can act on.
    public let reason: String

    /// Creates an error.
    public init(_ code: Code, context: String, reason: String) {
        self.code = code
        self.context = context
        self.reason = reason
    }

    /// `appflip.json: clientID: must be a non-empty string`.
    public var description: String { "\(context): \(reason)" }
}
