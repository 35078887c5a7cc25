/// The one shape of ipacheck's input errors: a code saying what kind of failure it is, and a sentence saying what
/// happened in words a user can act on.
///
/// Two errors are equal when their codes are, so tests compare kinds while the sentences stay free to improve.
package protocol CodedError: Error, Hashable, CustomStringConvertible, Sendable {
    /// The kind of failure.
    associatedtype Code: Hashable & Sendable

    /// What kind of failure it is.
    var code: Code { get }
    /// What happened, in words.
    var reason: String { get }
}

extension CodedError {
    /// Equal when the codes are.
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only, as equality compares it only.
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
