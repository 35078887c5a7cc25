import Foundation
public import IPACheckLinks
public import IPACheckPlist

/// What the Firebase checks need from one bundle of the ipa; the lead extracts it, the checks stay pure.
public struct FirebaseBundleFacts: Sendable {
    /// The bundle's path in the ipa (`Payload/App.app`, `Payload/App.app/PlugIns/Share.appex`).
    public var path: String
    /// Whether the bundle is an app extension (Firebase then also accepts the parent app's bundle ID).
    public var isExtension: Bool
    /// The bundle's Info.plist.
    public var infoPlist: PlistValue
    /// Every `GoogleService-Info*.plist` in the bundle.
    public var serviceFiles: [FirebaseServiceFile]
    /// The bundle's signed associated-domains entries.
    public var associatedDomains: [AssociatedDomain]
    /// `APPIDPREFIX.BUNDLE_ID` from the `application-identifier` entitlement, when signed.
    public var appID: String?

    /// Creates the facts of one bundle.
    public init(
        path: String,
        isExtension: Bool = false,
        infoPlist: PlistValue,
        serviceFiles: [FirebaseServiceFile],
        associatedDomains: [AssociatedDomain],
        appID: String?
    ) {
        self.path = path
        self.isExtension = isExtension
        self.infoPlist = infoPlist
        self.serviceFiles = serviceFiles
        self.associatedDomains = associatedDomains
        self.appID = appID
    }

    /// The bundle's `CFBundleIdentifier`.
    public var bundleID: String? { infoPlist["CFBundleIdentifier"]?.stringValue }
}

/// One `GoogleService-Info*.plist` and where it sits.
public struct FirebaseServiceFile: Sendable {
    /// Its path in the ipa.
    public var path: String
    /// Its parsed contents.
    public var plist: PlistValue

    /// Creates a service file.
    public init(path: String, plist: PlistValue) {
        self.path = path
        self.plist = plist
    }
}

/// What the user tells ipacheck about Firebase email links (nothing of it is in the ipa).
public struct FirebaseLinkSettings: Hashable, Sendable, Codable {
    /// The app signs users in with email links (`sendSignInLink` with `handleCodeInApp`).
    public var emailLinkSignIn: Bool
    /// The custom Firebase Hosting domain passed as `ActionCodeSettings.linkDomain`, if any.
    public var linkDomain: String?

    /// Creates settings; by default nothing is known about email links.
    public init(emailLinkSignIn: Bool = false, linkDomain: String? = nil) {
        self.emailLinkSignIn = emailLinkSignIn
        self.linkDomain = linkDomain
    }
}
