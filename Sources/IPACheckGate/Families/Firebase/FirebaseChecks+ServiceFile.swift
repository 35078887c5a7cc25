import Foundation
import IPACheckAASA
import IPACheckLinks
import IPACheckPlist
import IPACheckReport

/// GoogleService-Info.plist against its bundle: bundle ID, app ID, client ID and URL schemes.
extension FirebaseChecks {
    static func checkServiceFile(_ file: FirebaseServiceFile, in bundle: FirebaseBundleFacts) -> [Finding] {
        guard let plist = file.plist.dictionaryValue else {
            return [
                FirebaseChecks.rules.serviceFileNotDictionary.finding(
                    "\(file.path) is \(file.plist.typeNameWithArticle), not a dictionary.",
                    bundle: bundle.path,
                    location: file.path
                )
            ]
        }
        func string(_ key: String) -> String? {
            guard let value = plist[key]?.stringValue?.trimmingWhitespace, !value.isEmpty else { return nil }
            return value
        }
        var findings: [Finding] = []
        let missing = ["API_KEY", "GCM_SENDER_ID", "PROJECT_ID", "BUNDLE_ID"].filter { string($0) == nil }
        if !missing.isEmpty {
            findings.append(
                FirebaseChecks.rules.missingKeys.finding(
                    "\(file.path) has no \(missing.joined(separator: ", ")).",
                    bundle: bundle.path,
                    location: file.path
                )
            )
        }
        if let expected = string("BUNDLE_ID"), let actual = bundle.bundleID,
            !bundleIDMatches(expected, actual, isExtension: bundle.isExtension)
        {
            findings.append(
                FirebaseChecks.rules.bundleIDMismatch.finding(
                    "\(file.path) has BUNDLE_ID \(expected), but the bundle is \(actual).",
                    bundle: bundle.path,
                    location: "\(file.path):BUNDLE_ID"
                )
            )
        }
        let appID = string("GOOGLE_APP_ID")
        let projectNumber = appID.flatMap(GoogleAppID.projectNumber(of:))
        if appID == nil || projectNumber == nil {
            findings.append(
                FirebaseChecks.rules.badGoogleAppID.finding(
                    appID.map { "\(file.path) has GOOGLE_APP_ID \($0), not of the form 1:PROJECT_NUMBER:ios:HEX." }
                        ?? "\(file.path) has no GOOGLE_APP_ID.",
                    bundle: bundle.path,
                    location: "\(file.path):GOOGLE_APP_ID"
                )
            )
        }
        if let projectNumber, let sender = string("GCM_SENDER_ID"), sender != projectNumber {
            findings.append(
                FirebaseChecks.rules.inconsistentServiceFile.finding(
                    "\(file.path) has GCM_SENDER_ID \(sender), but GOOGLE_APP_ID names project \(projectNumber).",
                    bundle: bundle.path,
                    location: "\(file.path):GCM_SENDER_ID"
                )
            )
        }
        if let clientID = string("CLIENT_ID") {
            findings += checkClientID(clientID, reversed: string("REVERSED_CLIENT_ID"), appID: appID, file, bundle)
        }
        return findings
    }

    static func checkClientID(
        _ clientID: String,
        reversed: String?,
        appID: String?,
        _ file: FirebaseServiceFile,
        _ bundle: FirebaseBundleFacts
    ) -> [Finding] {
        var findings: [Finding] = []
        let expectedReversed = clientID.split(separator: ".", omittingEmptySubsequences: false).reversed()
            .joined(separator: ".")
        if let reversed, reversed != expectedReversed {
            findings.append(
                FirebaseChecks.rules.inconsistentServiceFile.finding(
                    "\(file.path) has REVERSED_CLIENT_ID \(reversed), not \(expectedReversed) (CLIENT_ID reversed).",
                    bundle: bundle.path,
                    location: "\(file.path):REVERSED_CLIENT_ID"
                )
            )
        }
        let scheme = reversed ?? expectedReversed
        let schemes = urlSchemes(bundle.infoPlist)
        guard !schemes.contains(scheme.lowercased()) else { return findings }
        let appScheme = appID.map { "app-" + $0.replacingOccurrences(of: ":", with: "-") }
        let hasAppScheme = appScheme.map { schemes.contains($0.lowercased()) } ?? false
        findings.append(
            (hasAppScheme ? FirebaseChecks.rules.signInSchemeMissing : FirebaseChecks.rules.callbackSchemeMissing)
                .finding(
                    hasAppScheme
                        ? "Info.plist registers \(appScheme ?? "") but not REVERSED_CLIENT_ID \(scheme): Firebase Auth "
                            + "works, Google Sign-In does not."
                        : "Info.plist CFBundleURLTypes has neither REVERSED_CLIENT_ID \(scheme) nor "
                            + "\(appScheme ?? "app-GOOGLE_APP_ID") as a URL scheme.",
                    bundle: bundle.path,
                    location: "Info.plist:CFBundleURLTypes",
                    fix: "Add \(scheme) to CFBundleURLTypes › CFBundleURLSchemes in Info.plist."
                )
        )
        return findings
    }

    /// Firebase accepts the bundle's own ID, and for an extension its parent's (the last component dropped).
    static func bundleIDMatches(_ expected: String, _ actual: String, isExtension: Bool) -> Bool {
        if expected == actual { return true }
        guard isExtension, let dot = actual.lastIndex(of: ".") else { return false }
        return expected == actual[..<dot]
    }

    /// Every CFBundleURLSchemes entry of Info.plist, lowercased (URL schemes are case-insensitive).
    static func urlSchemes(_ infoPlist: PlistValue) -> Set<String> {
        let types = infoPlist["CFBundleURLTypes"]?.arrayValue ?? []
        return Set(types.flatMap { ($0["CFBundleURLSchemes"]?.stringArray ?? []).map { $0.lowercased() } })
    }

    static func projectIDs(_ bundle: FirebaseBundleFacts) -> [String] {
        var ids: [String] = []
        for file in bundle.serviceFiles {
            guard let id = file.plist["PROJECT_ID"]?.stringValue?.trimmingWhitespace.lowercased(), !id.isEmpty,
                !ids.contains(id)
            else { continue }
            ids.append(id)
        }
        return ids
    }
}

extension String {
    /// The string without leading and trailing whitespace (as FirebaseCore trims the plist's values).
    fileprivate var trimmingWhitespace: String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }
}
