import IPACheckAASA
import IPACheckGate
import IPACheckLinks
import IPACheckPlist
import IPACheckReport
import Testing

/// The checks wired to IPACheckAASA's real matcher.
///
/// AASA shapes: Apple's `components` with `"?"` and `exclude` (the sample of Apple's "Supporting associated domains",
/// developer.apple.com/documentation/xcode/supporting-associated-domains), the App Flip sample's legacy
/// `"paths": ["*"]` (github.com/googlesamples/identity-appflip-ios), Firebase email-link hosts with
/// `/__/auth/links*` and an empty `details` (firebase.google.com/docs/auth/ios/email-link-migration).
struct AASADocumentSetTests {
    static let appID = "ABCDE12345.net.lightbulb-co.app"

    private func documents(_ json: String, host: String = "flip.lightbulb-co.net") throws -> AASADocumentSet {
        let document = try AASADocument.parse(Array(json.utf8))
        var set = AASADocumentSet()
        set.add(document, host: host, copy: .origin)
        set.add(document, host: host, copy: .cdn)
        return set
    }

    private func flipFindings(
        _ json: String,
        clientID: String = "1234",
        url: String = "https://flip.lightbulb-co.net/appflip",
        entry: String = "applinks:flip.lightbulb-co.net",
        aasaHost: String = "flip.lightbulb-co.net"
    ) throws -> [Finding] {
        AppFlipChecks.check(
            config: AppFlipConfig(appFlipURL: url, clientID: clientID, scopes: ["devices"], googleApps: [.googleHome]),
            associatedDomains: [AssociatedDomain.parse(entry: entry)],
            appID: Self.appID,
            signing: .distribution,
            matcher: try documents(json, host: aasaHost).matcher
        )
    }

    @Test func pathComponentMatches() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["\#(Self.appID)"],"components":[{"/":"/appflip"}]}]}}"#
        #expect(try flipFindings(json).isEmpty)
    }

    @Test func legacyPathsStarMatches() throws {
        let json = #"{"applinks":{"apps":[],"details":[{"appID":"\#(Self.appID)","paths":["*"]}]}}"#
        #expect(try flipFindings(json).isEmpty)
    }

    @Test func queryMatcherSeesGooglesClientID() throws {
        let json = #"""
            {"applinks":{"details":[{"appIDs":["\#(Self.appID)"],
              "components":[{"/":"/appflip","?":{"client_id":"1234"}}]}]}}
            """#
        #expect(try flipFindings(json, clientID: "1234").isEmpty)
        let other = try flipFindings(json, clientID: "5678")
        #expect(other.map(\.rule) == ["FLIP005", "FLIP005"])
    }

    @Test func excludedPathBlocks() throws {
        let json = #"""
            {"applinks":{"details":[{"appIDs":["\#(Self.appID)"],
              "components":[{"/":"/appflip","exclude":true},{"/":"*"}]}]}}
            """#
        let findings = try flipFindings(json)
        #expect(findings.map(\.rule) == ["FLIP005", "FLIP005"])
        #expect(findings.allSatisfy { $0.message.contains("blocks") && $0.severity == .error })
    }

    @Test func otherAppOnly() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["ZZZZZ99999.com.other"],"components":[{"/":"*"}]}]}}"#
        #expect(try flipFindings(json).map(\.rule) == ["FLIP005", "FLIP005"])
    }

    /// A `*.` entry is served by the apex file (docs/ios-model.md I30; TN3155).
    @Test func wildcardAsksTheApexFile() throws {
        let json = #"{"applinks":{"details":[{"appIDs":["\#(Self.appID)"],"components":[{"/":"/appflip"}]}]}}"#
        let findings = try flipFindings(json, entry: "applinks:*.lightbulb-co.net", aasaHost: "lightbulb-co.net")
        #expect(findings.isEmpty)
        // Nothing was fetched for the apex: the origin copy is asked anyway and answers "not fetched" (an error),
        // and no CDN copy is asked about, since none was fetched.
        let wrongHost = try flipFindings(json, entry: "applinks:*.lightbulb-co.net")
        #expect(wrongHost.map(\.rule) == ["FLIP005"])
        #expect(wrongHost.last?.severity == .error)
        #expect(wrongHost.last?.message.contains("not fetched") == true)
    }

    @Test func missingCopiesAreUnavailable() {
        var set = AASADocumentSet()
        set.addFailure("HTTP 404", host: "flip.lightbulb-co.net", copy: .origin)
        let outcome = set.matcher(
            AASAMatchRequest(
                host: "flip.lightbulb-co.net",
                url: "https://flip.lightbulb-co.net/x",
                appID: Self.appID,
                copy: .origin
            )
        )
        #expect(outcome == .unavailable(why: "HTTP 404"))
    }

    // MARK: - Firebase email links

    private func emailFindings(_ json: String) throws -> [Finding] {
        let facts = FirebaseBundleFacts(
            path: "Payload/Lightbulb.app",
            infoPlist: .dictionary(["CFBundleIdentifier": .string("net.lightbulb-co.app")]),
            serviceFiles: [
                FirebaseServiceFile(
                    path: "Payload/Lightbulb.app/GoogleService-Info.plist",
                    plist: .dictionary([
                        "API_KEY": .string("AIzaSyA-example-key-0000000000000000000"),
                        "GCM_SENDER_ID": .string("123456789012"),
                        "BUNDLE_ID": .string("net.lightbulb-co.app"),
                        "PROJECT_ID": .string("lightbulb-prod"),
                        "GOOGLE_APP_ID": .string("1:123456789012:ios:0a1b2c3d4e5f60718293a4"),
                    ])
                )
            ],
            associatedDomains: [AssociatedDomain.parse(entry: "applinks:lightbulb-prod.firebaseapp.com")],
            appID: Self.appID
        )
        return FirebaseChecks.check(
            facts,
            settings: FirebaseLinkSettings(emailLinkSignIn: true),
            matcher: try documents(json, host: "lightbulb-prod.firebaseapp.com").matcher
        )
    }

    @Test func hostingAASAWithAuthLinksPath() throws {
        let json = #"{"applinks":{"apps":[],"details":[{"appID":"\#(Self.appID)","paths":["/__/auth/links*"]}]}}"#
        #expect(try emailFindings(json).isEmpty)
    }

    @Test func hostingAASAWithEmptyDetails() throws {
        let findings = try emailFindings(#"{"applinks":{"apps":[],"details":[]}}"#)
        #expect(findings.map(\.rule) == ["FIRE009", "FIRE009"])
    }
}
