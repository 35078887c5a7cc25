import Foundation
import IPACheckAASA
import IPACheckTestSupport
import Testing

@testable import IPACheckCommands
@testable import IPACheckLinks
@testable import IPACheckReport

/// `match --urls` streams (README: memory does not grow with the number of URLs): the list is read in chunks,
/// and results are written as they are decided, in JSON that any reader decodes to exactly what was written.
struct URLMatchStreamingTests {
    static func file(_ text: String) throws -> String {
        let url = Scratch.folder.appendingPathComponent("urls-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func urls(in path: String) throws -> [(String, Int)] {
        var seen: [(String, Int)] = []
        try URLListFile(path: path).forEachURLBytes { url, line in
            seen.append((String(decoding: url, as: UTF8.self), line))
        }
        return seen
    }

    @Test("blank lines and comments are skipped, CRLF and spaces trimmed, the last line needs no newline")
    func readsLines() throws {
        let seen = try Self.urls(
            in: try Self.file("https://a.example/1\r\n# comment\n\n  https://a.example/2 \t\nhttps://a.example/3")
        )
        #expect(seen.map(\.0) == ["https://a.example/1", "https://a.example/2", "https://a.example/3"])
        #expect(seen.map(\.1) == [1, 4, 5])
    }

    /// Lines cross the 1 MiB read boundary: nothing is lost or split.
    @Test("lines that straddle a chunk boundary arrive whole")
    func straddlesChunks() throws {
        let count = 100_000
        let text = (0..<count).map { "https://a.example/page/\($0)" }.joined(separator: "\n") + "\n"
        #expect(text.utf8.count > 2 * URLListFile.chunkBytes, "the list spans several chunks")
        let seen = try Self.urls(in: try Self.file(text))
        #expect(seen.count == count)
        #expect(seen.last?.0 == "https://a.example/page/\(count - 1)")
        #expect(zip(seen, 0..<count).allSatisfy { $0.0.0 == "https://a.example/page/\($0.1)" })
    }

    @Test("a line longer than the limit is an input error naming it")
    func refusesOverlongLine() throws {
        let long = "https://a.example/" + String(repeating: "x", count: URLListFile.maximumLineBytes + 10)
        let path = try Self.file("https://a.example/1\n" + long + "\n")
        #expect(throws: InputError.self) { _ = try Self.urls(in: path) }
        do {
            _ = try Self.urls(in: path)
        } catch let error as InputError {
            #expect(error.description.contains("line 2"), "\(error)")
        }
    }

    /// Batches are worked on by several threads at once; results must still come back in the list's order, each
    /// URL with its own line, command-line URLs first.
    @Test("batches come back in order, whole, with their lines")
    func batchesInOrder() throws {
        let count = 5 * URLBatches.batchSize + 17
        let path = try Self.file((0..<count).map { "https://a.example/\($0)" }.joined(separator: "\n"))
        var seen: [(url: String, line: Int?)] = []
        try URLBatches.forEachResult(
            urls: ["https://cli.example/x"],
            list: try URLListFile(path: path),
            transform: { batch in batch.map { (url: $0, line: $1) } }
        ) { seen += $0 }
        #expect(seen.count == count + 1)
        #expect(seen.first?.url == "https://cli.example/x" && seen.first?.line == nil)
        let fromFile = seen.dropFirst()
        #expect(
            zip(fromFile, 0..<count).allSatisfy { $0.0.url == "https://a.example/\($0.1)" && $0.0.line == $0.1 + 1 }
        )
    }

    /// A bad line (the consumer throws) stops the run: nothing after it is consumed.
    @Test("when the consumer throws, no later batch is consumed")
    func consumerErrorStops() throws {
        struct Stop: Error {}
        let path = try Self.file(
            (0..<(4 * URLBatches.batchSize)).map { "https://a.example/\($0)" }.joined(separator: "\n")
        )
        var consumed = 0
        #expect(throws: Stop.self) {
            try URLBatches.forEachResult(urls: [], list: try URLListFile(path: path), transform: { $0.count }) { _ in
                consumed += 1
                if consumed == 2 { throw Stop() }
            }
        }
        #expect(consumed == 2)
    }

    @Test("a missing file is an input error")
    func missingFile() {
        #expect(throws: InputError.self) { _ = try URLListFile(path: "/nonexistent/urls.txt") }
    }

    /// The streamed JSON decodes to the results written, through every escape: quotes, backslashes, C0 and C1
    /// controls, bidi overrides and non-ASCII text.
    @Test("streamed JSON decodes to exactly the results written")
    func jsonRoundTrips() throws {
        let results = [
            AASAMatchResult(
                url: "https://a.example/r/1",
                appID: "ABCDE12345.com.x",
                verdict: .match,
                rule: AASAPathRuleReference(detail: 0, component: 2),
                why: "component 2 {\"/\": \"/r/*\"} matches /r/1"
            ),
            AASAMatchResult(
                url: "https://a.example/é\\\u{1B}[2J\u{9B}\u{202E}\t\n",
                appID: "ABCDE12345.com.x",
                verdict: .none,
                rule: nil,
                why: "no rule matches"
            ),
        ]
        var output: [UInt8] = []
        let writer = MatchResultWriter(format: .json) { output += $0 }
        for result in results { writer.write(MatchResultWriter.format([result], as: writer.format)) }
        writer.finish()
        struct Output: Decodable { let results: [AASAMatchResult] }
        #expect(try JSONDecoder().decode(Output.self, from: Data(output)).results == results)
        let text = String(decoding: output, as: UTF8.self)
        #expect(!text.unicodeScalars.contains { ["\u{1B}", "\u{9B}", "\u{202E}"].contains($0) })
        #expect(!writer.everyURLMatches)
    }

    @Test("a writer with no results still writes valid JSON, and every verdict match is noted")
    func emptyJSON() throws {
        var output: [UInt8] = []
        let writer = MatchResultWriter(format: .json) { output += $0 }
        writer.finish()
        let object = try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any]
        #expect((object?["results"] as? [Any])?.isEmpty == true)
        #expect(writer.everyURLMatches)
    }

    /// Output leaves in pieces of about the flush size, never all at the end.
    @Test("output is handed over in pieces as it grows")
    func flushesInPieces() {
        var pieces: [Int] = []
        let writer = MatchResultWriter(format: .text) { pieces.append($0.count) }
        let result = AASAMatchResult(url: "https://a.example/x", appID: "A.b", verdict: .match, rule: nil, why: "w")
        for _ in 0..<50_000 { writer.write(MatchResultWriter.format([result], as: writer.format)) }
        #expect(pieces.count >= 2, "written before the end")
        #expect(pieces.allSatisfy { $0 < MatchResultWriter.flushBytes + 4096 })
        writer.finish()
        #expect(pieces.reduce(0, +) == 50_000 * (result.textLine.utf8.count + 1))
    }
}
