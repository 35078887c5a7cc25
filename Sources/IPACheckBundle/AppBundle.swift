package import IPACheckPlist
package import IPACheckSigning

/// One bundle of an ipa: its identity from Info.plist and where its executable, profile and seal are.
package struct AppBundle: Sendable, Hashable, Encodable {
    /// The bundle's folder inside the archive (`Payload/App.app/PlugIns/Share.appex`).
    package let path: String
    /// What kind of bundle it is.
    package let kind: BundleKind
    /// The folder of the bundle that contains this one, or nil for the main app.
    package let parent: String?
    /// `CFBundleIdentifier`.
    package let bundleID: String?
    /// `CFBundleDisplayName`, else `CFBundleName`.
    package let name: String?
    /// `CFBundleShortVersionString`.
    package let version: String?
    /// `CFBundleVersion`.
    package let build: String?
    /// `DTPlatformName`, else the first of `CFBundleSupportedPlatforms` (`iphoneos`, `iphonesimulator`, …).
    package let platform: String?
    /// `MinimumOSVersion` (or `LSMinimumSystemVersion`).
    package let minimumOSVersion: String?
    /// The executable's path inside the archive, if Info.plist names one that exists.
    package let executable: String?
    /// The path of `embedded.mobileprovision`, if the bundle has one.
    package let provisioningProfile: String?
    /// The path of `_CodeSignature/CodeResources`, if the bundle has one.
    package let codeResources: String?
    /// The path of `Info.plist`.
    package let infoPlistPath: String
    /// The whole Info.plist, for checks that need more keys.
    package let infoPlist: PlistValue
    /// The digests of Info.plist's bytes, taken when it was read to find the bundle: what special slot −1 and a
    /// parent's resource seal compare, so the file is never read twice.
    package let infoPlistDigests: FileDigests

    /// The bundle's folder name (`Share.appex`).
    package var folderName: String {
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
