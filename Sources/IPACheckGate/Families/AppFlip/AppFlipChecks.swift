import IPACheckAASA
package import IPACheckLinks
package import IPACheckPlist
package import IPACheckReport
package import IPACheckSigning

/// The App Flip release-gate checks.
///
/// They hold the user's App Flip config against the app's entitlements, Info.plist, main executable and the AASA
/// of the App Flip host. Binary heuristics are warnings, never errors.
package enum AppFlipChecks {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .appFlip }

        /// The set, its rules as declared below.
        package init() {}

        /// App Flip decides how Google opens the app, never whether a universal link does.
        package var linkPath: LinkPathPlace { .offPath }

        /// FLIP001: the configured App Flip link cannot be a universal link Google appends its query to.
        package let linkShape = Rule(
            "FLIP001",
            .error,
            "App Flip link is not a plain https URL",
            summary:
                "Google opens the App Flip link with ?client_id=…&scope=…&state=…&redirect_uri=… appended; it must "
                + "be an https URL with a host and no port, user info, query or fragment, or it can never open the app.",
            fix: "Set the Universal Link in the Google Home Developer Console (App Flip) to https://HOST/PATH with no "
                + "query or fragment, and use the same value in the ipacheck App Flip config."
        )

        /// FLIP002: no `applinks:` entry claims the App Flip link's host.
        package let hostNotAssociated = Rule(
            "FLIP002",
            .error,
            "App Flip host is not an associated domain",
            summary: "iOS opens the App Flip link in the app only if the app's signed entitlements list its host as "
                + "applinks:HOST (or applinks:*.PARENT for a subdomain; *.PARENT never covers PARENT itself).",
            fix: "Add applinks:HOST to the Associated Domains capability of the main app and re-sign."
        )

        /// FLIP003: the App Flip host is claimed only in an alternate mode (`?mode=developer` / `managed`).
        package let hostAlternateModeOnly = Rule(
            "FLIP003",
            .warning,
            "App Flip host only in alternate mode",
            summary: "An entry with ?mode=developer works only on development-signed builds on devices with Associated "
                + "Domains Development on (iOS ignores it in distribution builds); ?mode=managed only on MDM devices.",
            fix: "Add a plain applinks:HOST entry (without ?mode=) before shipping."
        )

        /// FLIP004: an associated-domains entry is a placeholder or not a fully qualified domain name.
        package let placeholderDomain = Rule(
            "FLIP004",
            .error,
            "placeholder associated domain",
            summary: "An associated domain must be a fully qualified domain name the app's owner controls; sample "
                + "placeholders (your-domain-here), reserved names (example.com, .test, .invalid) or dotless names "
                + "never serve an AASA for this app.",
            fix:
                "Replace the placeholder with the real domain that serves the AASA (applinks:login.example-company.com)."
        )

        /// FLIP005: the AASA of the App Flip host does not open the flip URL in this app.
        package let aasaNoMatch = Rule(
            "FLIP005",
            .error,
            "AASA does not open the App Flip link",
            summary:
                "The link Google opens (with client_id, scope, state and redirect_uri) must match an applinks rule "
                + "for this app ID in the host's AASA, and in Apple's CDN copy, which devices fetch; otherwise the "
                + "Google app falls back to the browser flow.",
            fix: "List APPIDPREFIX.BUNDLE_ID in applinks.details with a component or path covering the App Flip path "
                + "(any ? matchers must accept the four query items), and wait for Apple's CDN to refresh.",
            needs: [.fetchedHostFiles]
        )

        /// FLIP006: a configured redirect URI is not one Google's App Flip uses.
        package let foreignRedirectURI = Rule(
            "FLIP006",
            .error,
            "redirect URI is not a Google App Flip redirect",
            summary: "App Flip redirect URIs are exactly https://oauth-redirect.googleusercontent.com/a/GOOGLE_APP "
                + "or the oauth-redirect-sandbox host, for Google Home or Google Assistant (and their .dev/.enterprise "
                + "builds); anything else means the app answers somewhere Google does not listen.",
            fix: "Allowlist the redirect URIs exactly as Google's App Flip documentation lists them."
        )

        /// FLIP007: Google Home's redirect URI is not allowed (Google Home account-linking migration).
        package let googleHomeMissing = Rule(
            "FLIP007",
            .error,
            "Google Home redirect URI not allowed",
            summary: "Google moves all account linking into the Google Home app; App Flip allowlists must accept "
                + "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast by Oct 30, 2026 (earlier "
                + "announcements said Sep 30, 2026), or flips from Google Home are rejected.",
            fix: "Add https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast to the App Flip redirect "
                + "allowlist of the app and the authorization server (and com.google.Chromecast to googleApps)."
        )

        /// FLIP008: heuristic: the executable names the Assistant's redirect but not Google Home's.
        package let binaryAssistantOnly = Rule(
            "FLIP008",
            .warning,
            "redirect allowlist may lack Google Home (heuristic)",
            summary: "The main executable contains com.google.OPA (Google Assistant) but no com.google.Chromecast "
                + "(Google Home), so its redirect_uri allowlist probably rejects flips from Google Home after the "
                + "Oct 30, 2026 migration. Heuristic: strings built at run time or kept in frameworks are not seen.",
            fix: "Accept https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast as a redirect_uri."
        )

        /// FLIP009: heuristic: the executable never mentions Google's redirect host.
        package let binaryNoRedirectCheck = Rule(
            "FLIP009",
            .warning,
            "no redirect_uri validation seen (heuristic)",
            summary: "Google requires the app to check that redirect_uri is https://oauth-redirect[-sandbox]."
                + "googleusercontent.com/a/GOOGLE_APP_BUNDLE_ID; the main executable does not contain that host. "
                + "Heuristic: the check may live in a framework or on the server.",
            fix: "Validate redirect_uri against Google's App Flip redirect URIs before opening it."
        )

        /// FLIP010: the app still uses the retired Assistant-settings deep links.
        package let legacyDeepLink = Rule(
            "FLIP010",
            .warning,
            "legacy Google account-linking deep link",
            summary: "Google Home replaces madeby.google.com/home-app and assistant-settings:// account-linking deep "
                + "links; they stop being the way in after the Google Home account-linking migration.",
            fix: "Use https://home.google.com/home-app/?deeplink=setup%2Fha_linking%3Fagent_id%3DAGENT_ID or "
                + "googlehome://setup/ha_linking?agent_id=AGENT_ID (and list googlehome in LSApplicationQueriesSchemes "
                + "if the app calls canOpenURL)."
        )

        /// FLIP011: heuristic: the answer may be opened without the universal-links-only option.
        package let binaryNoUniversalLinksOnly = Rule(
            "FLIP011",
            .warning,
            "universal-links-only open not seen (heuristic)",
            summary: "Google's sample opens the redirect URI with UIApplicationOpenURLOptionUniversalLinksOnly so the "
                + "answer goes to the Google app and never to Safari; the main executable does not reference it.",
            fix: "Open the redirect URI with options [.universalLinksOnly: true]."
        )

        /// FLIP012: heuristic: the executable contains Google's sample error value.
        package let binarySampleErrorValue = Rule(
            "FLIP012",
            .warning,
            "non-standard App Flip error value (heuristic)",
            summary: "The main executable contains user_not_authorized, the error Google's sample app sends, which is "
                + "not one of the documented values (cancelled, unrecoverable, invalid_request, access_denied).",
            fix: "Answer with a documented error: access_denied when the user declines, cancelled when they back out."
        )

        /// FLIP013: heuristic: only the sandbox redirect host appears in the executable.
        package let binarySandboxOnly = Rule(
            "FLIP013",
            .warning,
            "only the sandbox redirect host seen (heuristic)",
            summary: "The main executable contains oauth-redirect-sandbox.googleusercontent.com but not the production "
                + "oauth-redirect.googleusercontent.com, so production flips are probably rejected.",
            fix: "Accept https://oauth-redirect.googleusercontent.com/a/GOOGLE_APP_BUNDLE_ID as well."
        )

        /// FLIP014: the App Flip host is claimed only by an entry iOS ignores in this build.
        package let hostIgnoredMode = Rule(
            "FLIP014",
            .error,
            "App Flip host only in an ignored mode",
            summary: "The only entry claiming the App Flip host has ?mode=developer, which iOS ignores in a "
                + "distribution-signed build: the link never opens the app.",
            fix: "Add the host without ?mode= to the main app's Associated Domains."
        )

        /// FLIP015: Apple's CDN copy of the App Flip host's AASA could not be read.
        package let cdnCopyUnavailable = Rule(
            "FLIP015",
            .warning,
            "Apple's CDN copy unavailable for the App Flip link",
            summary: "The origin's AASA was judged, but Apple's CDN copy, which devices use, could not be read, so "
                + "whether devices open the App Flip link is not known.",
            fix: "Run again later or from another network; see the CDN findings for the host.",
            needs: [.fetchedHostFiles]
        )

        /// FLIP016: the redirect allowlist lacks the redirect URI of a Google app the config lists.
        package let listedAppRedirectMissing = Rule(
            "FLIP016",
            .warning,
            "redirect URI of a listed Google app missing",
            summary: "googleApps lists a Google app whose App Flip redirect URI the allowlist lacks, so flips started "
                + "from that app are refused.",
            fix: "Add the redirect URI, or drop the app from googleApps."
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// The rules that ask the hosts' files about the App Flip link: with no network they cannot run.
    static let needFetchedFiles = rules.all.filter { $0.needs.contains(.fetchedHostFiles) }

    /// Records which App Flip rules a gate run carried out, and why the others were not.
    static func recordCoverage(
        config: AppFlipConfig?,
        hasAppID: Bool,
        cdnAsked: Bool,
        into coverage: inout RuleCoverage
    ) {
        guard config != nil else {
            coverage.skip(rules.all, because: "no App Flip config (--appflip, or appFlip in the config file)")
            return
        }
        guard hasAppID else {
            coverage.skip(rules.all, because: "the main app is not signed with an application-identifier")
            return
        }
        coverage.ran(rules.all.filter { $0 != AppFlipChecks.rules.cdnCopyUnavailable })
        if cdnAsked {
            coverage.ran([AppFlipChecks.rules.cdnCopyUnavailable])
        } else {
            coverage.skip(
                [AppFlipChecks.rules.cdnCopyUnavailable],
                because: "Apple's CDN was not asked (--offline or --no-cdn)"
            )
        }
    }

    /// The `state` used in the URLs the AASA is asked about (any non-empty value stands for Google's nonce).
    package static let probeState = "ipacheck-probe-state"

    /// Checks the App Flip setup of the main app.
    ///
    /// - Parameters:
    ///   - associatedDomains: The main app's signed associated-domains entries.
    ///   - appID: `APPIDPREFIX.BUNDLE_ID` from the `application-identifier` entitlement.
    ///   - infoPlist: The main app's Info.plist, for LSApplicationQueriesSchemes.
    ///   - executable: The main executable's bytes, for the heuristics (FLIP008–FLIP013).
    ///   - matcher: Answers from pre-fetched AASA files (see ``aasaHosts(config:associatedDomains:)``); `nil`
    ///     offline.
    ///   - bundle: The bundle path findings name (`Payload/App.app`).
    package static func check(
        config: AppFlipConfig,
        associatedDomains: [AssociatedDomain],
        appID: String,
        signing: SigningKind,
        infoPlist: PlistValue? = nil,
        executable: BinaryStrings? = nil,
        matcher: AASALinkMatcher? = nil,
        bundle: String? = nil
    ) -> [Finding] {
        var findings = placeholderDomains(associatedDomains, bundle: bundle)
        findings += checkLink(config, associatedDomains, appID, signing, matcher, bundle)
        findings += checkRedirects(config, bundle)
        findings += legacyDeepLinks(infoPlist: infoPlist, executable: executable, bundle: bundle)
        if let executable { findings += binaryHeuristics(executable, bundle: bundle) }
        return findings.sorted()
    }

    /// The hosts whose AASA (origin and CDN copy) the checks ask the matcher about.
    ///
    /// That is the App Flip host, or the apex of the `*.` entry that claims it; fetch these before calling
    /// ``check(config:associatedDomains:appID:signing:infoPlist:executable:matcher:bundle:)``.
    package static func aasaHosts(config: AppFlipConfig, associatedDomains: [AssociatedDomain]) -> [String] {
        guard let host = linkHost(config.appFlipURL),
            let coverage = LinkHostCoverage.find(host: host, in: associatedDomains)
        else { return [] }
        return [coverage.aasaHost]
    }

    /// The URLs Google opens for this config: one per configured Google app and redirect host, with
    /// ``probeState``.
    package static func probeLinks(config: AppFlipConfig) -> [AppFlipLink] {
        let hosts = config.sandbox ? [false, true] : [false]
        return config.googleApps.flatMap { app in
            hosts.compactMap { sandbox in
                try? AppFlipLink.make(
                    link: config.appFlipURL,
                    clientID: config.clientID,
                    scopes: config.scopes,
                    googleApp: app,
                    sandbox: sandbox,
                    state: probeState
                )
            }
        }
    }

    /// FLIP004 for every associated-domains entry that is a placeholder, a reserved name or not fully qualified.
    package static func placeholderDomains(_ entries: [AssociatedDomain], bundle: String? = nil) -> [Finding] {
        entries.compactMap { entry in
            guard let reason = PlaceholderHost.reason(entry.host, mode: entry.mode) else { return nil }
            return AppFlipChecks.rules.placeholderDomain.finding(
                "Associated domain \(entry.entry) \(reason).",
                bundle: bundle,
                domain: entry.host,
                location: "com.apple.developer.associated-domains"
            )
        }
    }

}
