import Foundation
import IPACheckAASA
package import IPACheckLinks
import IPACheckPlist
package import IPACheckReport

/// Firebase checks from the ipa alone (plus optional link settings and pre-fetched AASA answers):
/// `GoogleService-Info.plist` against its bundle, email-link domains, dead Dynamic Links domains.
package enum FirebaseChecks {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .firebase }

        /// The set, its rules as declared below.
        package init() {}

        /// Firebase's configuration never stops a universal link (but a claimed Dynamic Links domain, FIRE007, says so itself).
        package var linkPath: LinkPathPlace { .offPath }

        /// FIRE001: `BUNDLE_ID` is not the bundle's identifier.
        package let bundleIDMismatch = Rule(
            "FIRE001",
            .error,
            "GoogleService-Info.plist is for another bundle",
            summary: "BUNDLE_ID must equal the bundle's CFBundleIdentifier (an extension may use its parent app's ID); "
                + "otherwise the file belongs to another Firebase app and FirebaseCore logs I-COR000008.",
            fix: "Download GoogleService-Info.plist for this bundle ID from the Firebase console (Project settings)."
        )

        /// FIRE002: `GOOGLE_APP_ID` missing or not `1:NUMBER:ios:HEX`.
        package let badGoogleAppID = Rule(
            "FIRE002",
            .error,
            "GOOGLE_APP_ID missing or malformed",
            summary: "FirebaseCore needs GOOGLE_APP_ID of the form 1:PROJECT_NUMBER:ios:HEX (I-COR000009); an Android "
                + "or web app ID, or an edited value, makes configuration fail.",
            fix: "Use the GoogleService-Info.plist downloaded for the iOS app."
        )

        /// FIRE003: the Google/OAuth callback URL scheme is not registered.
        package let callbackSchemeMissing = Rule(
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
        package let inconsistentServiceFile = Rule(
            "FIRE004",
            .warning,
            "GoogleService-Info.plist values disagree",
            summary: "REVERSED_CLIENT_ID should be CLIENT_ID with its dot-separated parts reversed, and GCM_SENDER_ID "
                + "the project number inside GOOGLE_APP_ID; a mismatch means keys from different downloads were mixed.",
            fix: "Replace the file with a fresh download instead of editing it."
        )

        /// FIRE005: the email-link domain is not an associated domain.
        package let emailLinkDomainMissing = Rule(
            "FIRE005",
            .error,
            "email-link domain is not an associated domain",
            summary: "Since Dynamic Links shut down (Aug 25, 2025) Firebase Auth sends email links on "
                + "PROJECT_ID.firebaseapp.com (or the custom linkDomain); the app opens them only with applinks: for "
                + "that host.",
            fix: "Add applinks:PROJECT_ID.firebaseapp.com (or applinks:LINK_DOMAIN) to Associated Domains."
        )

        /// FIRE006: `applinks:` names another Firebase project's default domain.
        package let otherProjectDomain = Rule(
            "FIRE006",
            .warning,
            "applinks for another Firebase project",
            summary: "The app claims X.firebaseapp.com or X.web.app for a project X other than the PROJECT_ID of its "
                + "GoogleService-Info.plist: usually a dev/prod mix-up, and email links of the bundled project won't "
                + "open the app.",
            fix: "Make the associated domains match the Firebase project of the bundled GoogleService-Info.plist."
        )

        /// FIRE007: a Dynamic Links domain, dead since Aug 25, 2025.
        package let deadDynamicLinks = Rule(
            "FIRE007",
            .error,
            "Firebase Dynamic Links domain (shut down)",
            summary: "Firebase Dynamic Links shut down on Aug 25, 2025 (SDK removed in firebase-ios-sdk 12.0.0); "
                + "*.page.link and *.app.goo.gl links no longer open apps.",
            fix: "Migrate email links to Firebase Hosting (applinks:PROJECT_ID.firebaseapp.com, FirebaseAuth ≥ 11.8.0) "
                + "and other deep links to your own universal links; then remove the Dynamic Links domain.",
            linkPath: .byFinding
        )

        /// FIRE008: leftover Dynamic Links configuration in Info.plist.
        package let leftoverDynamicLinksConfig = Rule(
            "FIRE008",
            .warning,
            "Dynamic Links settings left in Info.plist",
            summary: "FirebaseDynamicLinksCustomDomains / FirebaseDeepLinkPasteboardRetrievalEnabled configure the "
                + "Dynamic Links SDK, which no longer works (service shut down Aug 25, 2025).",
            fix: "Remove the Dynamic Links keys and SDK; a custom domain can still serve email links as linkDomain."
        )

        /// FIRE009: the AASA of the email-link host does not open a declared email action's link in this app
        /// (raised in FirebaseChecks+EmailLinks.swift).
        package let emailLinkAASA = Rule(
            "FIRE009",
            .error,
            "email-action link host's AASA does not open the app",
            summary:
                "Firebase Hosting generates the AASA of PROJECT_ID.firebaseapp.com from the iOS apps registered in "
                + "the project; for each declared email action it must open the link Firebase sends (/__/auth/links "
                + "for actions handled in the app, /__/auth/action for recoverEmail and revertSecondFactorAddition) "
                + "in APPIDPREFIX.BUNDLE_ID (origin and Apple's CDN copy).",
            fix: "In Firebase console › Project settings, register the iOS app with this bundle ID and its App ID "
                + "prefix (Team ID), then redeploy Hosting; an empty details array means the prefix is missing. On a "
                + "custom linkDomain, add components for /__/auth/* to its AASA.",
            needs: [.fetchedHostFiles]
        )

        /// FIRE010: `linkDomain` set to a default Hosting domain.
        package let defaultLinkDomain = Rule(
            "FIRE010",
            .error,
            "linkDomain is a default Hosting domain",
            summary:
                "ActionCodeSettings.linkDomain must be a custom domain configured in Firebase Hosting; it cannot be "
                + "a default web.app or firebaseapp.com domain (Firebase ignores it there).",
            fix: "Omit linkDomain to use PROJECT_ID.firebaseapp.com, or set it to your custom Hosting domain."
        )

        /// FIRE011: keys other checks need are missing.
        package let missingKeys = Rule(
            "FIRE011",
            .warning,
            "GoogleService-Info.plist lacks keys",
            summary: "A downloaded GoogleService-Info.plist carries API_KEY, GCM_SENDER_ID, PROJECT_ID, BUNDLE_ID and "
                + "GOOGLE_APP_ID; without them Firebase services (and these checks) cannot work.",
            fix: "Use the unedited file downloaded from the Firebase console."
        )

        /// FIRE012: a GoogleService-Info plist that is not a dictionary.
        package let serviceFileNotDictionary = Rule(
            "FIRE012",
            .error,
            "GoogleService-Info.plist is not a dictionary",
            summary: "The Firebase SDK reads GoogleService-Info.plist as a dictionary; any other plist makes "
                + "FirebaseApp.configure() fail at launch.",
            fix: "Download GoogleService-Info.plist again from the Firebase console and add it to the target."
        )

        /// FIRE013: the `app-…` scheme is registered but REVERSED_CLIENT_ID is not.
        package let signInSchemeMissing = Rule(
            "FIRE013",
            .warning,
            "REVERSED_CLIENT_ID not a URL scheme (Google Sign-In)",
            summary: "Info.plist registers the app-GOOGLE_APP_ID scheme, so Firebase Auth's callbacks work, but not "
                + "REVERSED_CLIENT_ID, which Google Sign-In needs.",
            fix: "Add REVERSED_CLIENT_ID to CFBundleURLTypes › CFBundleURLSchemes in Info.plist."
        )

        /// FIRE014: email links arrive on the firebaseapp.com host while the app claims only the web.app one.
        package let emailLinkDomainMoved = Rule(
            "FIRE014",
            .warning,
            "email links on firebaseapp.com, app claims web.app",
            summary: "Email links arrive on PROJECT.firebaseapp.com (the migration guide's default) while the app "
                + "claims only PROJECT.web.app; set linkDomain if the project sends links on web.app.",
            fix: "Claim applinks:PROJECT.firebaseapp.com, or set the linkDomain the project really sends."
        )

        /// FIRE015: Apple's CDN copy of the email-link host's AASA could not be read.
        package let emailLinkCDNUnavailable = Rule(
            "FIRE015",
            .warning,
            "Apple's CDN copy unavailable for email links",
            summary: "The origin's AASA was judged, but Apple's CDN copy, which devices use, could not be read, so "
                + "whether devices open email links is not known.",
            fix: "Run again later or from another network; see the CDN findings for the host."
        )

        /// FIRE016: a continue URL that is not a universal link of the app (raised in
        /// FirebaseChecks+EmailActions.swift).
        package let continueURLNotClaimed = Rule(
            "FIRE016",
            .warning,
            "continue URL is not a universal link of the app",
            summary: "After the web action handler, Continue opens the continue URL (ActionCodeSettings.url); it "
                + "brings the user back into the app only if it is a universal link the app claims with a plain "
                + "applinks: entry. Otherwise the user is left in Safari.",
            fix: "Pass a continue URL on a domain the app claims (applinks:HOST), or add applinks: for its host."
        )

        /// FIRE017: the AASA of a continue URL's host does not open it in the app (raised in
        /// FirebaseChecks+EmailActions.swift).
        package let continueURLAASA = Rule(
            "FIRE017",
            .warning,
            "continue URL's AASA does not open the app",
            summary: "The app claims the continue URL's host, but that host's AASA (origin or Apple's CDN copy) "
                + "does not open the URL in the app (no rule matches it, or an exclude rule comes first), so "
                + "Continue returns the user to Safari.",
            fix: "Add a component that matches the continue URL's path and query for the app to the host's AASA, "
                + "or pass a continue URL the AASA already opens.",
            needs: [.fetchedHostFiles]
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// The rules that ask the hosts' files about email and continue links: with no network they cannot run.
    static let needFetchedFiles = rules.all.filter { $0.needs.contains(.fetchedHostFiles) }

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
        let projectRules = [FirebaseChecks.rules.otherProjectDomain]
        let emailRules = [
            FirebaseChecks.rules.emailLinkDomainMissing, FirebaseChecks.rules.emailLinkAASA,
            FirebaseChecks.rules.emailLinkDomainMoved,
        ]
        let continueRules = [FirebaseChecks.rules.continueURLNotClaimed, FirebaseChecks.rules.continueURLAASA]
        coverage.ran([FirebaseChecks.rules.deadDynamicLinks, FirebaseChecks.rules.leftoverDynamicLinksConfig])
        if bundles.contains(where: { !$0.serviceFiles.isEmpty }) {
            coverage.ran(serviceFileRules + projectRules)
        } else {
            coverage.skip(serviceFileRules + projectRules, because: "the build has no GoogleService-Info.plist")
        }
        if settings.linkDomain != nil {
            coverage.ran([FirebaseChecks.rules.defaultLinkDomain])
        } else {
            coverage.skip(
                [FirebaseChecks.rules.defaultLinkDomain],
                because: "no linkDomain is declared (firebase.linkDomain in the config file)"
            )
        }
        if settings.continueURLs.isEmpty {
            coverage.skip(
                continueRules,
                because: "no continue URLs are declared (firebase.continueURLs in the config file)"
            )
        } else if !bundles.contains(where: { !$0.isExtension }) {
            coverage.skip(continueRules, because: "the build has no app for a continue URL to open")
        } else {
            coverage.ran(continueRules)
        }
        let cdnRule = FirebaseChecks.rules.emailLinkCDNUnavailable
        guard settings.declaresEmailLinks else {
            coverage.skip(
                emailRules + [cdnRule],
                because: "no email actions are declared (firebase.emailActions or emailLinkSignIn in the config file)"
            )
            return
        }
        guard bundles.contains(where: { !linkHosts(emailLinksOf: $0, settings: settings).isEmpty }) else {
            coverage.skip(
                emailRules + [cdnRule],
                because: "no linkDomain is declared and the build has no GoogleService-Info.plist naming PROJECT_ID, "
                    + "so the email-link domain is not known"
            )
            return
        }
        coverage.ran(emailRules)
        if cdnAsked {
            coverage.ran([cdnRule])
        } else {
            coverage.skip([cdnRule], because: "Apple's CDN was not asked (--offline or --no-cdn)")
        }
    }

    /// Host suffixes of the retired Firebase Dynamic Links service.
    package static let dynamicLinksSuffixes = ["page.link", "app.goo.gl"]

    /// Checks one bundle.
    ///
    /// - Parameter matcher: Answers from pre-fetched AASA files for ``linkHosts(_:settings:)``; `nil` offline.
    package static func check(
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
        findings += checkContinueURLs(bundle, settings: settings, matcher: matcher)
        return findings.sorted()
    }

    /// The hosts whose AASA the Firebase checks ask about, for the gate to fetch: the email-link host (the link
    /// domain, or each project's firebaseapp.com) and the file host that serves it, and the file host of each
    /// continue URL the app claims.
    package static func linkHosts(_ bundle: FirebaseBundleFacts, settings: FirebaseLinkSettings) -> [String] {
        var hosts: [String] = []
        for host in linkHosts(emailLinksOf: bundle, settings: settings) {
            hosts.append(host)
            if let coverage = LinkHostCoverage.find(host: host, in: bundle.associatedDomains) {
                hosts.append(coverage.aasaHost)
            }
        }
        hosts += continueURLHosts(bundle, settings: settings)
        return hosts.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// The hosts the declared email actions' links arrive on: the link domain, or each project's firebaseapp.com.
    static func linkHosts(emailLinksOf bundle: FirebaseBundleFacts, settings: FirebaseLinkSettings) -> [String] {
        guard settings.declaresEmailLinks else { return [] }
        if let linkDomain = settings.linkDomain?.lowercased() { return [linkDomain] }
        return projectIDs(bundle).map { "\($0).firebaseapp.com" }
    }

    /// An email sign-in link as Firebase Hosting sends it (firebase-ios-sdk #14600), for asking the AASA.
    package static func sampleEmailLink(host: String) -> String {
        emailActionLink(.signIn, host: host).url
    }

}
