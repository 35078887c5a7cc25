import Foundation
import IPACheckTestSupport
import Testing

/// Other projects' test files through every command that reads a build: libzip's regress archives, yauzl's and
/// zip2's (Tests/Fixtures/Peers; Tests/Fixtures/Peers/NOTICE.md says whose and under which licence).
///
/// The rule for each file and command: exit 0, 1 or 2 (never a crash or a usage error); on exit 2 one line on stderr,
/// `ipacheck: error: PATH: ` and a sentence with no program internals; and one opener's words: when the archive
/// itself cannot be opened as a build (`info` exits 2), every command says the same sentence.
struct PeerFixtureCLITests {
    static let folder = Repository.root.appendingPathComponent("Tests/Fixtures/Peers")

    /// Each peer's zips, as `peer/name.zip`.
    static let files: [String] = ["libzip", "yauzl", "zip2"].flatMap { peer in
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(peer).path)) ?? []
        return names.filter { $0.hasSuffix(".zip") }.sorted().map { "\(peer)/\($0)" }
    }

    /// Words that only a program's internals would print.
    static let internals = [
        "Error Domain", "ASN1", "tagNumber", "libzip error", ".swift:", "Optional(", "ArchiveError", "InputError",
        "Zip archive inconsistent", "Seek error", "No such file", "Can't open",
    ]

    @Test func theFixturesAreThere() {
        #expect(Self.files.filter { $0.hasPrefix("libzip/") }.count >= 150, "\(Self.files.count) zips")
        #expect(Self.files.filter { $0.hasPrefix("yauzl/") }.count >= 40, "\(Self.files.count) zips")
        #expect(Self.files.filter { $0.hasPrefix("zip2/") }.count >= 25, "\(Self.files.count) zips")
    }

    @Test func everyCommandAnswersEveryPeerArchiveInWords() throws {
        var runs = 0
        for name in Self.files {
            let path = Self.folder.appendingPathComponent(name).path
            var refusals: [String: String] = [:]
            for command in [
                ["info"], ["verify"], ["domains"], ["entitlements"],
                ["check", "--offline", "--aasa-dir", SampleFiles.aasaDir],
            ] {
                let result = try CLI.run(command + [path])
                runs += 1
                let label = "\(command[0]) \(name)"
                #expect([0, 1, 2].contains(result.status), "\(label): exit \(result.status)")
                guard result.status == 2 else { continue }
                let prefix = "ipacheck: error: \(path): "
                #expect(result.stderr.hasPrefix(prefix), "\(label): \(result.stderr)")
                #expect(result.stderrLines.count == 1, "\(label): \(result.stderr)")
                for word in Self.internals {
                    #expect(!result.stderr.contains(word), "\(label) says \(word): \(result.stderr)")
                }
                refusals[command[0]] = String(result.stderr.dropFirst(prefix.count))
            }
            // The archive could not be opened as a build: every command that reads it says so in the same words.
            if let opener = refusals["info"] {
                for (command, words) in refusals {
                    #expect(words == opener, "\(name): info says \(opener), \(command) says \(words)")
                }
                #expect(refusals.count == 5, "\(name): info refused it, but only \(refusals.keys.sorted()) did")
            }
        }
        #expect(runs == Self.files.count * 5)
    }

    /// JSONTestSuite's parsing tests through `lint`: every one is a finding, exit 1.
    ///
    /// Contract: content that is no usable AASA document is its rule's finding, exit 1; exit 2 only for a file that
    /// cannot be read. A document JSON accepts (`y_`) is never called invalid JSON or invalid UTF-8; one it rejects
    /// (`n_`) is always empty, not UTF-8, invalid or too deep.
    @Test func lintJudgesJSONTestSuiteAsJSONDoes() throws {
        let folder = Self.folder.appendingPathComponent("JSONTestSuite")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 300)
        let parseRules: Set = ["AASA001", "AASA002", "AASA003", "AASA005"]
        for name in names.sorted() {
            let result = try CLI.run(["lint", folder.appendingPathComponent(name).path, "--format", "json"])
            #expect(result.status == 1, "\(name): exit \(result.status) \(result.stderr)")
            let rules = Set(
                ((try result.jsonObject()["findings"] as? [[String: Any]]) ?? []).compactMap { $0["rule"] as? String }
            )
            if name.hasPrefix("y_") {
                #expect(rules.isDisjoint(with: ["AASA002", "AASA003"]), "\(name): \(rules)")
            } else if name.hasPrefix("n_") {
                #expect(!rules.isDisjoint(with: parseRules), "\(name): \(rules)")
            }
        }
    }

    /// libplist's test files (XML, binary, JSON and OpenStep plists, broken ones too) as an entitlements file, a
    /// profile and an AASA file: exit 0, 1 or 2, and on 2 one sentence with no internals.
    @Test func libplistFilesAreAnsweredInWords() throws {
        let folder = Self.folder.appendingPathComponent("libplist")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "COPYING.LESSER" }
        #expect(names.count >= 40)
        for name in names.sorted() {
            let path = folder.appendingPathComponent(name).path
            for command in [["domains"], ["profile"], ["check", "--app-id", "A1B2C3D4E5.com.example.app"]] {
                let result = try CLI.run(command + [path] + (command[0] == "check" ? SampleFiles.offline : []))
                let label = "\(command[0]) \(name)"
                #expect([0, 1, 2].contains(result.status), "\(label): exit \(result.status)")
                guard result.status == 2 else { continue }
                #expect(result.stderr.hasPrefix("ipacheck: error: \(path): "), "\(label): \(result.stderr)")
                #expect(result.stderrLines.count == 1, "\(label): \(result.stderr)")
                for word in Self.internals + [" a integer", " a array"] {
                    #expect(!result.stderr.contains(word), "\(label) says \(word): \(result.stderr)")
                }
            }
        }
    }
}
