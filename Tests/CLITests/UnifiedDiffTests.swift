import Foundation
import IPACheckTestSupport
import Testing

/// The diff a failing golden comparison prints is the one GNU diff prints (`diff -u`, its two header lines left out),
/// on texts whose lines are all distinct so that the shortest edit is unique.
struct UnifiedDiffTests {
    static let diff = URL(fileURLWithPath: "/usr/bin/diff")

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: diff.path), "needs GNU diff"))
    func printsWhatGNUDiffPrints() throws {
        var state: UInt64 = 5
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        let folder = Scratch.folder.appendingPathComponent("ipacheck-diff-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Edges first (one-line and empty files, changes at either end, hunks far apart), then random edits.
        let numbered = (0..<20).map { "line \($0)" }
        var pairs: [([String], [String])] = [
            (["a"], ["b"]), ([], ["a"]), (["a"], []), (["a", "b"], ["b"]), (["a", "b"], ["a"]),
            (numbered, ["new"] + numbered), (numbered, numbered + ["new"]),
            (numbered, numbered.enumerated().map { $0.offset == 2 || $0.offset == 17 ? "changed" : $0.element }),
            (numbered, numbered.enumerated().map { $0.offset == 5 || $0.offset == 12 ? "changed" : $0.element }),
        ]
        var fresh = 1_000
        for _ in 0..<60 {
            let old = (0..<next(40)).map { "line \($0)" }
            var new: [String] = []
            for line in old {
                switch next(10) {
                case 0: continue  // removed
                case 1:  // replaced
                    fresh += 1
                    new.append("line \(fresh)")
                case 2:  // one added before it
                    fresh += 1
                    new += ["line \(fresh)", line]
                default: new.append(line)
                }
            }
            if next(4) == 0 {
                fresh += 1
                new.append("line \(fresh)")
            }
            pairs.append((old, new))
        }
        for (round, (old, new)) in pairs.enumerated() {
            let oldText = old.map { $0 + "\n" }.joined()
            let newText = new.map { $0 + "\n" }.joined()
            let oldFile = folder.appendingPathComponent("old")
            let newFile = folder.appendingPathComponent("new")
            try oldText.write(to: oldFile, atomically: true, encoding: .utf8)
            try newText.write(to: newFile, atomically: true, encoding: .utf8)
            let gnu = try CLI.run(["-u", oldFile.path, newFile.path], executable: Self.diff)
            let expected = gnu.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
                .joined(separator: "\n")
            #expect(UnifiedDiff.hunks(from: oldText, to: newText) == expected, "round \(round)")
        }
    }

    @Test func equalTextsHaveNoHunksAndHugeOnesASummary() {
        #expect(UnifiedDiff.hunks(from: "a\nb\n", to: "a\nb\n") == "")
        #expect(
            UnifiedDiff.hunks(from: "a\nb\nc\n", to: "a\nx\nc\n", maximumCells: 4)
                == "line 2 differs (texts of 3 and 3 lines)"
        )
        #expect(UnifiedDiff.hunks(from: "a\n", to: "a") == "(they differ only in their final line feed)")
    }
}
