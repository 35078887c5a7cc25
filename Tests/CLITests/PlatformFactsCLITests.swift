import Foundation
import IPACheckTestSupport
import Testing

/// `check` end to end on the platform facts that changed: a browser app's applinks claims
/// (PLAT001) on an entitlements file, and HTTPS callbacks of `ASWebAuthenticationSession` without the
/// `webcredentials:` domain they need (PLAT002–PLAT004) on generated ipas whose executable holds the strings.
///
/// None of these rules existed before this change, so each "fires" test fails on the old code.
struct PlatformFactsCLITests {
    /// `Samples/aasa` lists 7QX3KD52VH.com.acme.shop for applinks and webcredentials on acme.example.
    static let appID = "7QX3KD52VH.com.acme.shop"

    /// Writes `App.entitlements` with this application identifier and `body`.
    static func entitlements(_ body: String) throws -> (folder: URL, file: String) {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-plat-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("App.entitlements")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>application-identifier</key><string>\(appID)</string>
            \(body)
            </dict></plist>
            """
        try Data(xml.utf8).write(to: file)
        return (folder, file.path)
    }

    /// An ipa of one app, `Payload/Acme.app`, signed ad hoc with `domains`, whose executable holds `strings`.
    static func ipa(domains: [String], strings: [String]) throws -> String {
        try SmallIPA.write(domains: domains, appID: appID, name: "Acme", strings: strings)
    }

    static let selector = "callbackWithHTTPSHost:path:"

    /// The findings of `check TARGET --format json` offline against the samples, and the rules not checked.
    static func check(_ target: String) throws -> (status: Int32, findings: [[String: Any]], notChecked: [String]) {
        let result = try CLI.run(["check", target, "--format", "json"] + SampleFiles.offline)
        let json = try result.jsonObject()
        let findings = try #require(json["findings"] as? [[String: Any]], "\(result.stdout)")
        let inputs = try #require(json["inputs"] as? [[String: Any]])
        let notChecked = (inputs.first?["notChecked"] as? [[String: Any]] ?? []).flatMap {
            $0["rules"] as? [String] ?? []
        }
        return (result.status, findings, notChecked)
    }

    static func rules(_ findings: [[String: Any]]) -> [String] {
        findings.compactMap { $0["rule"] as? String }.filter { $0.hasPrefix("PLAT") }.sorted()
    }

    // MARK: - PLAT001 on an entitlements file

    @Test func aBrowserClaimingApplinksFailsTheGate() throws {
        let (folder, file) = try Self.entitlements(
            """
            <key>com.apple.developer.web-browser</key><true/>
            <key>com.apple.developer.associated-domains</key>
            <array><string>applinks:acme.example</string><string>webcredentials:acme.example</string></array>
            """
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, findings, notChecked) = try Self.check(file)
        #expect(status == 1)
        #expect(Self.rules(findings) == ["PLAT001"], "\(findings)")
        let finding = try #require(findings.first { $0["rule"] as? String == "PLAT001" })
        #expect(finding["domain"] as? String == "acme.example")
        #expect(finding["severity"] as? String == "error")
        // A file has no executable: the callback rules are listed as not checked, never as passed.
        for rule in ["PLAT002", "PLAT003", "PLAT004"] { #expect(notChecked.contains(rule), "\(notChecked)") }
        #expect(!notChecked.contains("PLAT001"))
        let text = try CLI.run(["check", file] + SampleFiles.offline).stdout
        #expect(text.contains("PLAT001"))
        #expect(text.contains("entitlements file has no executable"), "\(text)")
    }

    @Test(arguments: [
        "<key>com.apple.developer.web-browser</key><false/>"
            + "<key>com.apple.developer.associated-domains</key><array><string>applinks:acme.example</string></array>",
        "<key>com.apple.developer.web-browser</key><true/>"
            + "<key>com.apple.developer.associated-domains</key><array><string>webcredentials:acme.example</string>"
            + "</array>",
    ])
    func aBrowserWithoutApplinksOrAnAppWithoutTheEntitlementPasses(body: String) throws {
        let (folder, file) = try Self.entitlements(body)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, findings, notChecked) = try Self.check(file)
        #expect(status == 0, "\(findings)")
        #expect(Self.rules(findings).isEmpty)
        #expect(!notChecked.contains("PLAT001"))
    }

    // MARK: - PLAT002–PLAT004 on generated ipas

    @Test func httpsCallbacksWithoutWebcredentialsFailTheGate() throws {
        let ipa = try Self.ipa(domains: ["applinks:acme.example"], strings: [Self.selector])
        let (status, findings, notChecked) = try Self.check(ipa)
        #expect(status == 1)
        #expect(Self.rules(findings) == ["PLAT002"], "\(findings)")
        let finding = try #require(findings.first { $0["rule"] as? String == "PLAT002" })
        #expect(finding["severity"] as? String == "error")
        for rule in ["PLAT001", "PLAT002", "PLAT003", "PLAT004"] { #expect(!notChecked.contains(rule)) }
    }

    @Test func anEvidentHostClaimedOnlyForApplinksIsWarned() throws {
        let ipa = try Self.ipa(
            domains: ["applinks:shop.acme.example", "webcredentials:acme.example"],
            strings: [Self.selector, "shop.acme.example"]
        )
        let (_, findings, _) = try Self.check(ipa)
        #expect(Self.rules(findings) == ["PLAT003"], "\(findings)")
        let finding = try #require(findings.first { $0["rule"] as? String == "PLAT003" })
        #expect(finding["domain"] as? String == "shop.acme.example")
        #expect(finding["severity"] as? String == "warning")
    }

    @Test func anUnknownHostGetsANoteNamingTheWebcredentialsDomains() throws {
        let ipa = try Self.ipa(
            domains: ["applinks:acme.example", "webcredentials:acme.example"],
            strings: [Self.selector]
        )
        let (status, findings, _) = try Self.check(ipa)
        #expect(Self.rules(findings) == ["PLAT004"], "\(findings)")
        let finding = try #require(findings.first { $0["rule"] as? String == "PLAT004" })
        #expect(finding["severity"] as? String == "note")
        #expect((finding["message"] as? String)?.contains("webcredentials:acme.example") == true)
        // A note never fails the gate on its own: the generated ipa's errors are its missing profile and seal.
        let errors = findings.filter { $0["severity"] as? String == "error" }.compactMap { $0["rule"] as? String }
        #expect(status == (errors.isEmpty ? 0 : 1))
        #expect(!errors.contains { $0.hasPrefix("PLAT") }, "\(errors)")
    }

    @Test(arguments: [
        // The host is claimed under webcredentials.
        (["applinks:acme.example", "webcredentials:acme.example"], [selector, "xx", "acme.example"]),
        // No HTTPS callback at all: the custom scheme needs no associated domain.
        (["applinks:acme.example"], ["callbackWithCustomScheme:"]),
    ])
    func callbacksThatNeedNothingMorePass(domains: [String], strings: [String]) throws {
        let ipa = try Self.ipa(domains: domains, strings: strings)
        let (_, findings, notChecked) = try Self.check(ipa)
        #expect(Self.rules(findings).isEmpty, "\(findings)")
        for rule in ["PLAT002", "PLAT003", "PLAT004"] { #expect(!notChecked.contains(rule)) }
    }
}
