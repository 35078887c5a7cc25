import Foundation
import IPACheckTestSupport
import Testing

/// `ipacheck links`: every generated link's expectation is what `ipacheck match` answers for it, on the
/// samples and on every AASA file of the corpus; the HTML page renders in a real browser with every link in it.
@Suite(.serialized)
struct LinksCLITests {
    /// One link as `links --format json` gives it.
    struct Link {
        let url: String
        let expected: String
        /// What the deciding rule of the file says (`opens` for an accepting rule, `stays` for an exclude).
        let rulesDecide: String
        let appID: String
        let entry: String
        let rule: [String: Int]
    }

    static func links(_ arguments: [String]) throws -> (links: [Link], json: [String: Any]) {
        let result = try CLI.run(["links", "--format", "json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.jsonObject()
        let links = ((json["links"] as? [[String: Any]]) ?? []).compactMap { link -> Link? in
            guard let url = link["url"] as? String, let expected = link["expected"] as? String,
                let rulesDecide = link["rulesDecide"] as? String, let appID = link["appID"] as? String,
                let entry = link["entry"] as? String,
                let rule = link["rule"] as? [String: Int]
            else { return nil }
            return Link(url: url, expected: expected, rulesDecide: rulesDecide, appID: appID, entry: entry, rule: rule)
        }
        return (links, json)
    }

    /// Asks `match` about every link, on the same files, and compares: opens ↔ match, stays ↔ block, same rule.
    ///
    /// A `*.` entry's links are on a subdomain but served by the apex's file (TN3155), which `match` is given with
    /// `--aasa`; the others are asked as `match` fetches them (here from `--aasa-dir`).
    static func expectMatchAgrees(
        _ links: [Link],
        aasaDir: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let groups = Dictionary(grouping: links) { "\($0.appID) \($0.entry)" }
        for key in groups.keys.sorted() {
            guard let group = groups[key], let first = group.first else { continue }
            let appID = first.appID
            var files = ["--offline", "--aasa-dir", aasaDir]
            let host = String(first.entry.dropFirst("applinks:".count).prefix { $0 != "?" })
            if host.hasPrefix("*.") {
                files = ["--aasa", aasaDir + "/" + host.dropFirst(2) + "/apple-app-site-association"]
            }
            let folder = Scratch.folder.appendingPathComponent("links-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let list = folder.appendingPathComponent("urls.txt")
            try Data(group.map(\.url).joined(separator: "\n").utf8).write(to: list)
            let result = try CLI.run(["match", "--urls", list.path, "--app-id", appID, "--format", "json"] + files)
            let answers = (try result.jsonObject()["results"] as? [[String: Any]]) ?? []
            #expect(answers.count == group.count, "\(result.stderr)", sourceLocation: sourceLocation)
            for (link, answer) in zip(group, answers) {
                let verdict = answer["verdict"] as? String
                #expect(
                    verdict == (link.rulesDecide == "opens" ? "match" : "block"),
                    "\(link.url): links says \(link.expected), match says \(verdict ?? "nothing")",
                    sourceLocation: sourceLocation
                )
                #expect(answer["rule"] as? [String: Int] == link.rule, "\(link.url)", sourceLocation: sourceLocation)
            }
        }
    }

    /// `links`' expectation is `match --build`'s answer for the same URL on the same build and files: one
    /// judgement (docs/ios-model.md).
    static func expectMatchBuildAgrees(
        _ links: [Link],
        build: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let folder = Scratch.folder.appendingPathComponent("links-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let list = folder.appendingPathComponent("urls.txt")
        try Data(links.map(\.url).joined(separator: "\n").utf8).write(to: list)
        let result = try CLI.run(["match", "--urls", list.path, "--format", "json", "--build"] + build)
        let answers = (try result.jsonObject()["results"] as? [[String: Any]]) ?? []
        #expect(answers.count == links.count, "\(result.stderr)", sourceLocation: sourceLocation)
        for (link, answer) in zip(links, answers) {
            let verdict = answer["verdict"] as? String
            #expect(
                (verdict == "match") == (link.expected == "opens"),
                "\(link.url): links says \(link.expected), match --build says \(verdict ?? "nothing")",
                sourceLocation: sourceLocation
            )
        }
    }

    @Test func theSamplesLinksAreWhatMatchAnswers() throws {
        let acme = try Self.links([SampleFiles.acme] + SampleFiles.offline)
        // Samples/aasa/acme.example: the account exclude first, then products, cart, promo and App Flip (README).
        let apex = acme.links.filter { $0.url.hasPrefix("https://acme.example/") && $0.appID.hasSuffix(".shop") }
        #expect(apex.map(\.rulesDecide) == ["stays", "opens", "opens", "opens", "opens"])
        // No device installs Acme (ENT104), so every link stays on the web, as match --build and explain say.
        #expect(apex.map(\.expected) == ["stays", "stays", "stays", "stays", "stays"])
        #expect(apex.first?.url.hasPrefix("https://acme.example/account/") == true)
        try Self.expectMatchAgrees(acme.links, aasaDir: SampleFiles.aasaDir)
        try Self.expectMatchBuildAgrees(acme.links, build: [SampleFiles.acme] + SampleFiles.offline)
        // Acme's profile does not grant www, so the page says no link opens it yet (as explain does).
        let errors = (acme.json["buildErrors"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        #expect(errors.contains("ENT104"))
        let skipped = (acme.json["skipped"] as? [[String: Any]] ?? []).compactMap { $0["entry"] as? String }
        #expect(skipped.contains("applinks:beta.acme.example?mode=developer"))
        let minimal = try Self.links([SampleFiles.minimal, "--distribution", "development"] + SampleFiles.offline)
        #expect(minimal.links.count == 1)
        try Self.expectMatchAgrees(minimal.links, aasaDir: SampleFiles.aasaDir)
        // A simulator build signed ad hoc runs on no device, whatever --distribution says.
        #expect(minimal.links.map(\.expected) == ["stays"])
        try Self.expectMatchBuildAgrees(minimal.links, build: [SampleFiles.minimal] + SampleFiles.offline)
    }

    /// Every AASA file in the corpus, for up to three of the app IDs it lists: each link `links` makes is answered
    /// the same way by `match`.
    @Test(.enabled(if: Corpus.isAvailable, "the shared corpus is absent"))
    func everyCorpusFilesLinksAreWhatMatchAnswers() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Corpus.url("aasa").path).sorted()
        var total = 0
        for file in files {
            let bytes = try Data(contentsOf: Corpus.url("aasa/\(file)"))
            guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
                let details = (object["applinks"] as? [String: Any])?["details"]
            else { continue }
            var appIDs: [String] = []
            if let list = details as? [[String: Any]] {
                for detail in list {
                    appIDs += (detail["appIDs"] as? [String]) ?? []
                    if let one = detail["appID"] as? String { appIDs.append(one) }
                }
            } else if let legacy = details as? [String: Any] {
                appIDs += legacy.keys.sorted()
            }
            let folder = Scratch.folder.appendingPathComponent("links-\(UUID().uuidString)")
            let hostDir = folder.appendingPathComponent("aasa/corpus.example")
            try FileManager.default.createDirectory(at: hostDir, withIntermediateDirectories: true)
            try bytes.write(to: hostDir.appendingPathComponent("apple-app-site-association"))
            let network = ["--offline", "--aasa-dir", folder.appendingPathComponent("aasa").path]
            for appID in Set(appIDs).sorted().prefix(3) where appID.contains(".") {
                let target = try SameStoryEveryCommandCLITests.entitlements(["applinks:corpus.example"], in: folder)
                let plist = try String(contentsOfFile: target, encoding: .utf8)
                    .replacingOccurrences(of: SameStoryEveryCommandCLITests.appID, with: appID)
                try Data(plist.utf8).write(to: URL(fileURLWithPath: target))
                let made = try Self.links([target] + network)
                total += made.links.count
                try Self.expectMatchAgrees(made.links, aasaDir: folder.appendingPathComponent("aasa").path)
                try Self.expectMatchBuildAgrees(made.links, build: [target] + network)
            }
        }
        // The corpus holds more than a hundred rules; a sheet that made almost no links would prove nothing.
        #expect(total >= 50, "only \(total) links made from the corpus")
    }

    /// Debian's chromium, when installed (scripts/test installs it): the page is rendered in a real browser.
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(.enabled(if: chromium != nil || ProcessInfo.processInfo.environment["CI"] == "true", "chromium is absent"))
    func theHTMLPageRendersWithEveryLink() throws {
        let browser = try #require(Self.chromium, "chromium is required when CI=true: scripts/test installs it")
        let expected = try Self.links([SampleFiles.acme] + SampleFiles.offline).links
        let page = try CLI.run(["links", SampleFiles.acme, "--format", "html"] + SampleFiles.offline)
        #expect(page.status == 0)
        #expect(!page.stdout.contains("<script"), "the page runs no script")
        #expect(!page.stdout.contains("src=\"http"), "the page loads nothing from the network")
        let folder = Scratch.folder.appendingPathComponent("links-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("links.html")
        try Data(page.stdout.utf8).write(to: file)
        let dom = try Self.run(
            browser,
            ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", file.absoluteString]
        )
        let hrefs = dom.components(separatedBy: "<a href=\"").dropFirst().compactMap {
            $0.components(separatedBy: "\"").first
        }
        #expect(hrefs.map { $0.replacingOccurrences(of: "&amp;", with: "&") } == expected.map(\.url))
        let screenshot = folder.appendingPathComponent("links.png")
        _ = try Self.run(
            browser,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--window-size=420,1400",
                "--screenshot=\(screenshot.path)",
                file.absoluteString,
            ]
        )
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG screenshot")
    }

    /// `links --device`: the page a tester opens shows each claim as the device holds it, with every diagnosis the
    /// JSON gives, and each link marked with what a tap does on that device (rendered by chromium).
    @Test(.enabled(if: chromium != nil || ProcessInfo.processInfo.environment["CI"] == "true", "chromium is absent"))
    func theDevicePageRendersWhatTheDeviceHolds() throws {
        let browser = try #require(Self.chromium, "chromium is required when CI=true: scripts/test installs it")
        let device = ["--device", SampleFiles.path("device/swcutil_show.txt"), "--now", "2026-11-26T10:00:00Z"]
        let (links, json) = try Self.links([SampleFiles.acme] + SampleFiles.offline + device)
        let held = try #require(json["device"] as? [[String: Any]])
        #expect(!held.isEmpty)
        let page = try CLI.run(["links", SampleFiles.acme, "--format", "html"] + SampleFiles.offline + device)
        #expect(page.status == 0)
        let folder = Scratch.folder.appendingPathComponent("links-device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("links.html")
        try Data(page.stdout.utf8).write(to: file)
        let dom = try Self.run(
            browser,
            ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", file.absoluteString]
        )
        #expect(dom.contains("<h2>On the device</h2>"))
        for claim in held {
            let entry = try #require(claim["entry"] as? String)
            #expect(dom.contains(entry), "\(entry)")
            for diagnosis in (claim["diagnoses"] as? [[String: Any]]) ?? [] {
                let id = try #require(diagnosis["id"] as? String)
                #expect(dom.contains("<span class=\"why\">\(id) "), "\(entry): \(id)")
            }
        }
        let onDevice = ((json["links"] as? [[String: Any]]) ?? []).compactMap { $0["onThisDevice"] as? String }
        #expect(onDevice.count == links.count)
        let marks = dom.components(separatedBy: "<li><span class=\"").dropFirst().compactMap {
            $0.components(separatedBy: "\"").first
        }
        #expect(marks.filter { $0 == "opens" || $0 == "stays" } == onDevice)
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        try ProcessRunner.run(URL(fileURLWithPath: executable), arguments, errors: .discarded).output
    }
}
