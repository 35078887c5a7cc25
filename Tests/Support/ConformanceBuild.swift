import Crypto
import Foundation
import IPACheckBinary
package import IPACheckPlist
import Testing

/// The builds of the conformance matrix: one app in team `7QX3KD52VH`, signed with an identity (a CMS message of a
/// test root over its CodeDirectory) or ad hoc, with an embedded profile of each kind that grants what it signs.
package enum ConformanceBuild {
    /// How the build is signed and provisioned (docs/ios-model.md#install).
    package enum Kind: String, CaseIterable, Sendable {
        case development, adHoc, enterprise, appStore
        /// Code signed without an identity (an empty CMS wrapper), with an ad hoc profile: installs on no device.
        case noIdentity

        package var profile: PlistValue {
            let devices: Int? = (self == .development || self == .adHoc || self == .noIdentity) ? 2 : nil
            return ProfileBuilder.payload(
                teamID: "7QX3KD52VH",
                bundleID: ConformanceBuild.bundleID,
                entitlements: [:],
                getTaskAllow: self == .development,
                devices: devices,
                provisionsAllDevices: self == .enterprise
            )
        }
    }

    package static let bundleID = "com.example.matrix"
    package static let appID = "7QX3KD52VH.com.example.matrix"

    /// Writes the ipa: the app claims `domains`, signed with the MDM-managed entitlement when `mdm`; the profile
    /// grants exactly the signed associated domains (and the MDM entitlement when signed).
    package static func write(kind: Kind, domains: [String], mdm: Bool) throws -> String {
        var entitlements: [(key: String, value: PlistValue)] = [
            ("application-identifier", .string(appID)),
            ("com.apple.developer.team-identifier", .string("7QX3KD52VH")),
            ("get-task-allow", .bool(kind == .development)),
            ("com.apple.developer.associated-domains", .array(domains.map { .string($0) })),
        ]
        if mdm { entitlements.append(("com.apple.developer.associated-domains.mdm-managed", .bool(true))) }
        var payload = kind.profile
        if case .dictionary(var root) = payload, case .dictionary(var granted)? = root["Entitlements"] {
            for entry in entitlements where entry.key.hasPrefix("com.apple.developer.associated-domains") {
                granted[entry.key] = entry.value
            }
            root["Entitlements"] = .dictionary(granted)
            payload = .dictionary(root)
        }
        let profile = try ProfileBuilder(payload: payload).build()
        let info = PlistFixture.info([
            "CFBundleIdentifier": bundleID, "CFBundleExecutable": "Matrix", "CFBundlePackageType": "APPL",
            "DTPlatformName": "iphoneos", "CFBundleVersion": "1",
        ])
        var signing = EntitlementsFixture.signing(entitlements, info: info)
        let seal = codeResources(sealing: ["embedded.mobileprovision": profile])
        signing.codeResources = seal
        var executable: [UInt8]
        if kind == .noIdentity {
            executable = MachOBuilder.slice(signing: signing)
        } else {
            signing.flags = 0
            signing.cms = [UInt8](repeating: 0, count: 8192)
            executable = try identitySigned(MachOBuilder.slice(signing: signing))
        }
        var zip = ZipBuilder()
        zip.add("Payload/Matrix.app/Info.plist", info)
        zip.add("Payload/Matrix.app/Matrix", executable)
        zip.add("Payload/Matrix.app/embedded.mobileprovision", profile)
        zip.add("Payload/Matrix.app/_CodeSignature/CodeResources", seal)
        return try zip.write(named: "Matrix.ipa")
    }

    /// Writes the ipa of one matrix build: `shape`'s entries in `mode`'s mode, MDM-signed as `mode` says.
    package static func write(kind: Kind, mode: Conformance.ModeCase, shape: Conformance.Shape) throws -> String {
        try write(kind: kind, domains: shape.entries(mode: mode.mode), mdm: mode.mdm)
    }

    /// `_CodeSignature/CodeResources` sealing `files` (SHA-1 and SHA-256), with Xcode's omit rule for Info.plist.
    private static func codeResources(sealing files: [String: [UInt8]]) -> [UInt8] {
        func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
        var entries = ""
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            entries += "<key>\(path)</key><dict><key>hash</key><data>\(base64(Array(Insecure.SHA1.hash(data: bytes))))"
            entries += "</data><key>hash2</key><data>\(base64(Array(SHA256.hash(data: bytes))))</data></dict>"
        }
        return Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>files2</key><dict>\(entries)</dict>
            <key>rules2</key><dict><key>^Info\\.plist$</key><dict><key>omit</key><true/></dict></dict>
            </dict></plist>
            """.utf8
        )
    }

    /// The slice with its CMS blob replaced by a message of a test root over its primary CodeDirectory, padded to
    /// the size `LC_CODE_SIGNATURE` reserves, so every code-page hash stays as signed.
    private static func identitySigned(_ bytes: [UInt8]) throws -> [UInt8] {
        let slice = try #require(try MachOContainer.parse(bytes).slices.first)
        let range = try #require(slice.signatureFileRange)
        let signature = try #require(slice.signature)
        let blobs = signature.blobs.map { ($0.slot, $0.bytes) }
        let directory = try #require(blobs.first { $0.0 == 0 }).1
        var builder = ProfileBuilder(payload: .dictionary([:]))
        builder.signedContent = directory
        builder.detachesContent = true
        let message = try builder.build()
        let superBlob = SuperBlobBuilder.superBlob(
            blobs.map { $0.0 == 0x10000 ? ($0.0, SuperBlobBuilder.blob(magic: 0xfade_0b01, payload: message)) : $0 }
        )
        try #require(superBlob.count <= range.count)
        return Array(bytes[..<range.lowerBound]) + superBlob
            + [UInt8](repeating: 0, count: range.count - superBlob.count)
    }
}
