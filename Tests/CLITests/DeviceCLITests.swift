import Foundation
import IPACheckTestSupport
import Testing

/// `ipacheck device EVIDENCE`: a sysdiagnose read as testers send it (a generated archive: one top folder, hundreds
/// of other members, a show file of hundreds of apps, made by Python's tarfile), only the app asked for shown, the
/// same story in text and JSON, and evidence that cannot be read said in one line (exit 2).
@Suite(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 to write the sysdiagnose"))
struct DeviceCLITests {
    static let top = "sysdiagnose_2026.11.26_10-00-00+0000_iPhone-OS_iPhone_23B85"

    /// A show file of `apps` apps (each with applinks and webcredentials entries), the asked app's entry first
    /// with a CDN error, in the verbose format docs/device.md describes.
    static func showFile(apps: Int) -> String {
        var entries: [String] = []
        entries.append(
            """
            Service:              applinks
            App ID:               ABCDE12345.com.example.shop
            App Version:          7
            Domain:               shop.example.com
            User Approval:        unspecified
            Site/Fmwk Approval:   unspecified
            Flags:                
            Last Checked:         2026-11-26 6:00:00 AM +0000
            Next Check:           2026-11-26 9:10:00 AM +0000
            Error:                Error Domain=SWCErrorDomain Code=7 "…" UserInfo={NSDebugDescription=SWCERR00101 Bad HTTP Response: 404 Not Found -- {"status":"404 Not Found"}, NSUnderlyingError=HTTP 404}
            Retries:              1
            """
        )
        for app in 0..<apps {
            for service in ["applinks", "webcredentials"] {
                entries.append(
                    """
                    Service:              \(service)
                    App ID:               TEAM\(String(format: "%06d", app)).org.private.app\(app)
                    App Version:          \(app)
                    Domain:               private\(app).example
                    User Approval:        unspecified
                    Site/Fmwk Approval:   approved
                    Flags:                
                    Last Checked:         2026-11-24 10:00:00 +0000
                    Next Check:           2026-11-29 09:50:00 +0000
                    """
                )
            }
        }
        let banner = "=================================== DATABASE ==================================="
        return "PID:                  77\n\(banner)\n"
            + entries.joined(separator: "\n" + String(repeating: "-", count: 80) + "\n") + "\n"
    }

    /// Writes a `.tar.gz` like a sysdiagnose: `top/` with 400 log members, then the show file, then more.
    static func sysdiagnose(show: String) throws -> URL {
        let folder = Scratch.folder.appendingPathComponent("device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let showPath = folder.appendingPathComponent("show.txt")
        try Data(show.utf8).write(to: showPath)
        let archive = folder.appendingPathComponent("\(top).tar.gz")
        let script = """
            import io, random, sys, tarfile
            rng = random.Random(5)
            def add(t, name, data):
                info = tarfile.TarInfo(name); info.size = len(data); info.mtime = 1795651200
                t.addfile(info, io.BytesIO(data))
            with tarfile.open(sys.argv[1], "w:gz") as t:
                for i in range(400):
                    add(t, f"\(top)/logs/{i}.log", bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 4000))))
                add(t, "\(top)/swcutil_show.txt", open(sys.argv[2], "rb").read())
                add(t, "\(top)/zz.txt", b"after")
            """
        let result = try Python.run(script: script, arguments: [archive.path, showPath.path])
        try #require(result.status == 0, "\(result.output)")
        return archive
    }

    /// Only the app asked for, in text and JSON: no other app's ID or domain anywhere; the others counted.
    @Test func showsOnlyTheAppAskedFor() throws {
        let show = Self.showFile(apps: 1300)
        #expect(show.utf8.count > 1_000_000)
        let archive = try Self.sysdiagnose(show: show)
        defer { try? FileManager.default.removeItem(at: archive.deletingLastPathComponent()) }
        let text = try CLI.run(["device", archive.path, "--app-id", "ABCDE12345.com.example.shop"])
        let json = try CLI.run(["device", archive.path, "--app-id", "ABCDE12345.com.example.shop", "--format", "json"])
        for result in [text, json] {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("org.private") && !result.stdout.contains("private1.example"))
        }
        #expect(text.stdout.contains("1300 other apps left out"))
        #expect(text.stdout.contains("captured 2026-11-26 10:00:00 UTC"))
        // 06:00 and 09:10 against a capture at 10:00.
        #expect(text.stdout.contains("last checked 2026-11-26 06:00:00 UTC (4 h 0 min before the capture)"))
        #expect(text.stdout.contains("SWCERR00101 Bad HTTP Response: 404 Not Found"))
        #expect(
            text.stdout.contains("It is missing at https://shop.example.com/.well-known/apple-app-site-association")
        )
        let object = try json.jsonObject()
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(object["otherApps"] as? Int == 1300)
        let evidence = try #require(object["evidence"] as? [String: Any])
        #expect(evidence["entries"] as? Int == 2601 && evidence["apps"] as? Int == 1301)
        #expect(evidence["member"] as? String == "\(Self.top)/swcutil_show.txt")
        #expect(evidence["capturedAt"] as? String == "2026-11-26T10:00:00Z")
        let error = try #require(entries.first?["error"] as? [String: Any])
        #expect(error["httpStatus"] as? Int == 404 && error["code"] as? Int == 7)
        let last = try #require(entries.first?["lastChecked"] as? [String: Any])
        #expect(last["secondsFromReference"] as? Int == -14_400)
        let file = Scratch.folder.appendingPathComponent("device-\(UUID().uuidString).json")
        try Data(json.stdout.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try JSONSchemaCheck.problems([file]) == [])
    }

    /// Without an app, nothing of any app is shown, only counts; `--all-apps` shows them all.
    @Test func privateByDefault() throws {
        let archive = try Self.sysdiagnose(show: Self.showFile(apps: 3))
        defer { try? FileManager.default.removeItem(at: archive.deletingLastPathComponent()) }
        let hidden = try CLI.run(["device", archive.path])
        #expect(hidden.status == 0)
        #expect(!hidden.stdout.contains("com.example.shop") && !hidden.stdout.contains("org.private"))
        #expect(hidden.stdout.contains("4 apps on the device, not shown"))
        let all = try CLI.run(["device", archive.path, "--all-apps", "--format", "json"])
        let entries = try #require(try all.jsonObject()["entries"] as? [[String: Any]])
        #expect(entries.count == 7)
        let both = try CLI.run(["device", archive.path, "--all-apps", "--app-id", "X"])
        #expect(both.status == 64, "\(both.stderr)")
    }

    /// `--build`: the build's app IDs (read by `domains`, not pasted here) select the entries.
    @Test func aBuildSelectsItsAppIDs() throws {
        let ipa = SampleFiles.path("Acme.ipa")
        let domains = try CLI.run(["domains", ipa, "--format", "json"])
        let bundles = try #require(try domains.jsonObject()["bundles"] as? [[String: Any]])
        let appID = try #require(bundles.first?["appID"] as? String)
        let show = Self.showFile(apps: 2).replacingOccurrences(of: "ABCDE12345.com.example.shop", with: appID)
        let archive = try Self.sysdiagnose(show: show)
        defer { try? FileManager.default.removeItem(at: archive.deletingLastPathComponent()) }
        let result = try CLI.run(["device", archive.path, "--build", ipa, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try #require(try result.jsonObject()["entries"] as? [[String: Any]])
        #expect(entries.map { $0["appID"] as? String } == [appID])
    }

    /// TN3155's example (the corpus's S01): read field by field, and its impossible dates said to be so.
    @Test(.enabled(if: Corpus.isAvailable, "\(Corpus.absentReason)"))
    func theTN3155ExampleIsReadAndItsDatesDoubted() throws {
        let path = Corpus.url("device/S01_tn3155_show_example.txt").path
        let text = try CLI.run(["device", path, "--all-apps", "--now", "2023-08-25T00:00:00Z"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("1234abcd.com.example"))
        #expect(text.stdout.contains("Next Check is before its Last Checked"))
        let json = try CLI.run(["device", path, "--all-apps", "--format", "json", "--now", "2023-08-25T00:00:00Z"])
        let entry = try #require((try json.jsonObject()["entries"] as? [[String: Any]])?.first)
        let notes = try #require(entry["notes"] as? [String])
        #expect(notes.contains { $0.contains("Next Check is before its Last Checked") })
        #expect(entry["siteApproval"] as? String == "approved")
    }

    /// What cannot be read is one line on stderr and exit 2, in every format: a missing file, binary junk, a
    /// file over the limit (sparse, so nothing is written), an archive without the show file, a truncated one.
    @Test func unreadableEvidenceIsOneLine() throws {
        let folder = Scratch.folder.appendingPathComponent("device-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = folder.appendingPathComponent("junk.bin")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 151) }).write(to: junk)
        let huge = folder.appendingPathComponent("huge.txt")
        FileManager.default.createFile(atPath: huge.path, contents: Data("Service:  applinks\n".utf8))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 40 << 20)
        try handle.close()
        let archive = try Self.sysdiagnose(show: Self.showFile(apps: 1))
        let bytes = try Data(contentsOf: archive)
        let truncated = folder.appendingPathComponent("cut.tar.gz")
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        let cases: [(String, String)] = [
            (folder.appendingPathComponent("missing.txt").path, "no such file"),
            (junk.path, "holds no swcutil show output"),
            (huge.path, "larger than 32 MiB"),
            (truncated.path, "cut short"),
        ]
        for (path, words) in cases {
            for format in ["text", "json"] {
                let result = try CLI.run(["device", path, "--app-id", "A.b", "--format", format])
                #expect(result.status == 2, "\(path) \(format): \(result.stderr)")
                #expect(result.stderr.contains(words), "\(path): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            }
        }
        try? FileManager.default.removeItem(at: archive.deletingLastPathComponent())
    }
}
