import Foundation
import IPACheckLinks
import IPACheckPlist
import IPACheckReport
import IPACheckTestSupport
import Testing

@testable import IPACheckGate

/// Firebase email actions and continue URLs.
///
/// Facts from Firebase's pages: the modes are `signIn`, `verifyEmail`, `resetPassword`, `recoverEmail`,
/// `verifyAndChangeEmail`, `revertSecondFactorAddition` (the custom email action handler,
/// firebase.google.com/docs/auth/custom-email-handler); an action the app handles arrives as the Hosting mobile link
/// `/__/auth/links?link=…/__/auth/action?…mode%3DMODE…` (firebase.google.com/docs/auth/ios/email-link-migration),
/// the two Firebase sends by itself as the action handler link `/__/auth/action?mode=MODE&oobCode=…&apiKey=…`; a
/// continue URL brings the user back into the app only as a universal link the app claims and whose AASA opens it
/// (`ActionCodeSettings`, firebase.google.com/docs/reference/js/auth.actioncodesettings).
struct EmailActionsTests {
    static let appID = "ABCDE12345.net.lightbulb-co.app"
    static let linkHost = "lightbulb-prod.firebaseapp.com"

    private func bundle(
        domains: [String],
        isExtension: Bool = false,
        withServiceFile: Bool = true
    ) -> FirebaseBundleFacts {
        let file = FirebaseServiceFile(
            path: "Payload/Lightbulb.app/GoogleService-Info.plist",
            plist: .dictionary([
                "API_KEY": .string("AIzaSyA-example-key-0000000000000000000"),
                "GCM_SENDER_ID": .string("123456789012"),
                "BUNDLE_ID": .string("net.lightbulb-co.app"),
                "PROJECT_ID": .string("lightbulb-prod"),
                "GOOGLE_APP_ID": .string("1:123456789012:ios:0a1b2c3d4e5f60718293a4"),
            ])
        )
        return FirebaseBundleFacts(
            path: isExtension ? "Payload/Lightbulb.app/PlugIns/Widget.appex" : "Payload/Lightbulb.app",
            isExtension: isExtension,
            infoPlist: .dictionary([
                "CFBundleIdentifier": .string(isExtension ? "net.lightbulb-co.app.widget" : "net.lightbulb-co.app")
            ]),
            serviceFiles: withServiceFile ? [file] : [],
            associatedDomains: domains.map { AssociatedDomain.parse(entry: $0) },
            appID: Self.appID
        )
    }

    private func rules(_ findings: [Finding]) -> [String] { findings.map(\.rule) }

    /// A matcher with an origin copy for every host, answering from `answer` and logging every question.
    private func matcher(
        log: MatchQuestionLog = MatchQuestionLog(),
        copies: [AASACopy] = [.origin],
        _ answer: @escaping @Sendable (AASAMatchRequest) -> AASAMatchOutcome
    ) -> AASALinkMatcher {
        AASALinkMatcher(copies: { _ in copies }) { request in
            log.append(request)
            return answer(request)
        }
    }

    // MARK: - Settings

    @Test func emailLinkSignInMeansSignIn() {
        #expect(FirebaseLinkSettings(emailLinkSignIn: true) == FirebaseLinkSettings(emailActions: [.signIn]))
        #expect(
            FirebaseLinkSettings(emailLinkSignIn: true, emailActions: [.resetPassword, .signIn]).emailActions == [
                .signIn, .resetPassword,
            ]
        )
        #expect(FirebaseLinkSettings(emailActions: [.verifyEmail]).emailLinkSignIn == false)
        #expect(
            FirebaseEmailAction.allCases.map(\.rawValue) == [
                "signIn", "verifyEmail", "resetPassword", "recoverEmail", "verifyAndChangeEmail",
                "revertSecondFactorAddition",
            ]
        )
    }

    // MARK: - The link of each action

    /// Every declared action is asked about, with the link Firebase sends for it.
    @Test func everyActionsLinkIsAsked() throws {
        let log = MatchQuestionLog()
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:\(Self.linkHost)"]),
            settings: FirebaseLinkSettings(emailActions: FirebaseEmailAction.allCases),
            matcher: matcher(log: log) { _ in .match }
        )
        #expect(findings.isEmpty)
        let urls = log.requests.map(\.url)
        #expect(log.requests.allSatisfy { $0.host == Self.linkHost && $0.appID == Self.appID })
        for action in FirebaseEmailAction.allCases {
            let expected =
                action.takesActionCodeSettings
                ? "https://\(Self.linkHost)/__/auth/links?link=https://\(Self.linkHost)/__/auth/action?apiKey%3D"
                    + "API_KEY%26mode%3D\(action.rawValue)%26oobCode%3D"
                : "https://\(Self.linkHost)/__/auth/action?mode=\(action.rawValue)&oobCode="
            #expect(urls.contains { $0.hasPrefix(expected) }, "\(action): \(urls)")
        }
        #expect(
            FirebaseChecks.sampleEmailLink(host: "h.example").hasSuffix("continueUrl%3Dhttps://h.example/%26lang%3Den")
        )
    }

    /// An AASA that opens only /__/auth/links (as some generators write it) leaves recoverEmail's link in Safari.
    @Test func actionHandlerPathNotOpened() throws {
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:\(Self.linkHost)"]),
            settings: FirebaseLinkSettings(emailActions: [.signIn, .resetPassword, .recoverEmail]),
            matcher: matcher { request in
                request.url.contains("/__/auth/links?") ? .match : .none(why: "no component matches")
            }
        )
        #expect(rules(findings) == ["FIRE009"])
        let finding = try #require(findings.first)
        #expect(finding.severity == .error)
        #expect(finding.message.contains("recoverEmail"))
        #expect(!finding.message.contains("resetPassword"))
        #expect(finding.url?.contains("/__/auth/action?mode=recoverEmail") == true)
    }

    /// One cause, one finding: an AASA without the app fails every action the same way, named once.
    @Test func sameAnswerIsOneFinding() throws {
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:\(Self.linkHost)"]),
            settings: FirebaseLinkSettings(emailActions: [.verifyEmail, .resetPassword, .verifyAndChangeEmail]),
            matcher: matcher(copies: [.origin, .cdn]) { _ in .none(why: "details is empty") }
        )
        #expect(rules(findings) == ["FIRE009", "FIRE009"])  // origin and Apple's CDN copy
        for finding in findings {
            #expect(finding.message.contains("verifyEmail, resetPassword, verifyAndChangeEmail links"))
        }
    }

    /// An action other than signIn is enough to need the link domain claimed.
    @Test(arguments: FirebaseEmailAction.allCases)
    func anyActionNeedsTheLinkDomain(_ action: FirebaseEmailAction) {
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:www.lightbulb-co.net"]),
            settings: FirebaseLinkSettings(emailActions: [action])
        )
        #expect(rules(findings) == ["FIRE005"])
        #expect(findings.first?.domain == Self.linkHost)
    }

    /// With a custom linkDomain every action's link is asked about on that domain, through a wildcard's file host.
    @Test func linkDomainThroughAWildcard() {
        let log = MatchQuestionLog()
        let settings = FirebaseLinkSettings(linkDomain: "auth.lightbulb-co.net", emailActions: [.verifyEmail])
        let facts = bundle(domains: ["applinks:*.lightbulb-co.net"])
        _ = FirebaseChecks.check(facts, settings: settings, matcher: matcher(log: log) { _ in .match })
        #expect(log.requests.map(\.host) == ["lightbulb-co.net"])
        #expect(log.requests.first?.url.hasPrefix("https://auth.lightbulb-co.net/__/auth/links?link=") == true)
        #expect(FirebaseChecks.linkHosts(facts, settings: settings) == ["auth.lightbulb-co.net", "lightbulb-co.net"])
    }

    // MARK: - Continue URLs

    @Test func claimedContinueURLThatOpensPasses() {
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:www.lightbulb-co.net"]),
            settings: FirebaseLinkSettings(continueURLs: ["https://www.lightbulb-co.net/account/verified?from=email"]),
            matcher: matcher { _ in .match }
        )
        #expect(findings.isEmpty)
    }

    @Test(arguments: [
        ["applinks:lightbulb-co.net"],  // another host
        ["applinks:*.www.lightbulb-co.net"],  // a wildcard covers only subdomains
        ["applinks:www.lightbulb-co.net?mode=developer"],  // not on every device
        [],
    ])
    func unclaimedContinueURLIsAWarningNamingIt(_ domains: [String]) throws {
        let url = "https://www.lightbulb-co.net/account/verified"
        let findings = FirebaseChecks.check(
            bundle(domains: domains),
            settings: FirebaseLinkSettings(continueURLs: [url]),
            matcher: matcher { _ in .match }
        )
        #expect(rules(findings) == ["FIRE016"])
        let finding = try #require(findings.first)
        #expect(finding.severity == .warning)
        #expect(finding.message.contains(url))
        #expect(finding.message.contains("Safari"))
        #expect(finding.url == url)
        #expect(finding.location == "firebase.continueURLs[0]")
    }

    @Test func continueURLTheAASADoesNotOpen() throws {
        let log = MatchQuestionLog()
        let url = "https://lightbulb-co.net/account/verified"
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:lightbulb-co.net"]),
            settings: FirebaseLinkSettings(continueURLs: ["https://lightbulb-co.net/shop", url]),
            matcher: matcher(log: log, copies: [.origin, .cdn]) { request in
                request.url == url ? .block(why: "the exclude rule /account/* comes first") : .match
            }
        )
        #expect(rules(findings) == ["FIRE017", "FIRE017"])
        #expect(findings.allSatisfy { $0.severity == .warning && $0.message.contains(url) && $0.url == url })
        #expect(findings.allSatisfy { $0.location == "firebase.continueURLs[1]" })
        #expect(Set(log.requests.map(\.url)) == ["https://lightbulb-co.net/shop", url])
    }

    /// An unreadable file is the serving rules' finding for that claimed host, not a continue-URL one.
    @Test func unreadableFileIsLeftToTheServingRules() {
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:lightbulb-co.net"]),
            settings: FirebaseLinkSettings(continueURLs: ["https://lightbulb-co.net/done"]),
            matcher: matcher { _ in .unavailable(why: "HTTP 404") }
        )
        #expect(findings.isEmpty)
    }

    @Test func dynamicLinksContinueURLIsDead() throws {
        let findings = FirebaseChecks.check(
            bundle(domains: ["applinks:lightbulb-co.net"]),
            settings: FirebaseLinkSettings(continueURLs: ["https://lightbulb.page.link/done"])
        )
        #expect(rules(findings) == ["FIRE007"])
        #expect(findings.first?.message.contains("Aug 25, 2025") == true)
    }

    @Test func extensionsAreNotAskedAboutContinueURLs() {
        let facts = bundle(domains: [], isExtension: true)
        let settings = FirebaseLinkSettings(continueURLs: ["https://lightbulb-co.net/done"])
        #expect(FirebaseChecks.check(facts, settings: settings).isEmpty)
        #expect(FirebaseChecks.linkHosts(facts, settings: settings).isEmpty)
    }

    /// The gate fetches the file of each claimed continue URL's host (the apex for a wildcard), and nothing for
    /// one the app does not claim.
    @Test func continueURLHostsAreFetched() {
        let settings = FirebaseLinkSettings(
            continueURLs: [
                "https://shop.lightbulb-co.net/a", "https://elsewhere.example/b", "https://lightbulb-co.net/c",
            ]
        )
        let facts = bundle(domains: ["applinks:*.lightbulb-co.net", "applinks:lightbulb-co.net"])
        #expect(FirebaseChecks.linkHosts(facts, settings: settings) == ["lightbulb-co.net"])
    }

    // MARK: - Coverage

    private func coverage(_ settings: FirebaseLinkSettings, bundles: [FirebaseBundleFacts]) -> RuleCoverage {
        var coverage = RuleCoverage()
        FirebaseChecks.recordCoverage(bundles, settings: settings, cdnAsked: false, into: &coverage)
        return coverage
    }

    @Test func coverageSaysWhyTheNewRulesDidNotRun() {
        let none = coverage(FirebaseLinkSettings(), bundles: [bundle(domains: [])])
        for rule in ["FIRE016", "FIRE017"] {
            #expect(
                none.status(of: rule)
                    == .notRun(reason: "no continue URLs are declared (firebase.continueURLs in the config file)")
            )
        }
        guard case .notRun(let reason) = none.status(of: "FIRE009") else {
            Issue.record("FIRE009 ran without email actions")
            return
        }
        #expect(reason.contains("firebase.emailActions"))
        let declared = coverage(
            FirebaseLinkSettings(emailActions: [.resetPassword], continueURLs: ["https://lightbulb-co.net/done"]),
            bundles: [bundle(domains: [])]
        )
        for rule in ["FIRE005", "FIRE009", "FIRE016", "FIRE017"] { #expect(declared.status(of: rule) == .ran) }
        let noProject = coverage(
            FirebaseLinkSettings(emailActions: [.resetPassword]),
            bundles: [bundle(domains: [], withServiceFile: false)]
        )
        guard case .notRun(let why) = noProject.status(of: "FIRE009") else {
            Issue.record("FIRE009 ran with no link domain known")
            return
        }
        #expect(why.contains("PROJECT_ID"))
    }

    // MARK: - The config file

    private func load(_ text: String, ext: String) throws -> GateConfiguration {
        let url = Scratch.folder.appendingPathComponent("ipacheck-\(UUID().uuidString).\(ext)")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try GateConfiguration.load(path: url.path)
    }

    @Test(arguments: [
        (
            "json",
            """
            {"firebase": {"emailLinkSignIn": true, "emailActions": ["resetPassword", "recoverEmail"],
              "linkDomain": "links.example.com", "continueURLs": ["https://example.com/done?x=1"]}}
            """
        ),
        (
            "yml",
            """
            firebase:
              emailLinkSignIn: true
              emailActions: [resetPassword, recoverEmail]
              linkDomain: links.example.com
              continueURLs:
                - https://example.com/done?x=1
            """
        ),
    ])
    func readsActionsAndContinueURLs(ext: String, text: String) throws {
        let configuration = try load(text, ext: ext)
        #expect(configuration.firebase.emailActions == [.signIn, .resetPassword, .recoverEmail])
        #expect(configuration.firebase.continueURLs == ["https://example.com/done?x=1"])
        #expect(configuration.firebase.linkDomain == "links.example.com")
    }

    @Test(arguments: [
        (
            "json", #"{"firebase": {"emailActions": ["signIn", "resetPasswrod"]}}"#,
            "firebase.emailActions[1] is resetPasswrod, which is not an email action (the actions are signIn, "
                + "verifyEmail, resetPassword, recoverEmail, verifyAndChangeEmail, revertSecondFactorAddition)"
        ),
        (
            "yml", "firebase:\n  emailActions:\n    - signIn\n    - verify\n",
            "line 4, column 7: firebase.emailActions[1] is verify, which is not an email action"
        ),
        ("json", #"{"firebase": {"emailActions": "signIn"}}"#, "firebase.emailActions must be an array of strings"),
        ("json", #"{"firebase": {"continueURLs": [42]}}"#, "firebase.continueURLs[0] must be a string"),
        (
            "yml", "firebase:\n  continueURLs: https://example.com/\n",
            "firebase.continueURLs must be an array of strings"
        ),
        (
            "json", #"{"firebase": {"continueURLs": ["https://example.com/", "myapp://done"]}}"#,
            "firebase.continueURLs[1] must be an http or https URL with a host"
        ),
        (
            "json", #"{"firebase": {"emailLinkSignIn": false, "emailActions": ["signIn"]}}"#,
            "firebase.emailLinkSignIn is false, but firebase.emailActions lists signIn"
        ),
        (
            "yml", "firebase:\n  linkDomain: https://links.example.com/\n",
            "firebase.linkDomain must be a host name"
        ),
        ("yml", "firebase:\n  continueUrls: []\n", "unknown key continueUrls in firebase"),
    ])
    func refusesBadValuesWithTheKeyPath(ext: String, text: String, expected: String) throws {
        let error = #expect(throws: InputError.self) { try load(text, ext: ext) }
        #expect(error?.code == "bad-config")
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }
}
