package import Foundation
import IPACheckCMS
package import IPACheckPlist

/// A provisioning profile (`embedded.mobileprovision`, macOS `embedded.provisionprofile`): what Apple allows
/// this app to claim, on which devices, until when.
///
/// The profile is a CMS `SignedData` message around a property list. ``parse(_:allowingUnsigned:)`` reads both;
/// ``verifySignature()`` checks the CMS signature over the property list.
///
/// - Important: real profiles carry people's names and device IDs. This model keeps only the device *count*;
///   ``payload`` still holds everything and must never be printed where output may be shared.
package struct ProvisioningProfile: Hashable, Sendable {
    /// The largest file accepted.
    ///
    /// Real profiles are 5–50 KB; a profile listing the maximum number of devices
    /// stays far below this.
    package static let maximumSize = 2 * 1024 * 1024

    /// `Name`: the profile's name in the developer portal.
    package var name: String?
    /// `UUID`.
    package var uuid: String?
    /// `TeamIdentifier`.
    package var teamIdentifiers: [String]
    /// `TeamName`.
    package var teamName: String?
    /// `AppIDName`: the App ID's description in the portal.
    package var appIDName: String?
    /// `ApplicationIdentifierPrefix`.
    package var applicationIdentifierPrefixes: [String]
    /// `Entitlements`: what a signature made with this profile may claim.
    package var entitlements: [String: PlistValue]
    /// `CreationDate`.
    package var creationDate: Date?
    /// `ExpirationDate`: after it the app no longer launches (development, ad hoc, enterprise).
    package var expirationDate: Date?
    /// How many `ProvisionedDevices` there are; `nil` when the key is absent (App Store, enterprise).
    package var provisionedDeviceCount: Int?
    /// `ProvisionsAllDevices` (enterprise and Developer ID).
    package var provisionsAllDevices: Bool
    /// `Platform` (`iOS`, `OSX`, `xrOS`, …), as written.
    package var platforms: [String]
    /// `IsXcodeManaged`, when present.
    package var isXcodeManaged: Bool?
    /// `DeveloperCertificates`, summarised.
    package var developerCertificates: [DeveloperCertificate]
    /// Whether `DER-Encoded-Profile` (the DER form newer iOS versions use) is present.
    package var hasDEREncodedProfile: Bool
    /// The distribution kind derived from the keys above.
    package var kind: ProfileKind
    /// The whole property list.
    ///
    /// Holds device IDs and names: never print it.
    package var payload: PlistValue

    /// The CMS envelope the payload came from; `nil` for an unsigned property list.
    let envelope: CMSSignedData?

    /// Whether the profile came in a CMS envelope (`false` only for `allowingUnsigned` property lists).
    package var isSigned: Bool { envelope != nil }

    /// Whether the profile is for macOS (`Platform` contains `OSX` or `macOS`).
    package var isMacOS: Bool { platforms.contains("OSX") || platforms.contains("macOS") }

    /// Reads a provisioning profile.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - allowingUnsigned: Also accept a bare property list (XML or binary) without its CMS envelope, as
    ///     some tools and test fixtures store them; ``isSigned`` is then `false`. Devices refuse such files.
    /// - Throws: ``ProvisioningError`` naming what is wrong: empty, not CMS, malformed CMS, no content, not a
    ///   property list, an unsigned property list (when not allowed).
    package static func parse(
        _ bytes: [UInt8],
        allowingUnsigned: Bool = false
    ) throws(ProvisioningError) -> ProvisioningProfile {
        guard !bytes.isEmpty else {
            throw ProvisioningError(.empty, "the file is empty (0 bytes)")
        }
        guard bytes.count <= maximumSize else {
            throw ProvisioningError(
                .tooLarge,
                "\(bytes.count) bytes is larger than the \(maximumSize)-byte limit for a provisioning profile"
            )
        }
        guard bytes[0] == 0x30 else {
            return try parseBare(bytes, allowingUnsigned: allowingUnsigned)
        }
        let envelope: CMSSignedData
        do {
            envelope = try CMSSignedData.parse(bytes)
        } catch {
            switch error.code {
            case .notSignedData: throw ProvisioningError(.notSignedData, "\(error)")
            case .tooLarge, .malformed, .tooManyElements:
                throw ProvisioningError(.malformedCMS, "malformed CMS in \(error)")
            }
        }
        guard let content = envelope.content else {
            throw ProvisioningError(
                .missingContent,
                "SignedData has no embedded content (a detached signature): there is no property list to read"
            )
        }
        let payload: PlistValue
        do {
            payload = try PlistParser.parse(content)
        } catch {
            throw ProvisioningError(
                .malformedPropertyList,
                "the signed content (\(content.count) bytes) is not a property list: \(error.reason)"
            )
        }
        return try ProvisioningProfile(payload: payload, envelope: envelope)
    }

    /// A file that does not start like CMS: say what it is instead.
    private static func parseBare(
        _ bytes: [UInt8],
        allowingUnsigned: Bool
    ) throws(ProvisioningError) -> ProvisioningProfile {
        let head = bytes.prefix(64)
        let looksLikeXML = head.contains(UInt8(ascii: "<"))
        let looksLikeBinaryPlist = bytes.starts(with: Array("bplist".utf8))
        guard looksLikeXML || looksLikeBinaryPlist else {
            let first = String(bytes[0], radix: 16, uppercase: true)
            throw ProvisioningError(
                .notCMS,
                "not a CMS-signed profile: the first byte is 0x\(first), a CMS structure starts with 0x30"
            )
        }
        let payload: PlistValue
        do {
            payload = try PlistParser.parse(bytes)
        } catch {
            throw ProvisioningError(
                .notCMS,
                "not a CMS-signed profile, and not a readable property list either: \(error.reason)"
            )
        }
        guard allowingUnsigned else {
            throw ProvisioningError(
                .unsignedPropertyList,
                "an unsigned \(looksLikeBinaryPlist ? "binary" : "XML") property list, not a CMS-signed profile"
            )
        }
        return try ProvisioningProfile(payload: payload, envelope: nil)
    }

    /// The keys every provisioning profile Apple issues has; a property list with none of them is something else.
    static let profileKeys = ["UUID", "ExpirationDate", "Entitlements", "DeveloperCertificates"]

    /// Builds the model from a profile's property list.
    ///
    /// - Throws: ``ProvisioningError/Code/notADictionary`` when the root is not a dictionary.
    package init(payload: PlistValue) throws(ProvisioningError) {
        try self.init(payload: payload, envelope: nil)
    }

    init(payload: PlistValue, envelope: CMSSignedData?) throws(ProvisioningError) {
        guard let root = payload.dictionaryValue else {
            throw ProvisioningError(
                .notADictionary,
                "the property list's root is \(payload.typeNameWithArticle), a profile's is a dictionary"
            )
        }
        guard Self.profileKeys.contains(where: { root[$0] != nil }) else {
            let configuration = root["PayloadType"]?.stringValue == "Configuration"
            throw ProvisioningError(
                .notAProfile,
                (configuration ? "a configuration profile (.mobileconfig), " : "a property list, ")
                    + "not a provisioning profile: it has none of "
                    + Self.profileKeys.joined(separator: ", ")
            )
        }
        self.payload = payload
        self.envelope = envelope
        name = root["Name"]?.stringValue
        uuid = root["UUID"]?.stringValue
        teamIdentifiers = root["TeamIdentifier"]?.stringArray ?? []
        teamName = root["TeamName"]?.stringValue
        appIDName = root["AppIDName"]?.stringValue
        applicationIdentifierPrefixes = root["ApplicationIdentifierPrefix"]?.stringArray ?? []
        entitlements = root["Entitlements"]?.dictionaryValue ?? [:]
        creationDate = root["CreationDate"]?.dateValue
        expirationDate = root["ExpirationDate"]?.dateValue
        provisionedDeviceCount = root["ProvisionedDevices"]?.arrayValue?.count
        provisionsAllDevices = root["ProvisionsAllDevices"]?.boolValue ?? false
        platforms = root["Platform"]?.stringArray ?? []
        isXcodeManaged = root["IsXcodeManaged"]?.boolValue
        developerCertificates = (root["DeveloperCertificates"]?.arrayValue ?? []).compactMap { value in
            value.dataValue.map(DeveloperCertificate.init(der:))
        }
        hasDEREncodedProfile = root["DER-Encoded-Profile"] != nil
        kind = ProfileKind.classify(
            isMacOS: platforms.contains("OSX") || platforms.contains("macOS"),
            hasDeviceList: provisionedDeviceCount != nil,
            provisionsAllDevices: provisionsAllDevices,
            getTaskAllow: entitlements["get-task-allow"]?.boolValue ?? false
        )
    }
}
