import Foundation
import IPACheckTestSupport
import Testing

/// Comments cite only what a reader of the repository can open: a document named in the sources, tests or scripts
/// is one of the repository's own (docs/, the README, the changelog), never a research note outside it, an issue
/// number or a seed document.
struct CitationTests {
    /// Every Swift, Python and shell file of the repository's sources, tests and scripts, with its text.
    static func files() throws -> [(path: String, text: String)] {
        let root = Repository.root
        var found: [(String, String)] = []
        for folder in ["Sources", "Tests", "scripts", "Benchmarks"] {
            let base = root.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk {
                let path = url.path.replacingOccurrences(of: root.path + "/", with: "")
                guard !path.hasPrefix("Tests/Fixtures/"), !path.hasPrefix("Tests/Golden/") else { continue }
                let isScript = folder == "scripts" && url.pathExtension.isEmpty
                guard ["swift", "py", "sh"].contains(url.pathExtension) || isScript,
                    let data = FileManager.default.contents(atPath: url.path)
                else { continue }
                found.append((path, String(decoding: data, as: UTF8.self)))
            }
        }
        return found
    }

    @Test("every Markdown document a file names is one of the repository's own")
    func citedDocumentsExist() throws {
        let files = try Self.files()
        #expect(files.count > 100, "the walk found the sources")
        let pattern = try Regex(#"(^|[^A-Za-z0-9_./-])((?:[A-Za-z0-9_-]+/)*[A-Za-z0-9_-]+\.md)\b"#)
        var missing: [String] = []
        for (path, text) in files where path != "Tests/IPACheckCommandsTests/Repository/CitationTests.swift" {
            for match in text.matches(of: pattern) {
                guard let cited = match.output[2].substring.map(String.init) else { continue }
                let candidates = [cited, "docs/" + cited]
                let exists = candidates.contains {
                    FileManager.default.fileExists(atPath: Repository.root.appendingPathComponent($0).path)
                }
                if !exists { missing.append("\(path): \(cited)") }
            }
        }
        #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
    }

    @Test("no file cites a section of a document the repository does not hold, an issue number or a seed")
    func noCitationsOfWhatIsNotHere() throws {
        let forbidden = [
            try Regex(#"\bissue [0-9]+\b"#), try Regex(#"\bseed [0-9]{3}\b"#),
            try Regex(#"appflip-firebase\.md §"#), try Regex(#"\bthe contract\b"#),
        ].map { $0.ignoresCase() }
        var found: [String] = []
        for (path, text) in try Self.files() where path != "Tests/IPACheckCommandsTests/Repository/CitationTests.swift"
        {
            for pattern in forbidden where text.contains(pattern) { found.append(path) }
        }
        #expect(found.isEmpty, "\(found)")
    }
}
