import Foundation
import IPACheckTestSupport
import Testing

/// The same bytes give the same answers in every container (README, targets).
///
/// TARGET may be an `.ipa`, an `.app` folder, an `.xcarchive` or an unpacked ipa. Real ipas from the corpus are
/// unpacked with Python's zipfile and every command that reads a build is run on each form; the outputs, with the
/// target's path taken out and each bundle named the same way (every container names it by its real path), must be
/// equal.
struct ContainerCLITests {
    /// Corpus ipas with their app under `Payload/` (the others are broken on purpose, or zip a folder that holds
    /// `Payload/`, which is not an export).
    static let ipas = [
        "ipa/appinfo_iphone.ipa", "ipa/appinfo_ipad.ipa", "ipa/appinfo_embedded_universal.ipa",
        "ipa/appinfo_apple-tv.ipa", "ipa/fastlane_iOSAppOnly.ipa", "ipa/fastlane_IncorrectlySigned.ipa",
        "ipa/fastlane_very-capable-app.ipa",
    ]

    /// The JSON output with what only a zip can have taken out: ARC010 (the zip's central directory and local
    /// headers disagree; a folder has neither), and the counts it adds to.
    static func comparable(_ stdout: String, target: String) throws -> String {
        guard !stdout.isEmpty else { return "" }
        func strip(_ value: Any) -> Any {
            if let array = value as? [Any] {
                return array.filter { ($0 as? [String: Any])?["rule"] as? String != "ARC010" }.map(strip)
            }
            if let object = value as? [String: Any] {
                return object.filter { $0.key != "summary" }.mapValues(strip)
            }
            return value
        }
        // Each container names the bundle by its real path (`Payload/X.app`, `X.app`, `Products/Applications/X.app`):
        // the paths are made one for the comparison, everything else must be equal.
        let named = stdout.replacingOccurrences(of: target, with: "T")
            .replacingOccurrences(of: "Products/Applications/", with: "")
            .replacingOccurrences(of: "Payload/", with: "")
        let object = try JSONSerialization.jsonObject(with: Data(named.utf8))
        let data = try JSONSerialization.data(withJSONObject: strip(object), options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
    }

    static let commands: [[String]] = [
        ["info", "--format", "json"], ["domains", "--format", "json"], ["entitlements", "--format", "json"],
        ["entitlements", "--source", "profile", "--format", "json"], ["verify", "--resources", "--format", "json"],
        ["check", "--offline", "--aasa-dir", SampleFiles.aasaDir, "--format", "json"],
    ]

    /// The forms of one ipa: its unpacked folder, its `.app`, and an `.xcarchive` holding that `.app`.
    static func forms(of ipa: String) throws -> (folder: URL, forms: [String]) {
        let folder = try Python.unzip(ipa)
        // Some zips hold a folder that holds Payload/; ipacheck reads both the same way.
        let top = try FileManager.default.contentsOfDirectory(atPath: folder.path).map(folder.appendingPathComponent)
        let payload =
            ([folder] + top).map { $0.appendingPathComponent("Payload") }
            .first { FileManager.default.fileExists(atPath: $0.path) } ?? folder.appendingPathComponent("Payload")
        let apps = try FileManager.default.contentsOfDirectory(atPath: payload.path).filter { $0.hasSuffix(".app") }
        var forms = [folder.path]
        // The .app alone holds the same bytes as the ipa only when the ipa holds nothing but Payload/ (a wrapper
        // folder or __MACOSX are archive-level findings the .app cannot have).
        if top.map(\.lastPathComponent) == ["Payload"], apps.count == 1, let app = apps.first {
            forms.append(payload.appendingPathComponent(app).path)
            let archive = folder.appendingPathComponent("Build.xcarchive/Products/Applications")
            try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: payload.appendingPathComponent(app),
                to: archive.appendingPathComponent(app)
            )
            forms.append(folder.appendingPathComponent("Build.xcarchive").path)
        }
        return (folder, forms)
    }

    @Test(
        .enabled(if: Corpus.isAvailable, "\(Corpus.absentReason)"),
        .enabled(if: Python.isAvailable || Python.isCI, "needs python3 to unpack the ipas"),
        arguments: ipas
    )
    func everyContainerGivesTheSameAnswers(relativePath: String) throws {
        let ipa = Corpus.url(relativePath).path
        let (folder, forms) = try Self.forms(of: ipa)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(forms.count >= 1)
        // diff reads any container: the ipa and each of its forms hold the same build.
        for form in forms {
            let diff = try CLI.run(["diff", ipa, form, "--format", "json"])
            #expect(diff.status == 0, "diff \(form): \(diff.stderr)")
            #expect((try diff.jsonObject()["findings"] as? [Any])?.isEmpty == true, "diff \(form): \(diff.stdout)")
        }
        for command in Self.commands {
            let reference = try CLI.run(Array(command.prefix(1)) + [ipa] + command.dropFirst())
            for form in forms {
                let result = try CLI.run(Array(command.prefix(1)) + [form] + command.dropFirst())
                #expect(result.status == reference.status, "\(command) on \(form): \(result.stderr)")
                let got = try Self.comparable(result.stdout, target: form)
                #expect(got == (try Self.comparable(reference.stdout, target: ipa)), "\(command) differs on \(form)")
            }
        }
    }

    /// The corpus's own .xcarchive (fastlane's fixture) reads as the .app it holds, in every command.
    @Test(.enabled(if: Corpus.isAvailable, "\(Corpus.absentReason)"))
    func theCorpusArchiveReadsAsItsApp() throws {
        let archive = Corpus.url("ipa/fastlane_very-capable-app.xcarchive").path
        let app = archive + "/Products/Applications/very-capable-app.app"
        for command in Self.commands {
            let fromArchive = try CLI.run(Array(command.prefix(1)) + [archive] + command.dropFirst())
            let fromApp = try CLI.run(Array(command.prefix(1)) + [app] + command.dropFirst())
            #expect(fromArchive.status == fromApp.status, "\(command): \(fromArchive.stderr)")
            #expect(
                try Self.comparable(fromArchive.stdout, target: archive)
                    == Self.comparable(fromApp.stdout, target: app),
                "\(command) differs"
            )
        }
        // What the archive's app is signed with is what Xcode's expanded .xcent for it says.
        let xcent = Corpus.url("entitlements/fastlane_very-capable-app_archived-expanded-entitlements.xcent").path
        func hosts(_ target: String) throws -> [String] {
            let json = try CLI.run(["domains", target, "--format", "json"]).jsonObject()
            let bundles = try #require(json["bundles"] as? [[String: Any]])
            return (bundles.first?["associatedDomains"] as? [[String: Any]] ?? []).compactMap { $0["entry"] as? String }
        }
        #expect(try hosts(xcent) == hosts(archive))
        #expect(try hosts(xcent) == ["webcredentials:example.com"])
    }

    /// A link that leaves the bundle is reported and never followed; one that stays inside is read as its target
    /// path, as a zip stores it.
    @Test func aLinkOutOfTheBundleIsReportedNotFollowed() throws {
        let folder = try Python.unzip(SampleFiles.minimal)
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = folder.appendingPathComponent("Payload/Minimal.app")
        try FileManager.default.createSymbolicLink(
            atPath: app.appendingPathComponent("passwd").path,
            withDestinationPath: "/etc/passwd"
        )
        try FileManager.default.createSymbolicLink(
            atPath: app.appendingPathComponent("up").path,
            withDestinationPath: "../../.."
        )
        try FileManager.default.createSymbolicLink(
            atPath: app.appendingPathComponent("inside").path,
            withDestinationPath: "Info.plist"
        )
        let result = try CLI.run(["info", app.path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let findings = try #require(try result.jsonObject()["findings"] as? [[String: Any]])
        let escaping = findings.filter { $0["rule"] as? String == "ARC012" }.compactMap { $0["message"] as? String }
        #expect(escaping.count == 2, "\(findings)")
        // The .app folder is named by its real path (Minimal.app), as every container names its bundle.
        #expect(escaping.contains { $0.hasPrefix("Minimal.app/passwd links to /etc/passwd") })
        #expect(escaping.contains { $0.hasPrefix("Minimal.app/up links to ../../..") })
        #expect(!escaping.contains { $0.contains("inside") })
    }

    @Test func aFolderThatHoldsNoAppIsAnInputError() throws {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-empty-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(["info", folder.path])
        #expect(result.status == 2)
        // A folder is said to be a folder, not "the archive is empty".
        #expect(result.stderr.contains("is an empty folder"), "\(result.stderr)")
    }

    /// A zipped .xcarchive (what CI jobs upload) is not read as one, and every command says what it is and what to
    /// give instead (it said "no Payload/*.app in the archive (4 members, …)").
    @Test func aZippedXcarchiveIsNamedWithWhatToGiveInstead() throws {
        var zip = ZipBuilder()
        zip.add("App.xcarchive/Info.plist", Array("<plist/>".utf8))
        zip.add("App.xcarchive/Products/Applications/App.app/Info.plist", Array("<plist/>".utf8))
        let archive = try zip.write(named: "App.xcarchive.zip")
        try BuildReaders.expectEachRefuses(
            archive,
            saying: "no Payload/*.app: this is a zipped .xcarchive (App.xcarchive); unzip it and give the .xcarchive "
                + "folder, or export an ipa from it"
        )
    }

    /// JSON given where a build is read: an AASA file (a frequent mix-up) is named as one with the command that reads
    /// it, other JSON as JSON (both said "is neither an ipa (zip), a Mach-O nor a property list").
    @Test(arguments: [
        (SampleFiles.apexAASA, "is an apple-app-site-association file, not a build: `ipacheck lint` reads it"),
        (SampleFiles.appflip, "is JSON, not an ipa, a Mach-O or a property list"),
    ])
    func jsonGivenForABuildIsNamed(file: String, words: String) throws {
        try BuildReaders.expectEachRefuses(file, saying: words)
    }

    /// A zip with 1 MiB of data before it, its offsets adjusted as self-extractors write them: every command reads
    /// it as the archive reader does (`check` and `info` read it, `verify`, `entitlements` and `domains`
    /// said "neither an ipa (zip), a Mach-O nor a property list").
    @Test(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 to write the archive"))
    func aZipWithLeadingDataIsReadTheSameByEveryCommand() throws {
        let output = Scratch.folder.appendingPathComponent("ipacheck-leading-\(UUID()).ipa")
        defer { try? FileManager.default.removeItem(at: output) }
        let script = """
            import struct, sys
            data = bytearray(open(sys.argv[1], "rb").read())
            pad = 1 << 20
            end = data.rfind(b"PK\\x05\\x06")
            size, start = struct.unpack_from("<II", data, end + 12)
            at = start
            while at < start + size:
                names, extra, comment = struct.unpack_from("<HHH", data, at + 28)
                struct.pack_into("<I", data, at + 42, struct.unpack_from("<I", data, at + 42)[0] + pad)
                at += 46 + names + extra + comment
            struct.pack_into("<I", data, end + 16, start + pad)
            open(sys.argv[2], "wb").write(bytes(pad) + bytes(data))
            """
        let made = try Python.run(script: script, arguments: [SampleFiles.acme, output.path])
        #expect(made.status == 0, "\(made.output)")
        for command in [["info"], ["verify"], ["entitlements"], ["domains"]] {
            let plain = try CLI.run(command + [SampleFiles.acme])
            let led = try CLI.run(command + [output.path])
            #expect(led.status == plain.status, "\(command): \(led.stderr)")
            #expect(
                led.stdout.replacingOccurrences(of: output.path, with: SampleFiles.acme) == plain.stdout,
                "\(command)"
            )
        }
    }
}
