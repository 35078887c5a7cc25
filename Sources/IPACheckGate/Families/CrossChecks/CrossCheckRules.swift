package import IPACheckReport

/// The rules that hold a build's entitlements against the AASA files that serve its domains (the `LINK` rules).
///
/// Each rule is raised by ``ReleaseGate``; the serving rules (SERVE, CDN), document lint (AASA), entitlement
/// syntax (ENT), profile (PROF) and signature (SIG) rules are raised by their own layers and collected there.
package enum CrossCheckRules {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .links }

        /// The set, its rules as declared below.
        package init() {}

        /// A claim held against its host's file is about the file (but the rules that say otherwise, below).
        package var linkPath: LinkPathPlace { .hostFile }

        /// The host's AASA does not list the bundle's app ID for the service its entry claims.
        package let appIDNotListed = Rule(
            "LINK001",
            .error,
            "app ID not listed in the AASA",
            summary: "The bundle claims this domain for a service, but the domain's apple-app-site-association file "
                + "does not list the bundle's application identifier for that service, so iOS never associates them: "
                + "links open in Safari, passwords are not offered, and the App Clip cannot be invoked from the "
                + "website (Smart App Banner, links) nor, on iOS 16.3 and earlier, at all (NFC tags, QR codes and App "
                + "Clip Codes on iOS 16.4 and later do not need the appclips entry).",
            fix: "Add the application-identifier (TEAMID.bundle.id as signed, not just the bundle ID) to the right "
                + "section: applinks.details[].appIDs, or the service's apps array.",
            needs: [.fetchedHostFiles]
        )

        /// The AASA lists the bundle ID under a different prefix.
        package let appIDWrongPrefix = Rule(
            "LINK002",
            .error,
            "app ID listed with the wrong prefix",
            summary: "The AASA lists this bundle ID, but with a different App ID prefix than the signed "
                + "application-identifier: usually the team ID written where a legacy App ID prefix is needed, an app "
                + "transferred between teams, or a typo (QA1916).",
            fix: "Add the application-identifier from the signed build (`ipacheck domains App.ipa`) to the AASA. "
                + "After an app transfer keep the old team's entry beside the new one: copies installed from builds "
                + "signed by the old team still need it (Apple, developer forums thread 826916).",
            needs: [.fetchedHostFiles]
        )

        /// The app is listed, but no rule can ever send a link to it.
        package let noReachablePaths = Rule(
            "LINK003",
            .error,
            "no link opens the app",
            summary: "The AASA lists the app ID for applinks, but its rules (components or paths) match nothing the "
                + "app could receive: the list is empty, or every rule excludes.",
            fix: "Add at least one accepting component, e.g. {\"/\": \"/app/*\"} (or {\"/\": \"*\"} for everything).",
            needs: [.fetchedHostFiles]
        )

        /// `?mode=managed` without the MDM-managed entitlement.
        package let managedWithoutEntitlement = Rule(
            "LINK004",
            .error,
            "managed mode without the MDM entitlement",
            summary: "An entry uses ?mode=managed (or developer+managed), but the app is not signed with "
                + "com.apple.developer.associated-domains.mdm-managed = true, so iOS never accepts the MDM-supplied "
                + "domain for it.",
            fix: "Request the managed associated domains entitlement for the App ID and sign with it, or drop the "
                + "mode.",
            linkPath: .byFinding
        )

        /// The CDN copy would answer differently from the origin for this app.
        package let cdnDiffersForApp = Rule(
            "LINK005",
            .warning,
            "Apple's CDN serves an older answer for this app",
            summary: "Apple's CDN copy of the AASA treats this app differently from the file on the origin. Devices "
                + "read the CDN copy, so until it refreshes (typically within 24 hours, devices about weekly) they "
                + "behave as the CDN copy says.",
            fix: "Wait for the CDN to refresh and reinstall the app to test; there is no manual invalidation.",
            needs: [.fetchedHostFiles]
        )

        /// No AASA could be read for a domain the bundle claims.
        package let noUsableAASA = Rule(
            "LINK006",
            .error,
            "no usable AASA for a claimed domain",
            summary: "The bundle claims this domain, but no apple-app-site-association file could be read for it "
                + "(the serving findings for the domain say why), so none of its services work (for appclips: "
                + "invocations from the website, and every invocation on iOS 16.3 and earlier; NFC tags, QR codes and "
                + "App Clip Codes on iOS 16.4 and later do not need the file).",
            fix: "Serve the file at https://HOST/.well-known/apple-app-site-association with status 200, no redirect.",
            needs: [.fetchedHostFiles]
        )

        /// An expected domain (from the config file) is not in the build.
        package let expectedDomainMissing = Rule(
            "LINK007",
            .error,
            "expected associated domain missing",
            summary: "The config file says this build must claim the domain, but no bundle's signed entitlements do: "
                + "a capability lost in a target or configuration change.",
            fix: "Add the entry to the target's Associated Domains capability (and its provisioning profile).",
            linkPath: .offPath
        )

        /// The App Clip's domain has no applinks entry for the clip.
        package let appClipWithoutAppLinks = Rule(
            "LINK008",
            .warning,
            "App Clip domain without applinks",
            summary:
                "The App Clip claims appclips:HOST, but neither the clip nor its parent claims applinks:HOST, so a "
                + "tap on a link to HOST with the full app installed opens Safari instead of the app.",
            fix: "Add applinks:HOST to the parent app's (and usually the clip's) associated domains."
        )

        /// The CDN copy lacks the app while the origin lists it.
        package let cdnLacksApp = Rule(
            "LINK009",
            .warning,
            "Apple's CDN copy does not list the app yet",
            summary: "The origin's AASA lists the app for this service but Apple's CDN copy does not; devices use the "
                + "CDN copy, so the association fails until the CDN refreshes (for appclips: invocations from the "
                + "website, and every invocation on iOS 16.3 and earlier).",
            fix: "Wait for the CDN to refetch (within about 24 hours) and reinstall to test.",
            needs: [.fetchedHostFiles]
        )

        /// An app claims `appclips:` but ships no App Clip.
        package let appClipsWithoutClip = Rule(
            "LINK010",
            .warning,
            "appclips domain without an App Clip",
            summary: "The app claims appclips:HOST, but the ipa contains no App Clip (AppClips/*.app); the entry does "
                + "nothing for the full app.",
            fix: "Ship the App Clip in the same build, or remove the appclips entry from the full app.",
            needs: [.fetchedHostFiles]
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// The rules that judge what a host's file says of the build: with no network none of them can run (the
    /// others need only the build and the config).
    static let needFetchedFiles = rules.all.filter { $0.needs.contains(.fetchedHostFiles) }

}
