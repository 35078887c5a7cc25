/// How the app is signed, which decides whether `?mode=developer` entries work at all.
package enum SigningKind: String, Hashable, Sendable, Codable {
    /// Development profile (`get-task-allow`): developer-mode domains work on devices that opted in.
    case development
    /// App Store, TestFlight, ad hoc or enterprise: iOS silently ignores `?mode=developer` entries.
    case distribution
}
