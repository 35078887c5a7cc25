/// How bad a finding is; ordered so that `error > warning > note`.
package enum Severity: String, Codable, Comparable, CaseIterable, Sendable {
    /// Worth knowing; never fails a gate on its own unless asked.
    case note
    /// Probably wrong, or right only by luck.
    case warning
    /// Will break universal links, web credentials, App Clips or App Flip for users.
    case error

    /// 0 for a note, 1 for a warning, 2 for an error.
    var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    /// Orders by badness.
    package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
