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
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: RuleSet {
        /// The set, its rules as declared below.
        package init() {}

        /// ENT201.
        package let unexpandedSetting = Rule(
            "ENT201",
            .warning,
            "build setting not expanded",
            summary: "A value of the entitlements file holds an Xcode build setting such as `$(AppIdentifierPrefix)` "
                + "or `$(DOMAIN)`; Xcode expands it when it signs, so ipacheck cannot know the value and leaves the "
                + "entry out of its checks.",
            fix: "Pass --app-id TEAMID.BUNDLE for the application identifier; for other values, check the built ipa "
                + "(or the .xcent Xcode writes into the build folder, where the settings are expanded)."
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// The largest file read; real ones are a few kilobytes.
    package static let maximumSize = 1024 * 1024

    /// The path read.
    package let path: String
    /// The entitlements, with unexpanded associated domains left out.
    package let entitlements: [String: PlistValue]
    /// The application identifier: `--app-id` when given, else the file's own when it holds no build setting.
    package let appID: String?
    /// The unexpanded build settings found.
    package let findings: [Finding]

    /// Reads the file at `path`; `appID` (from `--app-id`) wins over the file's own.
    ///
    /// - Throws: ``InputError`` when the file cannot be read or is not a property-list dictionary.
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
        var findings: [Finding] = []
        let written = (entitlements["application-identifier"] ?? entitlements["com.apple.application-identifier"])?
            .stringValue
        if let written, Self.holdsSetting(written), override == nil {
            findings.append(
                rules.unexpandedSetting.finding(
                    "application-identifier is \(written); pass --app-id with the identifier it expands to",
                    bundle: path,
                    location: "application-identifier"
                )
            )
        }
        let appID = override ?? written.flatMap { Self.holdsSetting($0) ? nil : $0 }
        return EntitlementsFile(path: path, entitlements: entitlements, appID: appID, findings: findings)
    }

    /// Whether `text` holds an Xcode build setting reference (`$(NAME)` or `${NAME}`).
    static func holdsSetting(_ text: String) -> Bool {
        text.contains("$(") || text.contains("${")
    }

    /// The facts the gate's cross-checks start from, for a stand-in bundle named after the file.
    package func facts() -> BundleFacts {
        // Every entry keeps its index in the file's array; one that holds a build setting is listed with ENT201
        // and left out of the checks (iOS never sees it as written).
        let parsed = AssociatedDomains.from(
            entitlements: .dictionary(entitlements),
            bundle: path,
            pendingSetting: Self.rules.unexpandedSetting
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
            findings: findings + parsed.findings
        )
    }
}
