public import IPACheckPlist

/// One bundle of an ipa: its identity from Info.plist and where its executable, profile and seal are.
public struct AppBundle: Sendable, Hashable, Encodable {
    /// The bundle's folder inside the archive (`Payload/App.app/PlugIns/Share.appex`).
    public let path: String
    /// What kind of bundle it is.
    public let kind: BundleKind
    /// The folder of the bundle that contains this one, or nil for the main app.
    public let parent: String?
    /// `CFBundleIdentifier`.
    public let bundleID: String?
    /// `CFBundleDisplayName`, else `CFBundleName`.
    public let name: String?
    /// `CFBundleShortVersionString`.
    public let version: String?
    /// `CFBundleVersion`.
    public let build: String?
    /// `DTPlatformName`, else the first of `CFBundleSupportedPlatforms` (`iphoneos`, `iphonesimulator`, …).
    public let platform: String?
    /// `MinimumOSVersion` (or `LSMinimumSystemVersion`).
    public let minimumOSVersion: String?
    /// The executable's path inside the archive, if Info.plist names one that exists.
    public let executable: String?
    /// The path of `embedded.mobileprovision`, if the bundle has one.
    public let provisioningProfile: String?
    /// The path of `_CodeSignature/CodeResources`, if the bundle has one.
    public let codeResources: String?
    /// The path of `Info.plist`.
    public let infoPlistPath: String
    /// The whole Info.plist, for checks that need more keys.
    public let infoPlist: PlistValue
    /// The digests of Info.plist's bytes, taken when it was read to find the bundle: what special slot −1 and a
    /// parent's resource seal compare, so the file is never read twice.
    public let infoPlistDigests: FileDigests

    /// The bundle's folder name (`Share.appex`).
    public var folderName: String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// A stand-in for the app an entitlements file (`.entitlements`, `.xcent`) will be signed into, named after
    /// the file: no Info.plist, executable, profile or seal, so only what the entitlements say can be checked.
    package static func standIn(forEntitlementsFile path: String, bundleID: String?) -> AppBundle {
        AppBundle(
            path: path,
            kind: .app,
            parent: nil,
            bundleID: bundleID,
            name: nil,
            version: nil,
            build: nil,
            platform: nil,
            minimumOSVersion: nil,
            executable: nil,
            provisioningProfile: nil,
            codeResources: nil,
            infoPlistPath: path,
            infoPlist: .dictionary([:]),
            infoPlistDigests: FileDigests(of: [UInt8]())
        )
    }

    /// The identity keys `ipacheck info` prints; the whole Info.plist and member paths stay out of the JSON.
    private enum CodingKeys: String, CodingKey {
        case path, kind, parent, bundleID, name, version, build, platform, minimumOSVersion, executable
    }
}
