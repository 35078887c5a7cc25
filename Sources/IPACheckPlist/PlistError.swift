/// A property list that could not be read.
public struct PlistError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What went wrong, in words a person can act on.
    public let reason: String

    /// Creates an error with a reason.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
