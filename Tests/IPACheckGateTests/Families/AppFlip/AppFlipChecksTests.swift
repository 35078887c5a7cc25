import Foundation
import IPACheckPlist
import IPACheckReport
import IPACheckTestSupport
import Testing

@testable import IPACheckGate
@testable import IPACheckLinks
@testable import IPACheckSigning

/// The App Flip config checks with sample data.
///
/// Sources: Google's "App Flip for iOS" guide (developers.google.com/identity/account-linking/app-flip-ios: the
/// applinks entitlement and AASA, the Google Home redirect), docs/appflip-firebase.md (what `check --appflip`
/// checks); docs/ios-model.md I30 (`*.x` covers subdomains only and is served by the apex file; developer mode
/// ignored in distribution builds).
struct AppFlipChecksTests {
    static let appID = "ABCDE12345.net.lightbulb-co.app"
    static let link = "https://flip.lightbulb-co.net/appflip"

    private func domains(_ entries: String...) -> [AssociatedDomain] {
        entries.map { AssociatedDomain.parse(entry: $0) }
    }

    private func config(
        _ url: String = AppFlipChecksTests.link,
        googleApps: [GoogleApp] = [.googleHome],
        redirectURIs: [String]? = nil
    ) -> AppFlipConfig {
        AppFlipConfig(
            appFlipURL: url,
            clientID: "1234",
            scopes: ["devices"],
            googleApps: googleApps,
            redirectURIs: redirectURIs
        )
    }

    private func rules(_ findings: [Finding]) -> [String] { findings.map(\.rule) }

    /// A matcher that answers for both copies of every host (origin and Apple's CDN).
    private func bothCopies(_ answer: @escaping @Sendable (AASAMatchRequest) -> AASAMatchOutcome) -> AASALinkMatcher {
        AASALinkMatcher(copies: { _ in [.origin, .cdn] }, match: answer)
    }

    @Test func associatedHostPasses() {
        let findings = AppFlipChecks.check(
            config: config(),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution
        )
        #expect(findings.isEmpty)
    }

    @Test func linkWithQueryIsRefused() {
        let findings = AppFlipChecks.check(
            config: config("https://flip.lightbulb-co.net/appflip?source=google"),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution
        )
        #expect(rules(findings) == ["FLIP001"])
        #expect(findings.first?.severity == .error)
    }

    @Test func httpLinkIsRefused() {
        let findings = AppFlipChecks.check(
            config: config("http://flip.lightbulb-co.net/appflip"),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution
        )
        #expect(rules(findings) == ["FLIP001"])
    }

    @Test func unassociatedHostIsAnError() {
        let findings = AppFlipChecks.check(
            config: config(),
            associatedDomains: domains("applinks:www.lightbulb-co.net", "webcredentials:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution
        )
        #expect(rules(findings) == ["FLIP002"])
        #expect(findings.first?.domain == "flip.lightbulb-co.net")
    }

    @Test func wildcardCoversSubdomainAndReadsApexAASA() {
        let entries = domains("applinks:*.lightbulb-co.net")
        let findings = AppFlipChecks.check(
            config: config(),
            associatedDomains: entries,
            appID: Self.appID,
            signing: .distribution
        )
        #expect(findings.isEmpty)
        #expect(AppFlipChecks.aasaHosts(config: config(), associatedDomains: entries) == ["lightbulb-co.net"])
    }

    @Test func wildcardDoesNotCoverApex() {
        let findings = AppFlipChecks.check(
            config: config("https://lightbulb-co.net/appflip"),
            associatedDomains: domains("applinks:*.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution
        )
        #expect(rules(findings) == ["FLIP002"])
        #expect(findings.first?.message.contains("covers only its subdomains") == true)
    }

    @Test func developerModeOnlyIsAnErrorInDistribution() {
        let entries = domains("applinks:flip.lightbulb-co.net?mode=developer")
        let shipped = AppFlipChecks.check(
            config: config(),
            associatedDomains: entries,
            appID: Self.appID,
            signing: .distribution
        )
        #expect(rules(shipped) == ["FLIP014"])
        #expect(shipped.first?.severity == .error)
        let development = AppFlipChecks.check(
            config: config(),
            associatedDomains: entries,
            appID: Self.appID,
            signing: .development
        )
        #expect(rules(development) == ["FLIP003"])
        #expect(development.first?.severity == .warning)
    }

    @Test func publicEntryBesideDeveloperEntryPasses() {
        let findings = AppFlipChecks.check(
            config: config(),
            associatedDomains: domains(
                "applinks:flip.lightbulb-co.net?mode=developer",
                "applinks:flip.lightbulb-co.net"
            ),
            appID: Self.appID,
            signing: .distribution
        )
        #expect(findings.isEmpty)
    }

    /// The AASA is asked about the link exactly as Google sends it, for this app ID, in both copies.
    @Test func aasaIsAskedAboutTheFlipURLInBothCopies() throws {
        let asked = MatchQuestionLog()
        let matcher = bothCopies { request in
            asked.append(request)
            return request.copy == .origin ? .match : .none(why: "CDN copy is older: no rule for /appflip")
        }
        let findings = AppFlipChecks.check(
            config: config(),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution,
            matcher: matcher
        )
        let requests = asked.requests
        #expect(Set(requests.map(\.copy)) == [.origin, .cdn])
        #expect(requests.allSatisfy { $0.host == "flip.lightbulb-co.net" && $0.appID == Self.appID })
        let url = try #require(requests.first?.url)
        let items = try #require(URLComponents(string: url)?.queryItems)
        #expect(items.map(\.name) == ["client_id", "scope", "state", "redirect_uri"])
        #expect(items.first?.value == "1234")
        #expect(
            items.last?.value == "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"
        )
        #expect(rules(findings) == ["FLIP005"])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message.contains("CDN") == true)
    }

    @Test func unreadableCDNCopyIsOnlyAWarning() {
        let findings = AppFlipChecks.check(
            config: config(),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution,
            matcher: bothCopies { $0.copy == .origin ? .match : .unavailable(why: "HTTP 404") }
        )
        #expect(rules(findings) == ["FLIP015"])
        #expect(findings.first?.severity == .warning)
    }

    @Test func blockedOriginIsAnError() {
        let findings = AppFlipChecks.check(
            config: config(),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution,
            matcher: bothCopies {
                $0.copy == .origin ? .block(why: "details[0].components[0] excludes /appflip") : .match
            }
        )
        #expect(rules(findings) == ["FLIP005"])
        #expect(findings.first?.severity == .error)
    }

    @Test func redirectAllowlistWithoutGoogleHome() {
        let findings = AppFlipChecks.check(
            config: config(
                googleApps: [.googleHome, .googleAssistant],
                redirectURIs: [
                    "https://oauth-redirect.googleusercontent.com/a/com.google.OPA",
                    "https://oauth-redirect.googleusercontent.com/r/my-project",
                ]
            ),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution
        )
        #expect(Set(rules(findings)) == ["FLIP006", "FLIP007"])
        #expect(
            findings.filter { $0.rule == "FLIP007" }.first?.url
                == "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"
        )
        #expect(findings.allSatisfy { $0.severity == .error })
    }

    /// googleApps lists the Assistant, whose redirect URI the allowlist lacks: flips from it are refused (a
    /// warning, FLIP016); with the URI listed, nothing.
    @Test(arguments: [false, true])
    func listedGoogleAppsRedirectMissing(listed: Bool) {
        let home = "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"
        let assistant = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"
        let findings = AppFlipChecks.check(
            config: config(
                googleApps: [.googleHome, .googleAssistant],
                redirectURIs: [home] + (listed ? [assistant] : [])
            ),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution
        )
        #expect(rules(findings) == (listed ? [] : ["FLIP016"]))
        #expect(findings.allSatisfy { $0.severity == .warning && $0.url == assistant })
    }

    @Test func assistantOnlyConfigMissesGoogleHome() {
        let findings = AppFlipChecks.check(
            config: config(googleApps: [.googleAssistant]),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution
        )
        #expect(rules(findings) == ["FLIP007"])
    }

    // MARK: - Heuristics (warnings, never errors)

    /// The strings the streaming search finds in an executable holding `strings`, fed in 7-byte chunks so that
    /// needles split across chunks are found too.
    private func executable(_ strings: String...) -> BinaryStrings {
        var bytes: [UInt8] = [0xcf, 0xfa, 0xed, 0xfe] + [UInt8](repeating: 0, count: 64)
        for string in strings { bytes += Array(string.utf8) + [0] }
        var search = StringSearch(AppFlipChecks.executableNeedles)
        for start in stride(from: 0, to: bytes.count, by: 7) {
            search.consume(bytes[start..<min(start + 7, bytes.count)])
        }
        return BinaryStrings(found: search.found)
    }

    @Test func assistantOnlyBinaryIsWarned() {
        let findings = AppFlipChecks.check(
            config: config(),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution,
            executable: executable(
                "https://oauth-redirect.googleusercontent.com/a/com.google.OPA",
                "user_not_authorized"
            )
        )
        #expect(Set(rules(findings)) == ["FLIP008", "FLIP011", "FLIP012"])
        #expect(findings.allSatisfy { $0.severity == .warning })
    }

    @Test func migratedBinaryIsQuiet() {
        let findings = AppFlipChecks.check(
            config: config(),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution,
            executable: executable(
                "https://oauth-redirect.googleusercontent.com/a/com.google.OPA",
                "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast",
                "_UIApplicationOpenURLOptionUniversalLinksOnly"
            )
        )
        #expect(findings.isEmpty)
    }

    @Test func binaryWithoutRedirectHostOrWithSandboxOnly() {
        let none = AppFlipChecks.check(
            config: config(),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution,
            executable: executable("_UIApplicationOpenURLOptionUniversalLinksOnly")
        )
        #expect(rules(none) == ["FLIP009"])
        let sandbox = AppFlipChecks.check(
            config: config(),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution,
            executable: executable(
                "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast",
                "universalLinksOnly"
            )
        )
        #expect(rules(sandbox) == ["FLIP013"])
        #expect((none + sandbox).allSatisfy { $0.severity == .warning })
    }

    @Test func legacyAssistantDeepLinks() {
        let info = PlistValue.dictionary(["LSApplicationQueriesSchemes": .array([.string("assistant-settings")])])
        let findings = AppFlipChecks.check(
            config: config(),
            associatedDomains: domains("applinks:flip.lightbulb-co.net"),
            appID: Self.appID,
            signing: .distribution,
            infoPlist: info,
            executable: executable(
                "https://madeby.google.com/home-app/?deeplink=setup%2Fha_linking%3Fagent_id%3D",
                "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast",
                "universalLinksOnly"
            )
        )
        #expect(rules(findings) == ["FLIP010", "FLIP010"])
        #expect(findings.allSatisfy { $0.severity == .warning })
    }

    @Test func ruleIDsAreUniqueAndPrefixed() {
        let ids = AppFlipChecks.rules.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.hasPrefix("FLIP") })
    }

    // MARK: - Placeholders and the corpus

    @Test(arguments: [
        ("applinks:your-domain-here", true),
        ("applinks:example.com", true),
        ("applinks:app.example.org", true),
        // Reserved test TLDs (RFC 6761) are what fixtures use on purpose; they are not copied-in placeholders.
        ("applinks:myapp.test", false),
        ("applinks:shop.acme.example", false),
        ("applinks:intranet", true),
        ("webcredentials:localhost?mode=developer", false),
        ("applinks:flip.lightbulb-co.net", false),
    ])
    func placeholders(_ entry: String, _ flagged: Bool) throws {
        let parsed = AssociatedDomain.parse(entry: entry)
        #expect(AppFlipChecks.placeholderDomains([parsed]).isEmpty == !flagged)
    }

    private func corpusDomains(_ name: String) throws -> [AssociatedDomain] {
        let plist = try PlistParser.parse(try Corpus.bytes("entitlements/\(name)"))
        return AssociatedDomains.from(entitlements: plist).domains
    }

    /// MANIFEST: "SUSPECT: 'applinks:your-domain-here' (placeholder, not a valid FQDN)".
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func corpusPlaceholderDomainIsFlagged() throws {
        let entries = try corpusDomains("google-appflip_placeholder-domain.entitlements")
        let findings = AppFlipChecks.placeholderDomains(entries)
        #expect(rules(findings) == ["FLIP004"])
        #expect(findings.first?.domain == "your-domain-here")
        #expect(findings.first?.message.contains("placeholder") == true)
        let full = AppFlipChecks.check(
            config: config("https://your-domain-here/appflip"),
            associatedDomains: entries,
            appID: Self.appID,
            signing: .development
        )
        #expect(full.contains { $0.rule == "FLIP004" && $0.severity == .error })
    }

    /// MANIFEST: home-assistant has applinks:home-assistant.io, *.home-assistant.io and my.home-assistant.io.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func corpusWildcardEntitlements() throws {
        let entries = try corpusDomains("home-assistant_App-ios.entitlements")
        #expect(AppFlipChecks.placeholderDomains(entries).isEmpty)
        let viaWildcard = config("https://companion.home-assistant.io/appflip")
        #expect(AppFlipChecks.aasaHosts(config: viaWildcard, associatedDomains: entries) == ["home-assistant.io"])
        let exact = config("https://my.home-assistant.io/appflip")
        #expect(AppFlipChecks.aasaHosts(config: exact, associatedDomains: entries) == ["my.home-assistant.io"])
        let passkey = try corpusDomains("passkey-demo_PasskeyDemo.entitlements")
        #expect(AppFlipChecks.placeholderDomains(passkey).isEmpty)
    }
}

/// Records the matcher's questions (the matcher is `@Sendable`, so the log is locked).
final class MatchQuestionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [AASAMatchRequest] = []

    func append(_ request: AASAMatchRequest) {
        lock.withLock { log.append(request) }
    }

    var requests: [AASAMatchRequest] { lock.withLock { log } }
}
