import Foundation
import IPACheckTestSupport
import Testing

struct InfoCLITests {
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func printsTheBundleTreeAsJSON() throws {
        let result = try CLI.run(["info", Corpus.url("ipa/appinfo_embedded_universal.ipa").path, "--format", "json"])
        #expect(result.status == 0)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        )
        let bundles = try #require(json["bundles"] as? [[String: Any]])
        #expect(bundles.first?["path"] as? String == "Payload/Demo.app")
        #expect(bundles.first?["kind"] as? String == "app")
        #expect(bundles.first?["bundleID"] as? String == "com.icyleaf.test.Demo")
        #expect(bundles.contains { $0["kind"] as? String == "appex" })
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func printsTheBundleTreeAsText() throws {
        let result = try CLI.run(["info", Corpus.url("ipa/appinfo_iphone.ipa").path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("com.icyleaf.AppInfoDemo"))
        #expect(result.stdout.contains("armv7, arm64"))
        #expect(!result.stdout.contains("\u{1B}["))
    }

    @Test(arguments: [
        ("not-a-zip", "definitely not a zip"),
        ("empty", ""),
    ])
    func exitsWithTwoAndOneLineForUnreadableInput(label: String, content: String) throws {
        let path = Scratch.folder.appendingPathComponent("\(label)-\(UUID()).ipa").path
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        let result = try CLI.run(["info", path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stderr.contains(path))
    }

    @Test func exitsWithTwoForAMissingFile() throws {
        let result = try CLI.run(["info", "/nonexistent/App.ipa"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/App.ipa: no such file"))
    }

    @Test func exitsWithTwoForAnArchiveWithoutAnApp() throws {
        var zip = ZipBuilder()
        zip.add("README", text: "hi")
        let path = try zip.write()
        let result = try CLI.run(["info", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no Payload/*.app"))
    }

    @Test(arguments: [
        ["info"], ["info", "a.ipa", "--bogus"], ["nosuchcommand"], ["info", "a.ipa", "--format", "yaml"],
    ])
    func exitsWith64OnUsageErrors(arguments: [String]) throws {
        #expect(try CLI.run(arguments).status == 64)
    }
}
