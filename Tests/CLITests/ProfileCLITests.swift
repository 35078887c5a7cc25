import Foundation
import IPACheckTestSupport
import Testing

/// `ipacheck profile FILE`: what it decodes agrees with an independent reader (Python's plistlib over the plist
/// inside the CMS envelope), and no format ever shows a device identifier.
struct ProfileCLITests {
    static let formats = ["text", "json", "sarif", "junit", "github"]

    /// The corpus's CMS-signed profiles (the others are fixtures of broken files).
    static let corpusProfiles = [
        "mobileprovision/appinfo_NotificationService.appex_embedded.mobileprovision",
        "mobileprovision/appinfo_ios_adhoc.mobileprovision",
        "mobileprovision/appinfo_ios_appstore.mobileprovision",
        "mobileprovision/appinfo_ios_development.mobileprovision",
        "mobileprovision/appinfo_macos_appstore.provisionprofile",
        "mobileprovision/appinfo_macos_development.provisionprofile",
    ]

    /// Reads the XML plist inside a profile's envelope with Python's plistlib (no ipacheck code involved).
    static let reference = #"""
        import json, plistlib, re, sys
        data = open(sys.argv[1], "rb").read()
        plist = plistlib.loads(re.search(rb"<\?xml.*?</plist>", data, re.S).group(0))
        ent = plist.get("Entitlements", {})
        print(json.dumps({
            "uuid": plist.get("UUID"),
            "teams": plist.get("TeamIdentifier", []),
            "devices": plist.get("ProvisionedDevices", []),
            "expiration": plist["ExpirationDate"].strftime("%Y-%m-%dT%H:%M:%SZ"),
            "appID": ent.get("application-identifier", ent.get("com.apple.application-identifier")),
            "entitlementKeys": sorted(ent.keys()),
        }))
        """#

    @Test(
        .enabled(if: Corpus.isAvailable, "\(Corpus.absentReason)"),
        .enabled(if: Python.isAvailable || Python.isCI, "needs python3 for the reference reader"),
        arguments: corpusProfiles
    )
    func decodesAsPlistlibReadsIt(relativePath: String) throws {
        let path = Corpus.url(relativePath).path
        let expected = try Python.run(script: Self.reference, arguments: [path])
        #expect(expected.status == 0, "\(expected.output)")
        let reference = try #require(
            try JSONSerialization.jsonObject(with: Data(expected.output.utf8)) as? [String: Any]
        )
        let result = try CLI.run(["profile", path, "--format", "json"])
        #expect([0, 1].contains(result.status), "\(result.stderr)")
        let json = try result.jsonObject()
        let profile = try #require(json["profile"] as? [String: Any])
        let entitlements = try #require(json["entitlements"] as? [String: Any])
        #expect(profile["uuid"] as? String == reference["uuid"] as? String)
        #expect(profile["teamIdentifiers"] as? [String] == reference["teams"] as? [String])
        #expect(profile["expirationDate"] as? String == reference["expiration"] as? String)
        #expect(profile["applicationIdentifier"] as? String == reference["appID"] as? String)
        #expect(entitlements.keys.sorted() == reference["entitlementKeys"] as? [String])
        let devices = reference["devices"] as? [String] ?? []
        if !devices.isEmpty { #expect(profile["deviceCount"] as? Int == devices.count) }
        for format in Self.formats {
            let output = try CLI.run(["profile", path, "--format", format]).stdout
            for device in devices { #expect(!output.contains(device), "\(format) shows a device identifier") }
        }
    }

    /// A generated profile: expired, signed by a test CA rather than Apple, listing three devices.
    @Test func judgesAnExpiredProfileSignedOutsideApple() throws {
        let payload = ProfileBuilder.payload(devices: 3, expiration: Date(timeIntervalSince1970: 1_700_000_000))
        let folder = Scratch.folder.appendingPathComponent("ipacheck-cli-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Test.mobileprovision")
        try Data(try ProfileBuilder(payload: payload).build()).write(to: file)

        let text = try CLI.run(["profile", file.path])
        #expect(text.status == 1, "\(text.stderr)")
        #expect(text.stdout.contains("Test Profile  [ad-hoc]"))
        #expect(text.stdout.contains("team ABCDE12345 (Example Team) · app ID ABCDE12345.com.example.app"))
        #expect(text.stdout.contains("3 devices"))
        #expect(text.stdout.contains("error   PROF001"))
        #expect(text.stdout.contains("PROF006"))
        let json = try CLI.run(["profile", file.path, "--format", "json"]).jsonObject()
        let profile = try #require(json["profile"] as? [String: Any])
        #expect(profile["deviceCount"] as? Int == 3)
        #expect(profile["type"] as? String == "ad-hoc")
        #expect(profile["expirationDate"] as? String == "2023-11-14T22:13:20Z")
        for format in Self.formats {
            let output = try CLI.run(["profile", file.path, "--format", format]).stdout
            #expect(!output.contains(String(repeating: "0", count: 39)), "\(format) shows a device identifier")
        }
    }

    /// A CMS-signed property list that is not a provisioning profile (a signed `.mobileconfig`) is not passed as
    /// "(unnamed profile) [app-store] ✓ PASS": it is refused, exit 2, saying what it is.
    @Test func refusesASignedConfigurationProfile() throws {
        var builder = ProfileBuilder(payload: ProfileBuilder.payload())
        builder.signedContent = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>PayloadType</key><string>Configuration</string>
            <key>PayloadUUID</key><string>00000000-1111-2222-3333-444444444444</string>
            <key>PayloadContent</key><array/>
            </dict></plist>
            """.utf8
        )
        let file = Scratch.folder.appendingPathComponent("ipacheck-\(UUID()).mobileconfig")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try builder.build()).write(to: file)
        for format in Self.formats {
            let result = try CLI.run(["profile", file.path, "--format", format])
            #expect(result.status == 2, "\(format): \(result.stdout)")
            #expect(!result.stdout.contains("PASS"), "\(format)")
        }
        let text = try CLI.run(["profile", file.path])
        #expect(text.stderr.contains("a configuration profile (.mobileconfig), not a provisioning profile"))
    }

    /// Given a build, `profile` reads its main app's embedded profile, opened as every command opens a build: the
    /// same answer as the profile file itself (Samples/Acme.mobileprovision is Acme.ipa's), with where it was read;
    /// a build that embeds none is an input error naming the app.
    @Test func readsABuildsEmbeddedProfile() throws {
        let file = try CLI.run(["profile", SampleFiles.path("Acme.mobileprovision"), "--format", "json"])
        let build = try CLI.run(["profile", SampleFiles.acme, "--format", "json"])
        #expect(build.status == file.status)
        let fromFile = try #require(try file.jsonObject()["profile"] as? [String: Any])
        var fromBuild = try #require(try build.jsonObject()["profile"] as? [String: Any])
        #expect(fromBuild.removeValue(forKey: "embeddedAt") as? String == "Payload/Acme.app/embedded.mobileprovision")
        func canonical(_ object: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
        }
        #expect(try canonical(fromBuild) == canonical(fromFile))
        let findings = (try build.jsonObject()["findings"] as? [[String: Any]]) ?? []
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { $0["location"] as? String == "Payload/Acme.app/embedded.mobileprovision" })
        let saved = Scratch.folder.appendingPathComponent("profile-\(UUID().uuidString).json")
        try Data(build.stdout.utf8).write(to: saved)
        #expect(try JSONSchemaCheck.problems([saved]).isEmpty)

        let none = try CLI.run(["profile", SampleFiles.minimal])
        #expect(none.status == 2)
        #expect(
            none.stderr
                == "ipacheck: error: \(SampleFiles.minimal): Payload/Minimal.app embeds no provisioning profile (no "
                + "embedded.mobileprovision)\n"
        )
    }

    /// A profile given where a build is read is named as one, with the command that reads it (every command that
    /// reads a build said "is neither an ipa (zip), a Mach-O nor a property list").
    @Test func aProfileGivenForABuildIsNamed() throws {
        let profile = SampleFiles.path("Acme.mobileprovision")
        try BuildReaders.expectEachRefuses(
            profile,
            saying: "is a provisioning profile, not a build: `ipacheck profile` reads it"
        )
    }

    @Test func refusesWhatIsNotAProfile() throws {
        let result = try CLI.run(["profile", SampleFiles.apexAASA])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("ipacheck: error: \(SampleFiles.apexAASA): "))
    }
}
