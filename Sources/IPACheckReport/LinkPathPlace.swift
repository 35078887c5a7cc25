/// Where a rule's findings stand on the path a universal link takes from a tap to the app: what `explain` walks
/// step by step and what `domains` and `links` call a usable entry (docs/ios-model.md).
///
/// Declared with the rule (or for its whole set), so that a new rule says once whether it can stop a link, and
/// nothing lists rule IDs by hand.
package enum LinkPathPlace: Sendable, Hashable {
    /// Where the finding says: one without a domain concerns the build and stands on every link's path, one with a
    /// domain on the path of that host's links (its entry).
    case byFinding
    /// Never on a link's path: App Flip, Firebase, the config's expectations and release policy (a development
    /// profile installs on the devices it lists: docs/ios-model.md#install).
    case offPath
    /// Keeps the build from installing, so it stands on every link's path whatever its domain (the profile must
    /// grant every signed entitlement).
    case install
    /// About the host's file (how it is served, Apple's CDN copy, its content) rather than the bundle's entry.
    case hostFile
}
