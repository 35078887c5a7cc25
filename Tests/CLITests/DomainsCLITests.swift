import Foundation
import IPACheckTestSupport
import Testing

/// `ipacheck domains` lists every entry of the associated-domains array at its index, an unexpanded `$(VAR)`
/// included with the reason iOS ignores it; and the listing commands write no verdict formats.
struct DomainsCLITests {
    static let key = "com.apple.developer.associated-domains"

    /// The entries, in order: a build setting at 1, a duplicate of 0 at 3, a wildcard without its apex at 4.
    static let entries = [
        "applinks:acme.example", "applinks:$(LINK_DOMAIN)", "webcredentials:acme.example", "applinks:acme.example",
        "applinks:*.shop.example",
    ]

    static func writeEntitlements() throws -> (folder: URL, file: String) {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-domains-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("App.entitlements")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>application-identifier</key><string>7QX3KD52VH.com.acme.shop</string>
            <key>\(key)</key><array>\(entries.map { "<string>\($0)</string>" }.joined())</array>
            </dict></plist>
            """
        try Data(xml.utf8).write(to: file)
        return (folder, file.path)
    }

    static func findings(_ json: [String: Any], rule: String) -> [[String: Any]] {
        (json["findings"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == rule }
    }

    /// A build made with signing off, to be signed later, has no domains yet.
    ///
    /// Entitlements live in the signature, so it has none. `domains` says so rather than only "no associated domains", and `check` gives that as the reason its domain
    /// rules did not run, pointing at the project's entitlements file (it said "no bundle is signed with
    /// associated domains", and that the build's entitlements "are signed").
    @Test func anUnsignedBuildHasNoDomainsYet() throws {
        var zip = ZipBuilder()
        let info = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.acme.unsigned</string>
            <key>CFBundleExecutable</key><string>App</string><key>CFBundlePackageType</key><string>APPL</string>
            </dict></plist>
            """
        zip.add("Payload/App.app/Info.plist", Array(info.utf8))
        zip.add("Payload/App.app/App", MachOBuilder.slice())
        let ipa = try zip.write(named: "Unsigned.ipa")
        let domains = try CLI.run(["domains", ipa])
        #expect(domains.stdout.contains("unsigned: no entitlements until it is signed"), "\(domains.stdout)")
        let json = try CLI.run(["domains", ipa, "--format", "json"]).jsonObject()
        let bundle = try #require((json["bundles"] as? [[String: Any]])?.first)
        #expect(bundle["unsigned"] as? Bool == true)
        let check = try CLI.run(["check", ipa, "--format", "json"] + SampleFiles.offline).jsonObject()
        let input = try #require((check["inputs"] as? [[String: Any]])?.first)
        let reasons = ((input["notChecked"] as? [[String: Any]]) ?? []).map {
            ($0["reason"] as? String ?? "", $0["rules"] as? [String] ?? [])
        }
        let domainRules = try #require(reasons.first { $0.1.contains("ENT001") })
        #expect(domainRules.0.hasPrefix("Payload/App.app is unsigned, so it has no entitlements until it is signed"))
        #expect(!reasons.contains { $0.0.contains("are signed") }, "\(reasons)")
        // explain tells the same story at its claim step.
        let explain = try CLI.run(["explain", "https://acme.example/products/1", ipa] + SampleFiles.offline)
        #expect(explain.stdout.contains("Payload/App.app is unsigned, so it has no entitlements until it is signed"))
        // So does links, in every format.
        let reason = "Payload/App.app is unsigned, so it has no entitlements until it is signed"
        for format in ["text", "html"] {
            let links = try CLI.run(["links", ipa, "--format", format] + SampleFiles.offline)
            #expect(links.stdout.contains(reason), "\(format): \(links.stdout)")
        }
        let linksJSON = try CLI.run(["links", ipa, "--format", "json"] + SampleFiles.offline).jsonObject()
        #expect((linksJSON["noLinksBecause"] as? String)?.hasPrefix(reason) == true)
        // A signed build is not called unsigned.
        let signed = try CLI.run(["domains", SampleFiles.acme, "--format", "json"]).jsonObject()
        #expect(((signed["bundles"] as? [[String: Any]]) ?? []).allSatisfy { $0["unsigned"] == nil })
    }

    @Test("an entitlements file: every entry listed at its index, the build setting included")
    func entitlementsFileListsEveryEntry() throws {
        let (folder, file) = try Self.writeEntitlements()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(["domains", file, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.jsonObject()
        let bundles = try #require(json["bundles"] as? [[String: Any]])
        let listed = try #require(bundles.first?["associatedDomains"] as? [[String: Any]])
        // Old code: the build setting was dropped (4 entries).
        #expect(listed.compactMap { $0["entry"] as? String } == Self.entries)
        #expect(listed.compactMap { $0["index"] as? Int } == [0, 1, 2, 3, 4])
        let unexpanded = listed[1]
        #expect(unexpanded["usable"] as? Bool == false)
        let problems = try #require(unexpanded["problems"] as? [[String: Any]])
        #expect(problems.compactMap { $0["rule"] as? String } == ["ENT201"])
        #expect(listed[0]["usable"] as? Bool == true)
        // Old code: the duplicate was at [2], and the build setting's finding had no index.
        #expect(Self.findings(json, rule: "ENT018").compactMap { $0["location"] as? String } == ["\(Self.key)[3]"])
        #expect(Self.findings(json, rule: "ENT020").compactMap { $0["location"] as? String } == ["\(Self.key)[4]"])
        let setting = Self.findings(json, rule: "ENT201").compactMap { $0["location"] as? String }
        #expect(setting == ["\(Self.key)[1]"])
        #expect(Self.findings(json, rule: "ENT012").isEmpty, "Xcode substitutes a file's setting: not an ENT012")
    }

    @Test("an entitlements file in text: the build setting's line, its index and the reason")
    func entitlementsFileText() throws {
        let (folder, file) = try Self.writeEntitlements()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(["domains", file])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        let line = try #require(lines.first { $0.contains("$(LINK_DOMAIN)") && !$0.contains("at:") }, "\(lines)")
        #expect(line.contains("[1]"))
        #expect(line.contains("left out of the checks"))
        #expect(lines.contains { $0.contains("[4]") && $0.contains("*.shop.example") })
        #expect(result.stdout.contains("repeats entry 0"))
        #expect(result.stdout.contains("at: \(Self.key)[3]"))
    }

    @Test("a signed build: the unexpanded entry listed with why iOS ignores it, later indices unchanged")
    func signedBuildListsTheUnexpandedEntry() throws {
        let ipa = try SmallIPA.write(domains: Self.entries)
        let result = try CLI.run(["domains", ipa, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.jsonObject()
        let bundles = try #require(json["bundles"] as? [[String: Any]])
        let listed = try #require(bundles.first?["associatedDomains"] as? [[String: Any]])
        #expect(listed.compactMap { $0["entry"] as? String } == Self.entries)
        #expect(listed.compactMap { $0["index"] as? Int } == [0, 1, 2, 3, 4])
        let problems = try #require(listed[1]["problems"] as? [[String: Any]])
        let reason = try #require(problems.first { $0["rule"] as? String == "ENT012" }?["message"] as? String)
        #expect(reason.contains("ignores the entry"))
        #expect(Self.findings(json, rule: "ENT012").compactMap { $0["location"] as? String } == ["\(Self.key)[1]"])
        #expect(Self.findings(json, rule: "ENT018").compactMap { $0["location"] as? String } == ["\(Self.key)[3]"])

        let text = try CLI.run(["domains", ipa])
        let line = try #require(text.stdout.split(separator: "\n").first { $0.contains("[1]") })
        #expect(line.contains("$(LINK_DOMAIN)") && line.contains("ignores the entry"), "\(line)")
    }

    /// Old code: `domains --format junit` wrote `failures="2"` and exited 0.
    @Test(
        "listing commands refuse the gate's formats, naming check",
        arguments: [["domains"], ["info"]],
        ["junit", "sarif", "github"]
    )
    func listingsWriteNoVerdictFormats(command: [String], format: String) throws {
        let result = try CLI.run(command + [SampleFiles.acme, "--format", format])
        #expect(result.status == 64, "\(result.stdout)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("ipacheck check --format \(format)"), "\(result.stderr)")
    }

    /// `domains` says what a device does with the build, as `explain` does (README): Minimal.ipa is a simulator
    /// build, signed ad hoc, with no profile, so no device installs it and none of its entries is usable there —
    /// the same findings explain's build step stops at (domains called the entry usable).
    @Test func aBuildNoDeviceInstallsHasNoUsableEntry() throws {
        let json = try CLI.run(["domains", SampleFiles.minimal, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try json.jsonObject()
        let device = try #require(object["device"] as? [String: Any])
        #expect(device["installs"] as? Bool == false)
        let blockers = try #require(device["blockedBy"] as? [[String: Any]]).compactMap { $0["rule"] as? String }
        #expect(blockers == ["DIST001", "DIST002", "DIST003"])
        let bundles = try #require(object["bundles"] as? [[String: Any]])
        let entry = try #require((bundles.first?["associatedDomains"] as? [[String: Any]])?.first)
        #expect(entry["usable"] as? Bool == false)
        #expect((entry["unusedBecause"] as? String)?.hasPrefix("no device will install or run this build") == true)

        let explain = try CLI.run(
            ["explain", "https://acme.example/products/1", SampleFiles.minimal, "--format", "json"]
                + SampleFiles.offline
        )
        let steps = try #require(try explain.jsonObject()["steps"] as? [[String: Any]])
        let build = try #require(steps.first { $0["name"] as? String == "build" })
        let stopping = (build["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        #expect(stopping == blockers, "explain's build step stops at the findings domains names")

        let text = try CLI.run(["domains", SampleFiles.minimal]).stdout
        #expect(text.contains("✗ not used: no device will install or run this build (DIST001, DIST002, DIST003)"))
        #expect(text.contains("device: ✗ no device will install or run this build"))
    }

    /// A signature whose entitlements blob cannot be decoded has unknown domains, not none (`domains`
    /// said "no associated domains", exit 0, where `entitlements` exits 2 and `check` raises SIG021).
    @Test func undecodableEntitlementsAreUnknownDomainsAndExitTwo() throws {
        let info = PlistFixture.info(["CFBundleIdentifier": "com.example.a", "CFBundleExecutable": "A"])
        var signing = MachOBuilder.Signing()
        signing.xmlEntitlements = Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>a</key>".utf8)
        signing.infoPlist = info
        var zip = ZipBuilder()
        zip.add("Payload/A.app/Info.plist", info)
        zip.add("Payload/A.app/A", MachOBuilder.slice(signing: signing))
        let ipa = try zip.write(named: "Undecodable.ipa")
        let json = try CLI.run(["domains", ipa, "--format", "json"])
        #expect(json.status == 2, "\(json.stdout)")
        let object = try json.jsonObject()
        #expect(object["verdict"] as? String == "error")
        let bundle = try #require((object["bundles"] as? [[String: Any]])?.first)
        #expect((bundle["unreadable"] as? String)?.hasPrefix("SIG021") == true, "\(bundle)")
        #expect(json.stderr.contains("could not be read (SIG021 "), "\(json.stderr)")
        #expect(json.stderr.contains("so its associated domains are unknown"), "\(json.stderr)")
        let text = try CLI.run(["domains", ipa])
        #expect(text.status == 2)
        #expect(!text.stdout.contains("no associated domains"))
        #expect(text.stdout.contains("its signed entitlements could not be read"))
        #expect(
            try JSONSchemaCheck.problems(
                try SameStoryEveryCommandCLITests.saved(json, in: Scratch.folder)
            )
            .isEmpty
        )
    }

    @Test("listing commands still write text and json, exit 0", arguments: [["domains"], ["info"]], ["text", "json"])
    func listingsWriteTextAndJSON(command: [String], format: String) throws {
        let result = try CLI.run(command + [SampleFiles.acme, "--format", format])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
    }
}
