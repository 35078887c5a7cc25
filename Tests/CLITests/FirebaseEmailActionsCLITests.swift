import Foundation
import IPACheckTestSupport
import Testing

/// `ipacheck check` with Firebase email actions and continue URLs in the config file, offline.
///
/// Acme.ipa (Samples/README.md) claims `applinks:acme.example` and has a GoogleService-Info.plist for project
/// acme-shop; the config names `acme.example` as the custom Hosting `linkDomain`. The test's copy of the sample AASA
/// of acme.example adds a component for `/__/auth/links` only, so the actions the app requests with
/// ActionCodeSettings open it and `recoverEmail` (sent as the action handler link `/__/auth/action?mode=…`) does
/// not; of the continue URLs, `/products/42` opens the app, `/account/settings` is excluded by the file's first
/// component, and `help.acme-support.example` is not claimed.
struct FirebaseEmailActionsCLITests {
    static let opens = "https://acme.example/products/42"
    static let excluded = "https://acme.example/account/settings"
    static let unclaimed = "https://help.acme-support.example/done"

    /// A folder with a copy of Samples/aasa whose acme.example file also opens /__/auth/links.
    private func folder() throws -> URL {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-fire-\(UUID())")
        let aasa = folder.appendingPathComponent("aasa")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: SampleFiles.aasaDir), to: aasa)
        let file = aasa.appendingPathComponent("acme.example/apple-app-site-association")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var applinks = try #require(document["applinks"] as? [String: Any])
        var details = try #require(applinks["details"] as? [[String: Any]])
        var components = try #require(details[0]["components"] as? [[String: Any]])
        components.insert(["/": "/__/auth/links", "comment": "Firebase email links"], at: 0)
        details[0]["components"] = components
        applinks["details"] = details
        document["applinks"] = applinks
        try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted]).write(to: file)
        return folder
    }

    private func check(_ folder: URL, _ extra: [String]) throws -> CLIResult {
        let aasa = folder.appendingPathComponent("aasa").path
        return try CLI.run(
            ["check", SampleFiles.acme, "--offline", "--aasa-dir", aasa, "--format", "json"] + extra,
            directory: folder
        )
    }

    private func firebaseFindings(_ result: CLIResult) throws -> [[String: Any]] {
        let findings = try #require(try result.jsonObject()["findings"] as? [[String: Any]])
        return findings.filter { ($0["rule"] as? String)?.hasPrefix("FIRE") == true }
    }

    private func notChecked(_ result: CLIResult) throws -> [String: String] {
        let inputs = try #require(try result.jsonObject()["inputs"] as? [[String: Any]])
        let groups = try #require(inputs.first?["notChecked"] as? [[String: Any]])
        var reasons: [String: String] = [:]
        for group in groups {
            for rule in group["rules"] as? [String] ?? [] { reasons[rule] = group["reason"] as? String }
        }
        return reasons
    }

    static let json = """
        {"firebase": {"linkDomain": "acme.example", "emailActions": ["signIn", "resetPassword", "recoverEmail"],
          "continueURLs": ["\(opens)", "\(excluded)", "\(unclaimed)"]}}
        """

    static let yaml = """
        firebase:
          linkDomain: acme.example
          emailActions: [signIn, resetPassword, recoverEmail]
          continueURLs:
            - \(opens)
            - \(excluded)
            - \(unclaimed)
        """

    /// The same config in either format, found in the current folder: one error for the action whose link the AASA
    /// does not open, one warning naming each continue URL that would leave the user in Safari.
    @Test(arguments: [(".ipacheck.json", json), (".ipacheck.yml", yaml)])
    func everyActionAndContinueURLIsChecked(name: String, text: String) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        let result = try check(folder, [])
        #expect(result.status == 1, "\(result.stderr)")
        let findings = try firebaseFindings(result)
        let byRule = Dictionary(grouping: findings) { $0["rule"] as? String ?? "" }

        let action = try #require(byRule["FIRE009"]?.first, "\(findings)")
        #expect(byRule["FIRE009"]?.count == 1)
        #expect(action["severity"] as? String == "error")
        #expect((action["message"] as? String)?.contains("recoverEmail") == true)
        #expect((action["message"] as? String)?.contains("resetPassword") == false)
        #expect((action["url"] as? String)?.hasPrefix("https://acme.example/__/auth/action?mode=recoverEmail") == true)

        let aasa = try #require(byRule["FIRE017"], "\(findings)")
        #expect(aasa.map { $0["url"] as? String } == [Self.excluded])
        #expect(aasa.allSatisfy { $0["severity"] as? String == "warning" })
        #expect((aasa.first?["message"] as? String)?.contains(Self.excluded) == true)

        let unclaimed = try #require(byRule["FIRE016"], "\(findings)")
        #expect(unclaimed.map { $0["url"] as? String } == [Self.unclaimed])
        #expect((unclaimed.first?["message"] as? String)?.contains(Self.unclaimed) == true)
        #expect(unclaimed.first?["severity"] as? String == "warning")

        #expect(!findings.contains { ($0["url"] as? String) == Self.opens })
        #expect(Set(byRule.keys) == ["FIRE007", "FIRE009", "FIRE016", "FIRE017"])  // FIRE007: acme.page.link
        let skipped = try notChecked(result)
        for rule in ["FIRE005", "FIRE009", "FIRE010", "FIRE016", "FIRE017"] { #expect(skipped[rule] == nil, "\(rule)") }
    }

    /// Without firebase settings the new rules are listed as not checked, with the reason.
    @Test func withoutSettingsTheRulesSayWhyTheyDidNotRun() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try check(folder, [])
        let skipped = try notChecked(result)
        #expect(skipped["FIRE016"] == "no continue URLs are declared (firebase.continueURLs in the config file)")
        #expect(skipped["FIRE017"] == skipped["FIRE016"])
        #expect(skipped["FIRE009"]?.contains("firebase.emailActions") == true)
        #expect(try firebaseFindings(result).allSatisfy { $0["rule"] as? String == "FIRE007" })
    }

    /// An unknown action is one exit-2 line naming the file, the key path and the valid actions.
    @Test func anUnknownActionIsRefused() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("gate.yml")
        try Data("firebase:\n  emailActions: [signIn, passwordReset]\n".utf8).write(to: config)
        let result = try check(folder, ["--config", config.path])
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(config.path))
        #expect(result.stderr.contains("firebase.emailActions[1] is passwordReset"))
        #expect(result.stderr.contains("signIn, verifyEmail, resetPassword, recoverEmail, verifyAndChangeEmail"))
    }
}
