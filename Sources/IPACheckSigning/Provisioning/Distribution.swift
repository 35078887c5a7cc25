/// What a build is for, which decides what the gate accepts: `--distribution`, the config file's
/// `distribution`, or by default the kind of the main app's embedded profile.
package enum Distribution: String, Hashable, Sendable, CaseIterable, Codable {
    /// App Store and TestFlight.
    case appStore = "app-store"
    /// Registered devices, distribution signing.
    case adHoc = "ad-hoc"
    /// In-house (Apple Developer Enterprise Program).
    case enterprise
    /// A development build: development profiles, ad hoc and unsigned code, simulator builds are accepted.
    case development

    /// The distribution a profile of this kind is for (Developer ID profiles are macOS-only: none).
    package init?(profile: ProfileKind) {
        switch profile {
        case .appStore: self = .appStore
        case .adHoc: self = .adHoc
        case .enterprise: self = .enterprise
        case .development: self = .development
        case .developerID: return nil
        }
    }

    /// The profile kind this distribution needs.
    package var profileKind: ProfileKind {
        switch self {
        case .appStore: .appStore
        case .adHoc: .adHoc
        case .enterprise: .enterprise
        case .development: .development
        }
    }
}
