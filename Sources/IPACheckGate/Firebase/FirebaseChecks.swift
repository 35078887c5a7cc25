import Foundation
import IPACheckAASA
public import IPACheckLinks
import IPACheckPlist
public import IPACheckReport

/// Firebase checks from the ipa alone (plus optional link settings and pre-fetched AASA answers):
/// `GoogleService-Info.plist` against its bundle, email-link domains, dead Dynamic Links domains.
public enum FirebaseChecks {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    public struct Rules: RuleSet {
        /// The set, its rules as declared below.
        public init() {}

        /// FIRE001: `BUNDLE_ID` is not the bundle's identifier.
        public let bundleIDMismatch = Rule(
            "FIRE001",
            .error,
            "GoogleService-Info.plist is for another bundle",
            summary: "BUNDLE_ID must equal the bundle's CFBundleIdentifier (an extension may use its parent app's ID); "
                + "otherwise the file belongs to another Firebase app and FirebaseCore logs I-COR000008.",
            fix: "Download GoogleService-Info.plist for this bundle ID from the Firebase console (Project settings)."
        )

        /// FIRE002: `GOOGLE_APP_ID` missing or not `1:NUMBER:ios:HEX`.
        public let badGoogleAppID = Rule(
            "FIRE002",
            .error,
            "GOOGLE_APP_ID missing or malformed",
            summary: "FirebaseCore needs GOOGLE_APP_ID of the form 1:PROJECT_NUMBER:ios:HEX (I-COR000009); an Android "
                + "or web app ID, or an edited value, makes configuration fail.",
            fix: "Use the GoogleService-Info.plist downloaded for the iOS app."
        )

        /// FIRE003: the Google/OAuth callback URL scheme is not registered.
        public let callbackSchemeMissing = Rule(
            "FIRE003",
            .error,
            "REVERSED_CLIENT_ID not a URL scheme",
            summary:
                "With CLIENT_ID present, Google Sign-In and Firebase Auth's OAuth / phone reCAPTCHA fallback return "
                + "through the REVERSED_CLIENT_ID URL scheme (Firebase Auth also accepts app-GOOGLE_APP_ID with '-' "
                + "for ':'); if neither is in CFBundleURLTypes they fail.",
            fix: "Add REVERSED_CLIENT_ID to CFBundleURLTypes › CFBundleURLSchemes in Info.plist."
        )

        /// FIRE004: values inside GoogleService-Info.plist disagree with each other.
        public let inconsistentServiceFile = Rule(
            "FIRE004",
            .warning,
            "GoogleService-Info.plist values disagree",
            summary: "REVERSED_CLIENT_ID should be CLIENT_ID with its dot-separated parts reversed, and GCM_SENDER_ID "
                + "the project number inside GOOGLE_APP_ID; a mismatch means keys from different downloads were mixed.",
            fix: "Replace the file with a fresh download instead of editing it."
        )

        /// FIRE005: the email-link domain is not an associated domain.
        public let emailLinkDomainMissing = Rule(
            "FIRE005",
            .error,
            "email-link domain is not an associated domain",
            summary: "Since Dynamic Links shut down (Aug 25, 2025) Firebase Auth sends email links on "
                + "PROJECT_ID.firebaseapp.com (or the custom linkDomain); the app opens them only with applinks: for "
                + "that host.",
            fix: "Add applinks:PROJECT_ID.firebaseapp.com (or applinks:LINK_DOMAIN) to Associated Domains."
        )

        /// FIRE006: `applinks:` names another Firebase project's default domain.
        public let otherProjectDomain = Rule(
            "FIRE006",
            .warning,
            "applinks for another Firebase project",
            summary: "The app claims X.firebaseapp.com or X.web.app for a project X other than the PROJECT_ID of its "
                + "GoogleService-Info.plist: usually a dev/prod mix-up, and email links of the bundled project won't "
                + "open the app.",
            fix: "Make the associated domains match the Firebase project of the bundled GoogleService-Info.plist."
        )

        /// FIRE007: a Dynamic Links domain, dead since Aug 25, 2025.
        public let deadDynamicLinks = Rule(
            "FIRE007",
            .error,
            "Firebase Dynamic Links domain (shut down)",
            summary: "Firebase Dynamic Links shut down on Aug 25, 2025 (SDK removed in firebase-ios-sdk 12.0.0); "
                + "*.page.link and *.app.goo.gl links no longer open apps.",
            fix: "Migrate email links to Firebase Hosting (applinks:PROJECT_ID.firebaseapp.com, FirebaseAuth ≥ 11.8.0) "
                + "and other deep links to your own universal links; then remove the Dynamic Links domain."
        )

        /// FIRE008: leftover Dynamic Links configuration in Info.plist.
        public let leftoverDynamicLinksConfig = Rule(
            "FIRE008",
            .warning,
            "Dynamic Links settings left in Info.plist",
            summary: "FirebaseDynamicLinksCustomDomains / FirebaseDeepLinkPasteboardRetrievalEnabled configure the "
                + "Dynamic Links SDK, which no longer works (service shut down Aug 25, 2025).",
            fix: "Remove the Dynamic Links keys and SDK; a custom domain can still serve email links as linkDomain."
        )

        /// FIRE009: the AASA of the email-link host does not open email links in this app.
        public let emailLinkAASA = Rule(
            "FIRE009",
            .error,
            "email-link host's AASA does not list the app",
            summary:
                "Firebase Hosting generates the AASA of PROJECT_ID.firebaseapp.com from the iOS apps registered in "
                + "the project; it must match /__/auth/links for APPIDPREFIX.BUNDLE_ID (origin and Apple's CDN copy).",
            fix: "In Firebase console › Project settings, register the iOS app with this bundle ID and its App ID "
                + "prefix (Team ID), then redeploy Hosting; an empty details array means the prefix is missing."
        )

        /// FIRE010: `linkDomain` set to a default Hosting domain.
        public let defaultLinkDomain = Rule(
            "FIRE010",
            .error,
            "linkDomain is a default Hosting domain",
            summary:
                "ActionCodeSettings.linkDomain must be a custom domain configured in Firebase Hosting; it cannot be "
                + "a default web.app or firebaseapp.com domain (Firebase ignores it there).",
            fix: "Omit linkDomain to use PROJECT_ID.firebaseapp.com, or set it to your custom Hosting domain."
        )

        /// FIRE011: keys other checks need are missing.
        public let missingKeys = Rule(
            "FIRE011",
            .warning,
            "GoogleService-Info.plist lacks keys",
            summary: "A downloaded GoogleService-Info.plist carries API_KEY, GCM_SENDER_ID, PROJECT_ID, BUNDLE_ID and "
                + "GOOGLE_APP_ID; without them Firebase services (and these checks) cannot work.",
            fix: "Use the unedited file downloaded from the Firebase console."
        )

        /// FIRE012: a GoogleService-Info plist that is not a dictionary.
        public let serviceFileNotDictionary = Rule(
            "FIRE012",
            .error,
            "GoogleService-Info.plist is not a dictionary",
            summary: "The Firebase SDK reads GoogleService-Info.plist as a dictionary; any other plist makes "
                + "FirebaseApp.configure() fail at launch.",
            fix: "Download GoogleService-Info.plist again from the Firebase console and add it to the target."
        )

        /// FIRE013: the `app-…` scheme is registered but REVERSED_CLIENT_ID is not.
        public let signInSchemeMissing = Rule(
            "FIRE013",
            .warning,
            "REVERSED_CLIENT_ID not a URL scheme (Google Sign-In)",
            summary: "Info.plist registers the app-GOOGLE_APP_ID scheme, so Firebase Auth's callbacks work, but not "
                + "REVERSED_CLIENT_ID, which Google Sign-In needs.",
            fix: "Add REVERSED_CLIENT_ID to CFBundleURLTypes › CFBundleURLSchemes in Info.plist."
        )

        /// FIRE014: email links arrive on the firebaseapp.com host while the app claims only the web.app one.
        public let emailLinkDomainMoved = Rule(
            "FIRE014",
            .warning,
            "email links on firebaseapp.com, app claims web.app",
            summary: "Email links arrive on PROJECT.firebaseapp.com (the migration guide's default) while the app "
                + "claims only PROJECT.web.app; set linkDomain if the project sends links on web.app.",
            fix: "Claim applinks:PROJECT.firebaseapp.com, or set the linkDomain the project really sends."
        )

        /// FIRE015: Apple's CDN copy of the email-link host's AASA could not be read.
        public let emailLinkCDNUnavailable = Rule(
            "FIRE015",
            .warning,
            "Apple's CDN copy unavailable for email links",
            summary: "The origin's AASA was judged, but Apple's CDN copy, which devices use, could not be read, so "
                + "whether devices open email links is not known.",
            fix: "Run again later or from another network; see the CDN findings for the host."
        )
    }

    /// The rules declared here.
    public static let rules = Rules()

    /// Records which Firebase rules a gate run carried out, and why the others were not.
    static func recordCoverage(
        _ bundles: [FirebaseBundleFacts],
        settings: FirebaseLinkSettings,
        cdnAsked: Bool,
        into coverage: inout RuleCoverage
    ) {
        let serviceFileRules = [
            FirebaseChecks.rules.bundleIDMismatch, FirebaseChecks.rules.badGoogleAppID,
            FirebaseChecks.rules.callbackSchemeMissing, FirebaseChecks.rules.inconsistentServiceFile,
            FirebaseChecks.rules.missingKeys,
            FirebaseChecks.rules.serviceFileNotDictionary, FirebaseChecks.rules.signInSchemeMissing,
        ]
        let emailRules = [
            FirebaseChecks.rules.emailLinkDomainMissing, FirebaseChecks.rules.otherProjectDomain,
            FirebaseChecks.rules.emailLinkAASA, FirebaseChecks.rules.defaultLinkDomain,
            FirebaseChecks.rules.emailLinkDomainMoved,
        ]
        coverage.ran([FirebaseChecks.rules.deadDynamicLinks, FirebaseChecks.rules.leftoverDynamicLinksConfig])
        if bundles.contains(where: { !$0.serviceFiles.isEmpty }) {
            coverage.ran(serviceFileRules)
        } else {
            coverage.skip(serviceFileRules, because: "the build has no GoogleService-Info.plist")
        }
        guard settings.emailLinkSignIn || settings.linkDomain != nil else {
            coverage.skip(
                emailRules + [FirebaseChecks.rules.emailLinkCDNUnavailable],
                because: "email-link sign-in is not declared (firebase.emailLinkSignIn in the config file)"
            )
            return
        }
        coverage.ran(emailRules)
        if cdnAsked {
            coverage.ran([FirebaseChecks.rules.emailLinkCDNUnavailable])
        } else {
            coverage.skip(
                [FirebaseChecks.rules.emailLinkCDNUnavailable],
                because: "Apple's CDN was not asked (--offline or --no-cdn)"
            )
        }
    }

    /// Host suffixes of the retired Firebase Dynamic Links service.
    public static let dynamicLinksSuffixes = ["page.link", "app.goo.gl"]

    /// Checks one bundle.
    ///
    /// - Parameter matcher: Answers from pre-fetched AASA files for ``linkHosts(_:settings:)``; `nil` offline.
    public static func check(
        _ bundle: FirebaseBundleFacts,
        settings: FirebaseLinkSettings = FirebaseLinkSettings(),
        matcher: AASALinkMatcher? = nil
    ) -> [Finding] {
        var findings: [Finding] = []
        for file in bundle.serviceFiles {
            findings += checkServiceFile(file, in: bundle)
        }
        findings += deadDynamicLinkDomains(bundle, settings: settings)
        findings += checkEmailLinks(bundle, settings: settings, matcher: matcher)
        return findings.sorted()
    }

    /// The hosts whose AASA the email-link check asks about: the link domain, or each project's firebaseapp.com.
    public static func linkHosts(_ bundle: FirebaseBundleFacts, settings: FirebaseLinkSettings) -> [String] {
        guard settings.emailLinkSignIn || settings.linkDomain != nil else { return [] }
        if let linkDomain = settings.linkDomain?.lowercased() { return [linkDomain] }
        return projectIDs(bundle).map { "\($0).firebaseapp.com" }
    }

    /// An email sign-in link as Firebase Hosting sends it (firebase-ios-sdk #14600), for asking the AASA.
    public static func sampleEmailLink(host: String) -> String {
        "https://\(host)/__/auth/links?link=https://\(host)/__/auth/action?apiKey%3DAPI_KEY%26mode%3DsignIn"
            + "%26oobCode%3DOOB_CODE%26continueUrl%3Dhttps://\(host)/%26lang%3Den"
    }

}
