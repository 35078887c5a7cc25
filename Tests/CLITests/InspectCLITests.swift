import Foundation
import IPACheckTestSupport
import Testing

/// `ipacheck domains`, `entitlements` and `verify` on the samples.
///
/// Expected values come from scripts/make-samples.py (the source of truth for what was signed) and
/// Samples/README.md.
struct InspectCLITests {
    /// MAIN_DOMAINS of make-samples.py, in signing order.
    static let mainDomains = [
        "applinks:acme.example", "applinks:*.acme.example", "applinks:www.acme.example",
        "webcredentials:acme.example", "activitycontinuation:acme.example", "appclips:acme.example",
        "applinks:beta.acme.example?mode=developer", "applinks:mdm.acme.example?mode=managed",
        "applinks:links.acme.example", "applinks:acme.page.link", "applinks:shop.acme.example:8443",
    ]

    // MARK: - domains

    @Test func domainsJSONFollowsTheContract() throws {
        let result = try CLI.run(["domains", SampleFiles.acme, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let bundles = try #require(try result.jsonObject()["bundles"] as? [[String: Any]])
        for bundle in bundles {
            #expect(Set(bundle.keys).isSuperset(of: ["path", "kind", "bundleID", "appID", "associatedDomains"]))
        }
        let main = try #require(bundles.first)
        #expect(main["path"] as? String == "Payload/Acme.app")
        #expect(main["kind"] as? String == "app")
        #expect(main["bundleID"] as? String == "com.acme.shop")
        #expect(main["appID"] as? String == "7QX3KD52VH.com.acme.shop")
        let entries = try #require(main["associatedDomains"] as? [[String: Any]])
        #expect(entries.map { $0["entry"] as? String ?? "" } == Self.mainDomains)
        for entry in entries {
            #expect(Set(entry.keys).isSuperset(of: ["entry", "service", "host", "wildcard", "mode"]))
        }

        func entry(_ text: String) throws -> [String: Any] {
            try #require(entries.first { $0["entry"] as? String == text })
        }
        let apex = try entry("applinks:acme.example")
        #expect(apex["service"] as? String == "applinks")
        #expect(apex["host"] as? String == "acme.example")
        #expect(apex["wildcard"] as? Bool == false)
        #expect(apex["mode"] is NSNull)
        let wildcard = try entry("applinks:*.acme.example")
        #expect(wildcard["host"] as? String == "acme.example")
        #expect(wildcard["wildcard"] as? Bool == true)
        let developer = try entry("applinks:beta.acme.example?mode=developer")
        #expect(developer["host"] as? String == "beta.acme.example")
        #expect(developer["mode"] as? String == "developer")
        #expect(try entry("applinks:mdm.acme.example?mode=managed")["mode"] as? String == "managed")
        #expect(try entry("webcredentials:acme.example")["service"] as? String == "webcredentials")

        let clip = try #require(bundles.first { $0["kind"] as? String == "appclip" })
        #expect(clip["path"] as? String == "Payload/Acme.app/AppClips/AcmeClip.app")
        #expect(clip["appID"] as? String == "7QX3KD52VH.com.acme.shop.Clip")
        let clipEntries = try #require(clip["associatedDomains"] as? [[String: Any]])
        #expect(clipEntries.map { $0["entry"] as? String ?? "" } == ["appclips:acme.example", "applinks:acme.example"])
        // The framework has no entitlements: appID is null, not missing.
        let framework = try #require(bundles.first { $0["kind"] as? String == "framework" })
        #expect(framework["appID"] is NSNull)
        #expect(Set(bundles.compactMap { $0["kind"] as? String }) == ["app", "appex", "appclip", "watch", "framework"])
    }

    @Test func domainsModeCoversDeveloperAndManaged() throws {
        let ipa = try SmallIPA.write(domains: [
            "applinks:a.example?mode=developer+managed", "applinks:b.example?mode=managed", "applinks:c.example",
        ])
        let result = try CLI.run(["domains", ipa, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let bundles = try #require(try result.jsonObject()["bundles"] as? [[String: Any]])
        let entries = try #require(bundles.first?["associatedDomains"] as? [[String: Any]])
        #expect(entries.count == 3)
        #expect(entries.first?["mode"] as? String == "developer+managed")
        #expect(entries.dropFirst().first?["mode"] as? String == "managed")
        #expect(entries.last?["mode"] is NSNull)
        #expect(bundles.first?["appID"] as? String == "7QX3KD52VH.com.example.small")
    }

    @Test func domainsTextListsTheEntries() throws {
        let result = try CLI.run(["domains", SampleFiles.acme])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains("applinks") && $0.contains(" links.acme.example") })
        #expect(lines.contains { $0.contains("beta.acme.example") && $0.contains("developer") })
        #expect(lines.contains { $0.hasPrefix("Payload/Acme.app/AppClips/AcmeClip.app") })
        #expect(!result.stdout.contains("\u{1B}"))
    }

    // MARK: - entitlements

    /// `main_ent` of make-samples.py: base_entitlements(MAIN_ID) plus domains and keychain groups.
    static var mainEntitlements: [String: Any] {
        [
            "application-identifier": "7QX3KD52VH.com.acme.shop",
            "com.apple.developer.team-identifier": "7QX3KD52VH",
            "get-task-allow": false,
            "com.apple.developer.associated-domains": mainDomains,
            "keychain-access-groups": ["7QX3KD52VH.com.acme.shop"],
        ]
    }

    /// `main_profile_ent`: the same, keychain groups widened to `7QX3KD52VH.*`, and every domain but www.
    static var mainProfileEntitlements: [String: Any] {
        [
            "application-identifier": "7QX3KD52VH.com.acme.shop",
            "com.apple.developer.team-identifier": "7QX3KD52VH",
            "get-task-allow": false,
            "com.apple.developer.associated-domains": mainDomains.filter { $0 != "applinks:www.acme.example" },
            "keychain-access-groups": ["7QX3KD52VH.*"],
        ]
    }

    /// Parses stdout as a property list dictionary.
    private func plist(_ result: CLIResult) throws -> [String: Any] {
        // `format: nil` lends no pointer (the API's parameter is an optional pointer).
        let value = try unsafe PropertyListSerialization.propertyList(from: Data(result.stdout.utf8), format: nil)
        return try #require(value as? [String: Any])
    }

    /// Compares two property-list dictionaries by value.
    private func same(_ left: [String: Any], _ right: [String: Any]) -> Bool {
        NSDictionary(dictionary: left).isEqual(to: right)
    }

    @Test(arguments: [[], ["--source", "signature"], ["--source", "der"]])
    func entitlementsXMLIsTheSignedDictionary(source: [String]) throws {
        let result = try CLI.run(["entitlements", SampleFiles.acme, "--format", "xml"] + source)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("<?xml"))
        let value = try plist(result)
        #expect(same(value, Self.mainEntitlements), "\(value)")
        #expect(value["get-task-allow"] as? Bool == false)
    }

    @Test func entitlementsFromTheProfileAreTheGrants() throws {
        let result = try CLI.run(["entitlements", SampleFiles.acme, "--source", "profile"])
        #expect(result.status == 0, "\(result.stderr)")
        let value = try plist(result)
        #expect(same(value, Self.mainProfileEntitlements), "\(value)")
    }

    @Test func entitlementsOfANestedBundleAsJSON() throws {
        let result = try CLI.run(["entitlements", SampleFiles.acme, "--bundle", "Share.appex", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.jsonObject()
        #expect(json["application-identifier"] as? String == "7QX3KD52VH.com.acme.shop.share")
        #expect(json["com.apple.developer.associated-domains"] as? [String] == ["webcredentials:acme.example"])
        #expect(json["keychain-access-groups"] as? [String] == ["7QX3KD52VH.com.acme.shop"])
    }

    /// `entitlements --format json` names its schema like every JSON output, beside the signed keys; a signed key
    /// of that name is overwritten only in JSON, and stderr says so and where the signed value is.
    @Test func entitlementsJSONNamesItsSchemaAndSaysWhenASignedKeyCollides() throws {
        let path = Scratch.folder.appendingPathComponent("ipacheck-schema-\(UUID())")
        defer { try? FileManager.default.removeItem(at: path) }
        var signing = MachOBuilder.Signing()
        signing.xmlEntitlements = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>application-identifier</key><string>A1B2C3D4E5.com.acme.app</string>
            <key>$schema</key><string>signed</string>
            </dict></plist>
            """.utf8
        )
        try Data(MachOBuilder.slice(signing: signing)).write(to: path)
        let json = try CLI.run(["entitlements", path.path, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try json.jsonObject()
        #expect(object["$schema"] as? String == JSONSchemaURL.of("entitlements"))
        #expect(object["application-identifier"] as? String == "A1B2C3D4E5.com.acme.app")
        #expect(json.stderr.contains("hold a key named $schema") && json.stderr.contains("--format xml"))
        let xml = try CLI.run(["entitlements", path.path])
        #expect(xml.stdout.contains("<key>$schema</key>") && xml.stdout.contains("<string>signed</string>"))
    }

    /// Entitlements whose root is not a dictionary cannot be the JSON object the schema promises: an input error
    /// naming `--format xml`, which prints them as signed.
    @Test func entitlementsJSONRefusesARootThatIsNotADictionary() throws {
        let path = Scratch.folder.appendingPathComponent("ipacheck-array-\(UUID())")
        defer { try? FileManager.default.removeItem(at: path) }
        var signing = MachOBuilder.Signing()
        signing.xmlEntitlements = Array(
            "<?xml version=\"1.0\"?><plist version=\"1.0\"><array><string>x</string></array></plist>".utf8
        )
        try Data(MachOBuilder.slice(signing: signing)).write(to: path)
        let json = try CLI.run(["entitlements", path.path, "--format", "json"])
        #expect(json.status == 2)
        #expect(json.stdout.isEmpty)
        #expect(json.stderr.contains("root is of type array, not a dictionary") && json.stderr.contains("--format xml"))
        let xml = try CLI.run(["entitlements", path.path])
        #expect(xml.stdout.contains("<array>"), "\(xml.stderr)")
    }

    // MARK: - verify

    @Test func verifyAcceptsTheSamples() throws {
        #expect(try CLI.run(["verify", SampleFiles.acme]).status == 0)
        #expect(try CLI.run(["verify", SampleFiles.acme, "--resources"]).status == 0)
        // Ad hoc is valid integrity (Samples/README.md, Minimal).
        #expect(try CLI.run(["verify", SampleFiles.minimal]).status == 0)
    }

    /// A byte changed inside the main executable's XML entitlements blob (0xfade7171) breaks slot −5.
    ///
    /// The same rezip without the change still verifies, so only the flipped byte makes the difference.
    @Test(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 to unpack the sample"))
    func verifyRejectsATamperedEntitlementsBlob() throws {
        let folder = try Python.unzip(SampleFiles.acme)
        let untouched = try Rezip.write(folder)
        #expect(try CLI.run(["verify", untouched]).status == 0)

        var flipped = false
        let tampered = try Rezip.write(folder) { name, bytes in
            guard name == "Payload/Acme.app/Acme" else { return }
            guard let blob = Bytes.find([0xfa, 0xde, 0x71, 0x71], in: bytes),
                let value = Bytes.find(Array("com.acme.shop".utf8), in: bytes, from: blob)
            else { return }
            bytes[value + 4] ^= 0x20  // "acme" -> "aCme": still a well-formed plist, different bytes
            flipped = true
        }
        #expect(flipped)
        let result = try CLI.run(["verify", tampered, "--format", "json"])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(try result.jsonObject()["valid"] as? Bool == false)
    }

    @Test(arguments: ["info", "domains", "entitlements", "verify"])
    func notAZipExitsTwoWithOneLineNamingIt(command: String) throws {
        let path = SampleFiles.broken("NotAZip.ipa")
        let result = try CLI.run([command, path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(path))
    }

    /// Each broken sample exits 2 with one line naming the file (Samples/README.md, `broken/`), whichever command
    /// reads it.
    @Test(arguments: ["BadInfoPlist.ipa"])
    func brokenSamplesExitTwo(name: String) throws {
        let path = SampleFiles.broken(name)
        let commands = [
            ["info", path], ["domains", path], ["verify", path], ["entitlements", path],
            ["check", path] + SampleFiles.offline,
            ["explain", "https://acme.example/cart", path] + SampleFiles.offline,
        ]
        for command in commands {
            let result = try CLI.run(command)
            #expect(result.status == 2, "\(command) \(name): \(result.stdout)")
            #expect(result.stderrLines.count == 1, "\(command) \(name): \(result.stderr)")
            #expect(result.stderr.contains(path))
        }
    }

    /// NoPayload.ipa is a zipped .app (Samples/README.md): a target every command reads (README, targets), and
    /// an ipa iOS does not install, so ARC004 fails every gate of check (no Payload/ at the root).
    @Test func aZippedAppIsReadAndFailsEveryGate() throws {
        let path = SampleFiles.broken("NoPayload.ipa")
        for command in [["info", path], ["domains", path], ["entitlements", path]] {
            let result = try CLI.run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        #expect(try CLI.run(["info", path]).stdout.hasPrefix("Acme.app  [app]"))
        for distribution in ["app-store", "ad-hoc", "enterprise", "development"] {
            let check = try CLI.run(["check", path, "--distribution", distribution] + SampleFiles.offline)
            #expect(check.status == 1, "\(distribution)")
            #expect(check.stdout.contains("ARC004"), "\(distribution): \(check.stdout)")
        }
    }

    /// A truncated main executable is a finding of the build (ARC009, the build installs nowhere) in the commands
    /// that judge it; the commands that list its entitlements cannot, and say so (Samples/README.md, `broken/`).
    @Test func truncatedExecutableIsAFindingWhereTheBuildIsJudged() throws {
        let path = SampleFiles.broken("Truncated.ipa")
        for command in [["check", path] + SampleFiles.offline, ["verify", path]] {
            let result = try CLI.run(command)
            #expect(result.status == 1, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("ARC009"), "\(command): \(result.stdout)")
        }
        let explain = try CLI.run(["explain", "https://acme.example/cart", path] + SampleFiles.offline)
        #expect(explain.status == 1)
        #expect(explain.stdout.contains("? claim: unknown: the signed entitlements of Payload/Truncated.app"))
        #expect(explain.stdout.contains("breaks at the build: ARC009"), "\(explain.stdout)")
        for command in [["info", path], ["domains", path], ["entitlements", path]] {
            let result = try CLI.run(command)
            #expect(result.status == 2, "\(command): \(result.stdout)")
            #expect(result.stderrLines.count == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("the signature (bytes 5168 to 6000) passes the 4096-byte slice"))
        }
    }

    @Test(arguments: [
        ["domains"], ["domains", "a.ipa", "--bogus"], ["entitlements", "a.ipa", "--source", "nowhere"],
        ["entitlements", "a.ipa", "--format", "yaml"], ["verify"], ["verify", "a.ipa", "--format", "xml"],
    ])
    func usageErrorsExit64(arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
