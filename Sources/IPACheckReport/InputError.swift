/// An input that could not be read or is not what it claims (exit code 2).
///
/// The CLI prints it as one line, `FILE: what is wrong`, so a person sees at once which file to look at.
public struct InputError: Error, Hashable, CustomStringConvertible, Sendable {
    /// A stable, kebab-case code for scripts and tests (`not-a-zip`, `no-app-bundle`).
    public let code: String
    /// The file the problem is in, as the user named it.
    public let file: String
    /// What is wrong, in one sentence.
    public let message: String

    /// Creates an error.
    public init(_ code: String, file: String, _ message: String) {
        self.code = code
        self.file = file
        self.message = message
    }

    /// The one line the CLI prints, such as `App.ipa: not a zip archive`.
    public var description: String { "\(file): \(message)" }
}
