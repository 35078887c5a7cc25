/// How a profile distributes the app: decides which devices install it and whether `?mode=developer`
/// associated domains can ever work with it.
package enum ProfileKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// Xcode builds for registered devices; `get-task-allow` true (iOS), device list (macOS).
    case development
    /// Registered devices, distribution signing (`get-task-allow` false).
    case adHoc = "ad-hoc"
    /// App Store and TestFlight: no device list.
    case appStore = "app-store"
    /// In-house (Apple Developer Enterprise Program): `ProvisionsAllDevices`.
    case enterprise
    /// macOS Developer ID: `ProvisionsAllDevices` on a macOS profile.
    case developerID = "developer-id"

    /// Whether builds signed with this kind of profile are distribution builds (everything but development).
    package var isDistribution: Bool { self != .development }

    /// Classifies a profile from its keys, by the keys Apple's profiles carry.
    ///
    /// Enterprise ⇐ `ProvisionsAllDevices`; development ⇐ devices + `get-task-allow`; ad hoc ⇐ devices without
    /// it; App Store ⇐ no devices. On macOS, where `get-task-allow` is not in profiles, a device list means
    /// development and `ProvisionsAllDevices` means Developer ID.
    static func classify(
        isMacOS: Bool,
        hasDeviceList: Bool,
        provisionsAllDevices: Bool,
        getTaskAllow: Bool
    ) -> ProfileKind {
        if isMacOS {
            if provisionsAllDevices { return .developerID }
            return hasDeviceList ? .development : .appStore
        }
        if provisionsAllDevices { return .enterprise }
        if getTaskAllow { return .development }
        return hasDeviceList ? .adHoc : .appStore
    }
}
