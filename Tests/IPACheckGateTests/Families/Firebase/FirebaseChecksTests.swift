import IPACheckGate
import IPACheckLinks
import IPACheckPlist
import IPACheckReport
import IPACheckTestSupport
import Testing

/// Firebase checks from the ipa alone.
///
/// Plists follow the shapes Firebase's iOS setup writes (the GoogleService-Info.plist of firebase.google.com/docs/ios/setup:
/// FIROptions keys, `GOOGLE_APP_ID` = `1:PROJECT_NUMBER:ios:HEX`, REVERSED_CLIENT_ID =
/// `com.googleusercontent.apps.…`, BUNDLE_ID check with the extension rule); email-link domains from §3.3
/// (`applinks:PROJECT_ID.firebaseapp.com`, `linkDomain` not a default Hosting domain); Dynamic Links shut down
/// Aug 25, 2025 (§3.2).
struct FirebaseChecksTests {
    static let bundleID = "net.lightbulb-co.app"
    static let clientID = "123456789012-abcdefghijklmnopqrstuvwxyz012345.apps.googleusercontent.com"
    static let reversedClientID = "com.googleusercontent.apps.123456789012-abcdefghijklmnopqrstuvwxyz012345"

    private func serviceFile(_ overrides: [String: PlistValue?] = [:]) -> FirebaseServiceFile {
        var plist: [String: PlistValue] = [
            "API_KEY": .string("AIzaSyA-example-key-0000000000000000000"),
            "GCM_SENDER_ID": .string("123456789012"),
            "PLIST_VERSION": .string("1"),
            "BUNDLE_ID": .string(Self.bundleID),
            "PROJECT_ID": .string("lightbulb-prod"),
            "STORAGE_BUCKET": .string("lightbulb-prod.appspot.com"),
            "IS_SIGNIN_ENABLED": .bool(true),
            "GOOGLE_APP_ID": .string("1:123456789012:ios:0a1b2c3d4e5f60718293a4"),
            "CLIENT_ID": .string(Self.clientID),
            "REVERSED_CLIENT_ID": .string(Self.reversedClientID),
        ]
        for (key, value) in overrides { plist[key] = value }
        return FirebaseServiceFile(path: "Payload/Lightbulb.app/GoogleService-Info.plist", plist: .dictionary(plist))
    }

    private func infoPlist(
        bundleID: String = FirebaseChecksTests.bundleID,
        schemes: [String] = [FirebaseChecksTests.reversedClientID],
        extra: [String: PlistValue] = [:]
    ) -> PlistValue {
        var info: [String: PlistValue] = [
            "CFBundleIdentifier": .string(bundleID),
            "CFBundleURLTypes": .array([
                .dictionary(["CFBundleURLSchemes": .array(schemes.map(PlistValue.string))])
            ]),
        ]
        for (key, value) in extra { info[key] = value }
        return .dictionary(info)
    }

    private func bundle(
        info: PlistValue? = nil,
        files: [FirebaseServiceFile]? = nil,
        domains: [String] = [],
        isExtension: Bool = false
    ) -> FirebaseBundleFacts {
        FirebaseBundleFacts(
            path: "Payload/Lightbulb.app",
            isExtension: isExtension,
            infoPlist: info ?? infoPlist(),
            serviceFiles: files ?? [serviceFile()],
            associatedDomains: domains.map { AssociatedDomain.parse(entry: $0) },
            appID: "ABCDE12345.\(Self.bundleID)"
        )
    }

    private func rules(_ findings: [Finding]) -> [String] { findings.map(\.rule) }

    /// A GoogleService-Info.plist that is an array, not a dictionary: FirebaseApp.configure() fails (FIRE012).
    @Test func serviceFileNotADictionary() {
        let file = FirebaseServiceFile(path: "Payload/App.app/GoogleService-Info.plist", plist: .array([.string("x")]))
        let findings = FirebaseChecks.check(bundle(files: [file]))
        #expect(rules(findings) == ["FIRE012"])
        #expect(findings.first?.severity == .error)
        #expect(!rules(FirebaseChecks.check(bundle())).contains("FIRE012"))
    }

    /// The origin's file opens email links but Apple's CDN copy could not be read: unknown for devices, a
    /// warning (FIRE015), not the error FIRE009.
    @Test(arguments: [false, true])
    func emailLinkCDNCopyUnavailable(unavailable: Bool) {
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:lightbulb-prod.firebaseapp.com"]),
            settings: FirebaseLinkSettings(emailLinkSignIn: true),
            matcher: AASALinkMatcher(copies: { _ in [.origin, .cdn] }) { request in
                request.copy == .cdn && unavailable ? .unavailable(why: "HTTP 404") : .match
            }
        )
        #expect(rules(findings) == (unavailable ? ["FIRE015"] : []))
        #expect(findings.allSatisfy { $0.severity == .warning })
    }

    @Test func consistentFileHasNoFindings() {
        #expect(FirebaseChecks.check(bundle()).isEmpty)
    }

    @Test func bundleIDMismatch() {
        let findings = FirebaseChecks.check(bundle(info: infoPlist(bundleID: "net.lightbulb-co.app.beta")))
        #expect(rules(findings) == ["FIRE001"])
        #expect(findings.first?.severity == .error)
    }

    /// FIRApp `checkExpectedBundleID`: an extension may use its parent app's ID (last component dropped).
    @Test func extensionMayUseParentBundleID() {
        let info = infoPlist(bundleID: "net.lightbulb-co.app.widget")
        #expect(FirebaseChecks.check(bundle(info: info, isExtension: true)).isEmpty)
        #expect(rules(FirebaseChecks.check(bundle(info: info, isExtension: false))) == ["FIRE001"])
    }

    @Test(arguments: [
        "1:123456789012:android:0a1b2c3d4e5f6071",
        "1:123456789012:web:0a1b2c3d4e5f6071",
        "2:123456789012:ios:0a1b2c3d4e5f6071",
        "1:project:ios:0a1b2c3d4e5f6071",
        "1:123456789012:ios:",
        "1:123456789012:ios:xyz",
    ])
    func malformedGoogleAppID(_ appID: String) {
        let findings = FirebaseChecks.check(bundle(files: [serviceFile(["GOOGLE_APP_ID": .string(appID)])]))
        #expect(rules(findings).contains("FIRE002"))
    }

    @Test func missingGoogleAppID() {
        let findings = FirebaseChecks.check(bundle(files: [serviceFile(["GOOGLE_APP_ID": nil])]))
        #expect(rules(findings) == ["FIRE002"])
    }

    @Test func reversedClientIDNotRegistered() {
        let none = FirebaseChecks.check(bundle(info: infoPlist(schemes: ["lightbulb"])))
        #expect(rules(none) == ["FIRE003"])
        #expect(none.first?.severity == .error)
        // Firebase Auth's own fallback scheme: app-GOOGLE_APP_ID with ':' replaced by '-'.
        let appScheme = FirebaseChecks.check(
            bundle(info: infoPlist(schemes: ["app-1-123456789012-ios-0a1b2c3d4e5f60718293a4"]))
        )
        #expect(rules(appScheme) == ["FIRE013"])  // the Google Sign-In variant of FIRE003, a warning
        #expect(appScheme.first?.severity == .warning)
    }

    @Test func noClientIDNeedsNoScheme() {
        let files = [serviceFile(["CLIENT_ID": nil, "REVERSED_CLIENT_ID": nil])]
        #expect(FirebaseChecks.check(bundle(info: infoPlist(schemes: []), files: files)).isEmpty)
    }

    @Test func inconsistentValues() {
        let files = [
            serviceFile([
                "REVERSED_CLIENT_ID": .string("com.googleusercontent.apps.999-other"),
                "GCM_SENDER_ID": .string("999999999999"),
            ])
        ]
        let info = infoPlist(schemes: ["com.googleusercontent.apps.999-other"])
        let findings = FirebaseChecks.check(bundle(info: info, files: files))
        #expect(rules(findings) == ["FIRE004", "FIRE004"])
        #expect(findings.allSatisfy { $0.severity == .warning })
    }

    @Test func missingKeysAreNamed() {
        let findings = FirebaseChecks.check(bundle(files: [serviceFile(["API_KEY": nil])]))
        #expect(rules(findings) == ["FIRE011"])
        #expect(findings.first?.message.contains("API_KEY") == true)
    }

    // MARK: - Email links

    @Test func emailLinkDomainPresent() {
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:lightbulb-prod.firebaseapp.com"]),
            settings: FirebaseLinkSettings(emailLinkSignIn: true)
        )
        #expect(findings.isEmpty)
    }

    @Test func emailLinkDomainMissing() {
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:www.lightbulb-co.net"]),
            settings: FirebaseLinkSettings(emailLinkSignIn: true)
        )
        #expect(rules(findings) == ["FIRE005"])
        #expect(findings.first?.domain == "lightbulb-prod.firebaseapp.com")
        #expect(findings.first?.severity == .error)
    }

    @Test func emailLinkDomainOnlyDeveloperMode() {
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:lightbulb-prod.firebaseapp.com?mode=developer"]),
            settings: FirebaseLinkSettings(emailLinkSignIn: true)
        )
        #expect(rules(findings) == ["FIRE005"])
    }

    @Test func webAppOnlyIsAWarning() {
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:lightbulb-prod.web.app"]),
            settings: FirebaseLinkSettings(emailLinkSignIn: true)
        )
        #expect(rules(findings) == ["FIRE014"])  // the web.app variant of FIRE005, a warning
        #expect(findings.first?.severity == .warning)
    }

    @Test func customLinkDomain() {
        let settings = FirebaseLinkSettings(emailLinkSignIn: true, linkDomain: "links.lightbulb-co.net")
        #expect(FirebaseChecks.check(bundle(domains: ["applinks:links.lightbulb-co.net"]), settings: settings).isEmpty)
        let missing = FirebaseChecks.check(
            bundle(domains: ["applinks:lightbulb-prod.firebaseapp.com"]),
            settings: settings
        )
        #expect(rules(missing) == ["FIRE005"])
        #expect(missing.first?.domain == "links.lightbulb-co.net")
    }

    @Test func linkDomainCannotBeADefaultHostingDomain() {
        let settings = FirebaseLinkSettings(emailLinkSignIn: true, linkDomain: "lightbulb-prod.web.app")
        let findings = FirebaseChecks.check(bundle(domains: ["applinks:lightbulb-prod.web.app"]), settings: settings)
        #expect(rules(findings) == ["FIRE010"])
    }

    @Test func otherProjectsDomain() {
        let findings = FirebaseChecks.check(bundle(domains: ["applinks:lightbulb-dev.firebaseapp.com"]))
        #expect(rules(findings) == ["FIRE006"])
        #expect(findings.first?.severity == .warning)
    }

    @Test func emailLinkAASAIsAsked() throws {
        let asked = MatchQuestionLog()
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:lightbulb-prod.firebaseapp.com"]),
            settings: FirebaseLinkSettings(emailLinkSignIn: true),
            matcher: AASALinkMatcher(copies: { _ in [.origin, .cdn] }) { request in
                asked.append(request)
                return request.copy == .cdn ? .match : .none(why: "details is empty")
            }
        )
        let requests = asked.requests
        #expect(Set(requests.map(\.copy)) == [.origin, .cdn])
        #expect(requests.allSatisfy { $0.host == "lightbulb-prod.firebaseapp.com" })
        #expect(requests.allSatisfy { $0.appID == "ABCDE12345.net.lightbulb-co.app" })
        #expect(requests.first?.url.hasPrefix("https://lightbulb-prod.firebaseapp.com/__/auth/links?link=") == true)
        #expect(rules(findings) == ["FIRE009"])
        #expect(findings.first?.severity == .error)
    }

    @Test func linkHosts() {
        let facts = bundle()
        #expect(FirebaseChecks.linkHosts(facts, settings: FirebaseLinkSettings()).isEmpty)
        #expect(
            FirebaseChecks.linkHosts(facts, settings: FirebaseLinkSettings(emailLinkSignIn: true))
                == ["lightbulb-prod.firebaseapp.com"]
        )
        #expect(
            FirebaseChecks.linkHosts(facts, settings: FirebaseLinkSettings(linkDomain: "links.lightbulb-co.net"))
                == ["links.lightbulb-co.net"]
        )
    }

    // MARK: - Dynamic Links

    @Test(arguments: ["applinks:lightbulb.page.link", "applinks:da29k.app.goo.gl"])
    func dynamicLinksDomainsAreErrors(_ entry: String) {
        let findings = FirebaseChecks.check(bundle(domains: [entry]))
        #expect(rules(findings) == ["FIRE007"])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message.contains("Aug 25, 2025") == true)
    }

    @Test func dynamicLinksInfoPlistKeys() {
        let info = infoPlist(extra: [
            "FirebaseDynamicLinksCustomDomains": .array([.string("https://lightbulb.page.link")]),
            "FirebaseDeepLinkPasteboardRetrievalEnabled": .bool(false),
        ])
        let findings = FirebaseChecks.check(bundle(info: info))
        #expect(rules(findings) == ["FIRE007", "FIRE008"])
    }

    @Test func dynamicLinksLinkDomain() {
        let settings = FirebaseLinkSettings(emailLinkSignIn: true, linkDomain: "lightbulb.page.link")
        let findings = FirebaseChecks.check(bundle(domains: ["applinks:lightbulb.page.link"]), settings: settings)
        #expect(rules(findings) == ["FIRE007", "FIRE007"])
    }

    @Test func ruleIDsAreUniqueAndPrefixed() {
        let ids = FirebaseChecks.rules.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.hasPrefix("FIRE") })
    }

    // MARK: - Corpus entitlements

    private func corpusDomains(_ name: String) throws -> [String] {
        let plist = try PlistParser.parse(try Corpus.bytes("entitlements/\(name)"))
        return try #require(plist["com.apple.developer.associated-domains"]?.stringArray)
    }

    /// MANIFEST: "applinks on Firebase Dynamic Links host (da29k.app.goo.gl)" and "applinks on page.link host".
    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"),
        arguments: ["firebase_InAppMessaging_Example.entitlements", "rnfirebase_testing.entitlements"]
    )
    func corpusDynamicLinksDomains(_ name: String) throws {
        let findings = FirebaseChecks.check(bundle(domains: try corpusDomains(name)))
        #expect(rules(findings) == ["FIRE007"])
    }

    /// MANIFEST: "associated-domains key present with EMPTY array": email-link sign-in cannot open the app.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func corpusEmptyAssociatedDomains() throws {
        let domains = try corpusDomains("firebase_AuthenticationExample_empty-assoc.entitlements")
        #expect(domains.isEmpty)
        let findings = FirebaseChecks.check(
            bundle(domains: domains),
            settings: FirebaseLinkSettings(emailLinkSignIn: true)
        )
        #expect(rules(findings) == ["FIRE005"])
    }
}
