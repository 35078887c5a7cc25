import Foundation
import IPACheckLinks
package import IPACheckPlist
package import IPACheckReport
import IPACheckSigning

/// A project's entitlements file (`.entitlements`, or the `.xcent` Xcode writes at build time), read as the
/// entitlements the app will be signed with, so `domains` and `check` can hold it against the live AASA files
/// before anything is built.
///
/// Xcode expands build settings such as `$(AppIdentifierPrefix)` when it signs; a file may still hold them. They
/// are reported, never guessed: an application identifier that holds one needs `--app-id`, and an associated
/// domain that holds one is left out of the checks.
package struct EntitlementsFile: Sendable {
    /// The largest file read; real ones are a few kilobytes.
    package static let maximumSize = 1024 * 1024

    /// The path read.
    package let path: String
    /// The entitlements, with unexpanded associated domains left out.
    package let entitlements: [String: PlistValue]
    /// The application identifier: `--app-id` when given, else the file's own when it holds no build setting.
    package let appID: String?
    /// The application identifier as written, when it holds a build setting and no `--app-id` stands in for it.
    package let unexpandedAppID: String?

    /// Reads the file at `path`; `appID` (from `--app-id`) wins over the file's own.
    ///
    /// - Throws: ``InputError`` when the file cannot be read, is not a property-list dictionary, or is another of a
    ///   project's property lists (an Info.plist, a profile's content, a GoogleService-Info.plist).
    package static func read(path: String, appID override: String?) throws(InputError) -> EntitlementsFile {
        let bytes = try InputFile.read(path, limit: maximumSize, what: "an entitlements file")
        let value: PlistValue
        do {
            value = try PlistParser.parse(bytes)
        } catch {
            throw InputError("bad-entitlements", file: path, "not a property list: \(error.reason)")
        }
        guard let entitlements = value.dictionaryValue else {
            throw InputError(
                "bad-entitlements",
                file: path,
                "is \(value.typeNameWithArticle), not an entitlements dictionary"
            )
        }
        if let other = otherPropertyList(entitlements) {
            throw InputError("bad-entitlements", file: path, "is \(other), not an entitlements file: \(other.remedy)")
        }
        let written = (entitlements["application-identifier"] ?? entitlements["com.apple.application-identifier"])?
            .stringValue
        let unexpanded = written.flatMap { Self.holdsSetting($0) && override == nil ? $0 : nil }
        let appID = override ?? written.flatMap { Self.holdsSetting($0) ? nil : $0 }
        return EntitlementsFile(path: path, entitlements: entitlements, appID: appID, unexpandedAppID: unexpanded)
    }

    /// A property list a project holds beside its entitlements, told by a key no entitlements file has.
    struct OtherPropertyList: CustomStringConvertible, Equatable {
        /// What it is, with the key that says so ("an Info.plist (it has CFBundleIdentifier)").
        let description: String
        /// What to give instead.
        let remedy: String
    }

    /// What `dictionary` is when it is another of a project's property lists; nil when nothing says so.
    ///
    /// An empty dictionary is an app with no entitlements. Read as entitlements, another file claims no domain and
    /// `check` passed it: a CI step pointed at the wrong file passed a gate that judged nothing.
    static func otherPropertyList(_ dictionary: [String: PlistValue]) -> OtherPropertyList? {
        let instead = "give the app's .entitlements file, or the ipa"
        if let key = ["CFBundleIdentifier", "CFBundleExecutable", "CFBundlePackageType"].first(where: {
            dictionary[$0] != nil
        }) {
            return OtherPropertyList(description: "an Info.plist (it has \(key))", remedy: instead)
        }
        if dictionary["ExpirationDate"] != nil, dictionary["Entitlements"] != nil {
            return OtherPropertyList(
                description: "a provisioning profile's content (it has ExpirationDate and Entitlements)",
                remedy: "give the .mobileprovision itself to `ipacheck profile`, or the ipa"
            )
        }
        if dictionary["GOOGLE_APP_ID"] != nil {
            return OtherPropertyList(description: "a GoogleService-Info.plist (it has GOOGLE_APP_ID)", remedy: instead)
        }
        return nil
    }

    /// Whether `text` holds an Xcode build setting reference (`$(NAME)` or `${NAME}`).
    static func holdsSetting(_ text: String) -> Bool {
        text.contains("$(") || text.contains("${")
    }

    /// The facts the gate's cross-checks start from, for a stand-in bundle named after the file.
    ///
    /// Every entry keeps its index in the file's array; one that holds a build setting is listed as pending (Xcode
    /// has yet to expand it) and left out of the checks (iOS never sees it as written).
    package func facts() -> BundleFacts {
        let parsed = AssociatedDomains.from(
            entitlements: .dictionary(entitlements),
            bundle: path,
            settingsPending: true
        )
        let bundleID = appID.map { String($0.drop { $0 != "." }.dropFirst()) }
        return BundleFacts(
            bundle: .standIn(forEntitlementsFile: path, bundleID: bundleID),
            container: nil,
            slices: [],
            entitlements: entitlements,
            appID: appID,
            profile: nil,
            profileSignature: nil,
            domains: parsed.domains,
            signingKind: nil,
            unexpandedAppID: unexpandedAppID,
            unreadableExecutable: nil,
            unreadableProfile: nil,
            entryProblems: parsed.problems
        )
    }
}
