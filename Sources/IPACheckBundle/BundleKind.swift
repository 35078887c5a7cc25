/// What a bundle inside an ipa is, which decides where iOS looks for it and which rules apply.
package enum BundleKind: String, Codable, Sendable, CaseIterable {
    /// The main app (`Payload/X.app`).
    case app
    /// An app extension (`PlugIns/*.appex`, `Extensions/*.appex`).
    case appex
    /// An App Clip (`AppClips/*.app`).
    case appclip
    /// A watch app (`Watch/*.app`).
    case watch
    /// An embedded framework (`Frameworks/*.framework`).
    case framework
    /// A test bundle (`PlugIns/*.xctest`), as a build for testing holds one: signed nested code like any other.
    case xctest

    /// The folder a parent bundle keeps bundles of this kind in, and the extension they carry.
    static let containers: [(folder: String, suffix: String, kind: BundleKind)] = [
        ("PlugIns", ".appex", .appex),
        ("PlugIns", ".xctest", .xctest),
        ("Extensions", ".appex", .appex),
        ("AppClips", ".app", .appclip),
        ("Watch", ".app", .watch),
        ("Frameworks", ".framework", .framework),
    ]
}
