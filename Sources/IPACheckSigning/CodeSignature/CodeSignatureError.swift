/// A code-signature structure (DER entitlements, CMS message, resource seal) that could not be decoded.
package struct CodeSignatureError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What was being decoded (`"DER entitlements"`, `"CMS signature"`).
    package let subject: String
    /// What is wrong, in words a person can act on.
    package let reason: String

    /// Creates an error.
    package init(_ subject: String, _ reason: String) {
        self.subject = subject
        self.reason = reason
    }

    /// `DER entitlements: nested deeper than 32 levels`.
    package var description: String { "\(subject): \(reason)" }
}
