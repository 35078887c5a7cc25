import Foundation
import IPACheckTestSupport
import Testing

/// `verify` checks the resource seal by default, as `codesign --verify` does, and `check` fails every distribution
/// gate on an ipa iOS refuses to install (README, `verify` and `check`).
///
/// Each case changes a copy of a sample unpacked by Python's zipfile and rezipped; the same rezip without the change
/// passes, so only the change makes the difference.
@Suite(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 to unpack the samples"))
struct SealAndInstallCLITests {
    /// Acme unpacked into a new folder (Payload/Acme.app/...).
    private static func unpackedAcme() throws -> URL { try Python.unzip(SampleFiles.acme) }

    // MARK: - verify: the resource seal by default

    @Test func anUntouchedRezipVerifies() throws {
        let untouched = try Rezip.write(try Self.unpackedAcme())
        let result = try CLI.run(["verify", untouched])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("resources:"), "the seal is checked and shown: \(result.stdout)")
    }

    /// A sealed file in a compression method nothing here decompresses (9, Deflate64; APPNOTE 4.4.5): opening the
    /// archive says so once (ARC003), the seal pass adds no "damaged" finding for the same member, and the bundle is
    /// not valid, its file listed as not read rather than counted as matching (it was "✓ valid, 5 checked").
    @Test func aSealedFileThatCannotBeDecompressedIsNeverValid() throws {
        let google = "Payload/Acme.app/GoogleService-Info.plist"
        let ipa = try Rezip.write(try Self.unpackedAcme(), method: { $0 == google ? 9 : 0 })
        let result = try CLI.run(["verify", ipa, "--format", "json"])
        #expect(result.status == 1, "\(result.stdout)")
        let json = try result.jsonObject()
        #expect(json["valid"] as? Bool == false)
        let rules = ((json["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String }
        #expect(rules.filter { $0 == "ARC003" }.count == 1, "\(rules)")
        #expect(!rules.contains("ARC011"), "one cause, one finding: \(rules)")
        let app = try #require((json["subjects"] as? [[String: Any]])?.first)
        #expect(app["valid"] as? Bool == false)
        let resources = try #require(app["resources"] as? [String: Any])
        #expect(resources["unreadable"] as? [String] == ["GoogleService-Info.plist"], "\(resources)")
        #expect(resources["modified"] as? [String] == [])
        let text = try CLI.run(["verify", ipa]).stdout
        #expect(text.contains("0 broken, 1 could not be read"), "\(text)")
        let saved = Scratch.folder.appendingPathComponent("verify-\(UUID().uuidString).json")
        try Data(result.stdout.utf8).write(to: saved)
        #expect(try JSONSchemaCheck.problems([saved]).isEmpty)
    }

    /// The main executable in such a method: its signed entitlements are unknown, and `check` says that is why the
    /// domain rules did not run, not that no bundle is signed with associated domains (a claim nobody could know).
    @Test func anExecutableThatCannotBeDecompressedLeavesTheDomainsUnknown() throws {
        let executable = "Payload/Minimal.app/Minimal"
        let ipa = try Rezip.write(try Python.unzip(SampleFiles.minimal), method: { $0 == executable ? 9 : 0 })
        let result = try CLI.run(["check", ipa, "--format", "json"] + SampleFiles.offline)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let json = try result.jsonObject()
        let rules = ((json["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String }
        #expect(rules.filter { $0 == "ARC003" }.count == 1, "\(rules)")
        #expect(!rules.contains("ARC011"), "\(rules)")
        let input = try #require((json["inputs"] as? [[String: Any]])?.first)
        let reasons = ((input["notChecked"] as? [[String: Any]]) ?? []).map {
            ($0["reason"] as? String ?? "", $0["rules"] as? [String] ?? [])
        }
        let domainRules = try #require(reasons.first { $0.1.contains("ENT001") })
        #expect(
            domainRules.0.hasPrefix("the signed entitlements of Payload/Minimal.app could not be read (ARC009 "),
            "\(domainRules.0)"
        )
        #expect(domainRules.0.hasSuffix("so its associated domains are unknown"), "\(domainRules.0)")
        #expect(!reasons.contains { $0.0.hasPrefix("no bundle") && $0.1.contains("LINK001") }, "\(reasons)")
        // domains tells the same story about the same build.
        let domains = try CLI.run(["domains", ipa])
        #expect(domains.status == 2)
        #expect(domains.stderr.contains("could not be read (ARC009 "), "\(domains.stderr)")
    }

    /// A sealed resource edited after signing: no special slot changes (CodeResources itself is untouched), so only
    /// the seal's comparison with the files finds it.
    @Test func anEditedSealedFileFailsVerifyWithoutAnyFlag() throws {
        var edited = false
        let tampered = try Rezip.write(try Self.unpackedAcme()) { name, bytes in
            guard name == "Payload/Acme.app/GoogleService-Info.plist", let last = bytes.indices.last else { return }
            bytes[last] ^= 0x01
            edited = true
        }
        #expect(edited)
        let result = try CLI.run(["verify", tampered, "--format", "json"])
        #expect(result.status == 1, "\(result.stdout)")
        let json = try result.jsonObject()
        #expect(json["valid"] as? Bool == false)
        let findings = try #require(json["findings"] as? [[String: Any]])
        let modified = findings.filter { $0["rule"] as? String == "SIG030" }
        #expect(modified.count == 1, "\(findings)")
        #expect((modified.first?["message"] as? String)?.contains("GoogleService-Info.plist") == true)

        // --resources is still accepted and changes nothing.
        #expect(try CLI.run(["verify", tampered, "--resources"]).status == 1)
    }

    /// Acme with symbolic-link members added as zip tools store them (Unix mode 0o120777, the target as content).
    private static func acme(withLinks links: [(name: String, target: String)]) throws -> String {
        let output = Scratch.folder.appendingPathComponent("ipacheck-links-\(UUID()).ipa")
        let script = """
            import copy, sys, zipfile
            source = zipfile.ZipFile(sys.argv[1])
            with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as out:
                for info in source.infolist():
                    out.writestr(copy.copy(info), source.read(info.filename))
                for name, target in zip(sys.argv[3::2], sys.argv[4::2]):
                    link = zipfile.ZipInfo(name)
                    link.create_system = 3
                    link.external_attr = 0o120777 << 16
                    out.writestr(link, target)
            """
        let result = try Python.run(
            script: script,
            arguments: [SampleFiles.acme, output.path] + links.flatMap { [$0.name, $0.target] }
        )
        #expect(result.status == 0, "\(result.output)")
        return output.path
    }

    /// Symbolic links in a zip are links, as in a folder (they were read as files, so a link to `/` was
    /// "✓ valid"): one that leaves the bundle is ARC012 in verify and check; one inside it that the seal does not
    /// name was added after signing (SIG032); the `CodeResources -> _CodeSignature/CodeResources` link codesign
    /// wrote in the 2011 era is left out of the seal, as codesign leaves it (Security's BundleDiskRep).
    @Test func linksInAZipAreJudgedAsLinks() throws {
        let escaping = try Self.acme(withLinks: [("Payload/Acme.app/root", "/")])
        for command in [["verify"], ["check", "--offline", "--aasa-dir", SampleFiles.aasaDir]] {
            let result = try CLI.run(command + [escaping, "--format", "json"])
            #expect(result.status == 1, "\(command): \(result.stdout)")
            let rules = ((try result.jsonObject()["findings"] as? [[String: Any]]) ?? []).compactMap {
                $0["rule"] as? String
            }
            #expect(rules.contains("ARC012"), "\(command): \(rules)")
        }
        // codesign refuses a bundle holding a link that leaves it: the bundle is broken, not "✓ valid" beside ARC012.
        #expect(try CLI.run(["verify", escaping]).stdout.hasPrefix("✗ BROKEN  Payload/Acme.app"))
        let added = try CLI.run(["verify", try Self.acme(withLinks: [("Payload/Acme.app/alias", "Info.plist")])])
        #expect(added.status == 1)
        #expect(added.stdout.contains("SIG032") && added.stdout.contains("alias"), "\(added.stdout)")
        let legacy = try Self.acme(withLinks: [("Payload/Acme.app/CodeResources", "_CodeSignature/CodeResources")])
        let verified = try CLI.run(["verify", legacy])
        #expect(verified.status == 0, "\(verified.stdout)")

        // The same escaping link in an unpacked folder: the same finding (the same bytes, the same answer).
        let folder = try Self.unpackedAcme()
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("Payload/Acme.app/root").path,
            withDestinationPath: "/"
        )
        let fromFolder = try CLI.run(["verify", folder.appendingPathComponent("Payload/Acme.app").path])
        #expect(fromFolder.status == 1)
        #expect(fromFolder.stdout.contains("ARC012"), "\(fromFolder.stdout)")
    }

    /// An app extension removed after signing: the seal names it as nested code.
    @Test func aRemovedExtensionFailsVerifyWithoutAnyFlag() throws {
        let folder = try Self.unpackedAcme()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Payload/Acme.app/PlugIns/Share.appex"))
        let result = try CLI.run(["verify", try Rezip.write(folder)])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("Share.appex"), "\(result.stdout)")
    }

    /// `--no-resources` is a quick integrity-only run: the edited file is not found, and the report says that the
    /// seal was not checked, in text and in JSON, instead of passing it silently.
    @Test func noResourcesSaysTheSealWasNotChecked() throws {
        let tampered = try Rezip.write(try Self.unpackedAcme()) { name, bytes in
            guard name == "Payload/Acme.app/GoogleService-Info.plist", let last = bytes.indices.last else { return }
            bytes[last] ^= 0x01
        }
        let text = try CLI.run(["verify", tampered, "--no-resources"])
        #expect(text.status == 0, "\(text.stdout)")
        #expect(text.stdout.contains("resource seal: not checked (--no-resources"), "\(text.stdout)")
        #expect(text.stdout.contains("--no-resources"))
        #expect(text.stdout.contains("SIG030"), "SIG030 is listed as not checked: \(text.stdout)")

        let json = try CLI.run(["verify", tampered, "--no-resources", "--format", "json"]).jsonObject()
        #expect(json["resourcesChecked"] as? Bool == false, "\(json)")
    }

    // MARK: - check: an ipa iOS refuses to install fails every gate

    /// Minimal (an ad hoc development build, Samples/README.md) with its Payload/ moved under Export/, as zipping
    /// the export folder instead of its contents does.
    @Test(arguments: ["app-store", "ad-hoc", "enterprise", "development"])
    func aPayloadNotAtTheRootIsAnErrorInEveryGate(distribution: String) throws {
        let unpacked = try Python.unzip(SampleFiles.minimal)
        let wrapper = Scratch.folder.appendingPathComponent("ipacheck-export-\(UUID())")
        try FileManager.default.createDirectory(
            at: wrapper.appendingPathComponent("Export"),
            withIntermediateDirectories: true
        )
        try FileManager.default.moveItem(
            at: unpacked.appendingPathComponent("Payload"),
            to: wrapper.appendingPathComponent("Export/Payload")
        )
        let nested = try Rezip.write(wrapper)
        let result = try CLI.run(
            ["check", nested, "--distribution", distribution, "--format", "json"] + SampleFiles.offline
        )
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let json = try result.jsonObject()
        #expect(json["verdict"] as? String == "fail")
        let findings = try #require(json["findings"] as? [[String: Any]])
        let misplaced = try #require(findings.first { $0["rule"] as? String == "ARC004" }, "\(findings)")
        #expect(misplaced["severity"] as? String == "error")
    }

    /// The control: the same rezip with Payload/ at the root passes the development gate (Minimal is ad hoc).
    @Test func thePayloadAtTheRootPassesTheDevelopmentGate() throws {
        let atRoot = try Rezip.write(try Python.unzip(SampleFiles.minimal))
        let result = try CLI.run(["check", atRoot, "--distribution", "development"] + SampleFiles.offline)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
