/// A property list that could not be read.
package struct PlistError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What went wrong, in words a person can act on.
    package let reason: String

    /// Creates an error with a reason.
    package init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    package var description: String { reason }
}
