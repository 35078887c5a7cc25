import Foundation
import IPACheckTestSupport
import Testing

/// `domains` and `check` on a project's entitlements file, before anything is built: its domains against the AASA
/// files the samples serve (Samples/aasa lists 7QX3KD52VH.com.acme.shop for acme.example), Xcode build settings
/// reported and never guessed.
struct EntitlementsFileCLITests {
    static func write(_ body: String) throws -> (folder: URL, file: String) {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-ent-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("App.entitlements")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(body)</dict></plist>
            """
        try Data(xml.utf8).write(to: file)
        return (folder, file.path)
    }

    static let domains = """
        <key>com.apple.developer.associated-domains</key>
        <array><string>applinks:acme.example</string><string>applinks:$(LINK_HOST)</string></array>
        """

    @Test func domainsListsTheEntriesAndReportsBuildSettings() throws {
        let (folder, file) = try Self.write(
            Self.domains + "<key>application-identifier</key><string>$(AppIdentifierPrefix)com.acme.shop</string>"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(["domains", file, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.jsonObject()
        let bundles = try #require(json["bundles"] as? [[String: Any]])
        let entries = try #require(bundles.first?["associatedDomains"] as? [[String: Any]])
        // Every entry of the array, the one holding a build setting included, at its index (issue "One truth").
        #expect(entries.compactMap { $0["host"] as? String } == ["acme.example", "$(link_host)"])
        let findings = try #require(json["findings"] as? [[String: Any]])
        let messages = findings.filter { $0["rule"] as? String == "ENT201" }.compactMap { $0["message"] as? String }
        #expect(messages.count == 2, "\(findings)")
        #expect(messages.contains { $0.hasPrefix("application-identifier is $(AppIdentifierPrefix)com.acme.shop") })
        #expect(messages.contains { $0.hasPrefix("applinks:$(LINK_HOST) holds a build setting") })
    }

    @Test(arguments: [
        ("7QX3KD52VH.com.acme.shop", Int32(0), [String]()), ("7QX3KD52VH.com.acme.other", 1, ["LINK001"]),
    ])
    func checkHoldsTheDomainsAgainstTheAASAFiles(appID: String, status: Int32, rules: [String]) throws {
        let (folder, file) = try Self.write(Self.domains)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(["check", file, "--app-id", appID, "--format", "json"] + SampleFiles.offline)
        #expect(result.status == status, "\(result.stderr)")
        let json = try result.jsonObject()
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.compactMap { $0["rule"] as? String }.filter { $0 != "ENT201" } == rules)
        // The checks a file cannot have are listed as not run, with the reason.
        let text = try CLI.run(["check", file, "--app-id", appID] + SampleFiles.offline).stdout
        #expect(text.contains("an entitlements file is not a build"))
    }

    /// Without an application identifier and without --app-id, every command that judges the file says the same
    /// usage error naming --app-id (exit 64): `explain`, `links` and `match --build` said it as an unreadable input
    /// (exit 2) while `check` said it as a usage error.
    @Test(arguments: [
        ["check"], ["explain", "https://acme.example/products/1"], ["links"],
        ["match", "https://acme.example/products/1", "--build"],
    ])
    func everyCommandNeedsAnAppIDItCanKnow(command: [String]) throws {
        let (folder, file) = try Self.write(
            Self.domains + "<key>application-identifier</key><string>$(AppIdentifierPrefix)com.acme.shop</string>"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(command + [file] + SampleFiles.offline)
        #expect(result.status == 64, "\(command): \(result.stderr)")
        let first = result.stderr.split(separator: "\n").first.map(String.init)
        #expect(
            first == "ipacheck: error: \(file) names no application-identifier: give it with --app-id TEAMID.BUNDLE"
        )
    }

    /// Another of a project's property lists given as the entitlements file: every command that reads one refuses
    /// it, naming what it is and the key that says so (read as entitlements it claimed nothing, and `check` passed).
    @Test(arguments: [
        (
            "<key>CFBundleIdentifier</key><string>com.acme.shop</string>",
            "is an Info.plist (it has CFBundleIdentifier), not an entitlements file: give the app's .entitlements file, or the ipa"
        ),
        (
            "<key>ExpirationDate</key><date>2030-01-01T00:00:00Z</date><key>Entitlements</key><dict/>",
            "is a provisioning profile's content (it has ExpirationDate and Entitlements), not an entitlements file: "
                + "give the .mobileprovision itself to `ipacheck profile`, or the ipa"
        ),
        (
            "<key>GOOGLE_APP_ID</key><string>1:1:ios:1</string>",
            "is a GoogleService-Info.plist (it has GOOGLE_APP_ID), not an entitlements file: give the app's "
                + ".entitlements file, or the ipa"
        ),
    ])
    func anotherPropertyListIsNoEntitlementsFile(body: String, words: String) throws {
        let (folder, file) = try Self.write(body)
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in [
            ["domains"], ["check", "--app-id", "7QX3KD52VH.com.acme.shop"],
            ["explain", "https://acme.example/products/1", "--app-id", "7QX3KD52VH.com.acme.shop"],
        ] {
            let result = try CLI.run(command + [file] + (command[0] == "domains" ? [] : SampleFiles.offline))
            #expect(result.status == 2, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr == "ipacheck: error: \(file): \(words)\n", "\(command)")
        }
        // An empty dictionary is an app with no entitlements, not another file.
        let (emptyFolder, empty) = try Self.write("")
        defer { try? FileManager.default.removeItem(at: emptyFolder) }
        #expect(try CLI.run(["domains", empty]).status == 0)
    }

    @Test(arguments: [["entitlements"], ["verify"]])
    func commandsThatNeedABuildSaySo(command: [String]) throws {
        let (folder, file) = try Self.write(Self.domains)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(command + [file])
        #expect(result.status == 2)
        #expect(result.stderr.contains("is a property list, not a build"), "\(result.stderr)")
    }
}
