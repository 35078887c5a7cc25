import Foundation
package import IPACheckLinks
package import IPACheckPlist

/// What the Firebase checks need from one bundle of the ipa; the lead extracts it, the checks stay pure.
package struct FirebaseBundleFacts: Sendable {
    /// The bundle's path in the ipa (`Payload/App.app`, `Payload/App.app/PlugIns/Share.appex`).
    package var path: String
    /// Whether the bundle is an app extension (Firebase then also accepts the parent app's bundle ID).
    package var isExtension: Bool
    /// The bundle's Info.plist.
    package var infoPlist: PlistValue
    /// Every `GoogleService-Info*.plist` in the bundle.
    package var serviceFiles: [FirebaseServiceFile]
    /// The bundle's signed associated-domains entries.
    package var associatedDomains: [AssociatedDomain]
    /// `APPIDPREFIX.BUNDLE_ID` from the `application-identifier` entitlement, when signed.
    package var appID: String?

    /// Creates the facts of one bundle.
    package init(
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
    package var bundleID: String? { infoPlist["CFBundleIdentifier"]?.stringValue }
}

/// One `GoogleService-Info*.plist` and where it sits.
package struct FirebaseServiceFile: Sendable {
    /// Its path in the ipa.
    package var path: String
    /// Its parsed contents.
    package var plist: PlistValue

    /// Creates a service file.
    package init(path: String, plist: PlistValue) {
        self.path = path
        self.plist = plist
    }
}

/// What the user tells ipacheck about Firebase email links (nothing of it is in the ipa).
package struct FirebaseLinkSettings: Hashable, Sendable, Codable {
    /// The email actions the app handles itself (config `firebase.emailActions`), in the order first declared,
    /// without repeats.
    package var emailActions: [FirebaseEmailAction]
    /// The custom Firebase Hosting domain passed as `ActionCodeSettings.linkDomain`, if any.
    package var linkDomain: String?
    /// The continue URLs (`ActionCodeSettings.url`) the app passes (config `firebase.continueURLs`).
    package var continueURLs: [String]

    /// Creates settings; by default nothing is known about email links.
    ///
    /// - Parameters:
    ///   - emailLinkSignIn: The app signs users in with email links: the same as `signIn` in `emailActions`.
    ///   - linkDomain: The custom Hosting domain of `ActionCodeSettings.linkDomain`.
    ///   - emailActions: The email actions the app handles itself.
    ///   - continueURLs: The continue URLs the app passes.
    package init(
        emailLinkSignIn: Bool = false,
        linkDomain: String? = nil,
        emailActions: [FirebaseEmailAction] = [],
        continueURLs: [String] = []
    ) {
        var actions: [FirebaseEmailAction] = []
        for action in (emailLinkSignIn ? [.signIn] : []) + emailActions where !actions.contains(action) {
            actions.append(action)
        }
        self.emailActions = actions
        self.linkDomain = linkDomain
        self.continueURLs = continueURLs
    }

    /// The app signs users in with email links (`sendSignInLink` with `handleCodeInApp`): `signIn` is declared.
    package var emailLinkSignIn: Bool { emailActions.contains(.signIn) }

    /// Whether the email-link checks apply: some action is declared, or a link domain is.
    package var declaresEmailLinks: Bool { !emailActions.isEmpty || linkDomain != nil }
}

/// A Firebase Auth email action: the `mode` query parameter of the action link Firebase sends.
///
/// The modes are Firebase Auth's ("The action modes are `signIn` (email-link sign-in),
/// `verifyEmail`, `resetPassword`, `recoverEmail`, `verifyAndChangeEmail` and `revertSecondFactorAddition`"). The
/// first four are the `requestType`s an app asks for with `ActionCodeSettings` (`EMAIL_SIGNIN`, `VERIFY_EMAIL`,
/// `PASSWORD_RESET`, `VERIFY_AND_CHANGE_EMAIL`, firebase-ios-sdk's `GetOOBConfirmationCodeRequest.swift`); Firebase sends the
/// last two by itself, to the old address, with no `ActionCodeSettings`.
package enum FirebaseEmailAction: String, CaseIterable, Hashable, Sendable, Codable {
    /// Email-link sign-in (`sendSignInLink`); always handled in the app.
    case signIn
    /// Email address verification (`sendEmailVerification`).
    case verifyEmail
    /// Password reset (`sendPasswordReset`).
    case resetPassword
    /// Undoing an email change, sent to the old address.
    case recoverEmail
    /// Verifying a new address before changing to it (`sendEmailVerification(beforeUpdatingEmail:)`).
    case verifyAndChangeEmail
    /// Undoing the enrolment of a second factor, sent by Firebase.
    case revertSecondFactorAddition

    /// Whether the app requests this email with `ActionCodeSettings`, so that `handleCodeInApp` makes Firebase send
    /// it as a mobile link (`/__/auth/links`) rather than a link to the web action handler (`/__/auth/action`).
    package var takesActionCodeSettings: Bool {
        switch self {
        case .signIn, .verifyEmail, .resetPassword, .verifyAndChangeEmail: true
        case .recoverEmail, .revertSecondFactorAddition: false
        }
    }

    /// The valid names, for messages (`signIn, verifyEmail, …`).
    package static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
