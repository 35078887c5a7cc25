/// A code-signature structure (DER entitlements, CMS message, resource seal) that could not be decoded.
public struct CodeSignatureError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What was being decoded (`"DER entitlements"`, `"CMS signature"`).
    public let subject: String
    /// What is wrong, in words a person can act on.
    public let reason: String

    /// Creates an error.
    public init(_ subject: String, _ reason: String) {
        self.subject = subject
        self.reason = reason
    }

    /// `DER entitlements: nested deeper than 32 levels`.
    public var description: String { "\(subject): \(reason)" }
}
