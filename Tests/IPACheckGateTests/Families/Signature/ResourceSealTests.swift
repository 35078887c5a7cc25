import Crypto
import Foundation
import IPACheckReport
import IPACheckTestSupport
import Testing

@testable import IPACheckBundle
@testable import IPACheckGate
@testable import IPACheckSigning

/// `--resources`: bundle files against `_CodeSignature/CodeResources`.
struct ResourceSealTests {
    /// A seal written by hand in Apple's layout (files2 with hash/hash2, optional, nested code, omit rules).
    static func seal(
        for files: [String: [UInt8]],
        optional: String? = nil,
        omitRules: [String] = ["^Info\\.plist$"]
    ) -> [UInt8] {
        func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
        var entries = ""
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            entries += "<key>\(path)</key><dict>"
            entries += "<key>hash</key><data>\(base64(Array(Insecure.SHA1.hash(data: bytes))))</data>"
            entries += "<key>hash2</key><data>\(base64(Array(SHA256.hash(data: bytes))))</data>"
            if path == optional { entries += "<key>optional</key><true/>" }
            entries += "</dict>"
        }
        entries += "<key>Frameworks/X.framework</key><dict><key>cdhash</key><data>AAAA</data>"
        entries += "<key>requirement</key><string>anchor apple</string></dict>"
        var rules = ""
        for pattern in omitRules {
            let escaped = pattern.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
                of: "<",
                with: "&lt;"
            )
            rules += "<key>\(escaped)</key><dict><key>omit</key><true/><key>weight</key><real>20</real></dict>"
        }
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>files2</key><dict>\(entries)</dict>
            <key>rules2</key><dict>\(rules)</dict>
            </dict></plist>
            """
        return Array(document.utf8)
    }

    /// Parses the seal and checks files held in memory (`read` gives a present file's bytes).
    private static func check(
        codeResources: [UInt8],
        bundleFiles: [String],
        mainExecutable: String? = nil,
        omitRuleSteps: Int = ResourceSeal.maximumOmitSteps,
        read: (String) -> [UInt8]?
    ) throws -> ResourceSealCheck {
        let seal = try ResourceSeal.parse(codeResources)
        let present = Set(bundleFiles)
        return seal.check(
            bundleFiles: bundleFiles.map { (path: $0, isListedFile: false) },
            streamed: nil,
            exists: { present.contains($0) },
            digests: { read($0).map { FileDigests(of: $0) } },
            nestedCodeHashes: { _ in nil },
            mainExecutable: mainExecutable,
            bundle: nil,
            omitRuleSteps: omitRuleSteps
        )
    }

    @Test func modifiedMissingAndAddedFilesAreReported() throws {
        let sealed: [String: [UInt8]] = [
            "a.png": [1, 2, 3],
            "Base.lproj/Main.nib": [4, 5],
            "gone.txt": [6],
            "maybe.txt": [7],
        ]
        var present = sealed
        present["a.png"] = [1, 2, 4]
        present["gone.txt"] = nil
        present["maybe.txt"] = nil
        present["extra.txt"] = [9]
        present["Info.plist"] = [0]  // omitted by rule
        present["App"] = [0]  // the main executable
        present["Frameworks/X.framework/X"] = [0]  // nested code, sealed by its own signature
        let result = try Self.check(
            codeResources: Self.seal(for: sealed, optional: "maybe.txt"),
            bundleFiles: Array(present.keys),
            mainExecutable: "App"
        ) { present[$0] }
        #expect(result.modified == ["a.png"])
        #expect(result.missing == ["gone.txt"])
        #expect(result.added == ["extra.txt"])
        #expect(result.checkedCount == 2)
        #expect(result.findings.map(\.rule).sorted() == ["SIG030", "SIG031", "SIG032"])
    }

    /// 50 files against one catastrophic omit rule took NSRegularExpression over a minute.
    ///
    /// Each file is judged right, and all of them together stay far inside the default step budget (none is left
    /// untried).
    @Test func catastrophicOmitRuleIsEvaluatedWithinTheBudget() throws {
        let failing = (25..<75).map { String(repeating: "a", count: $0) + "b" }
        let omitted = (25..<30).map { String(repeating: "a", count: $0) }
        let result = try Self.check(
            codeResources: Self.seal(for: [:], omitRules: ["^(a+)+$"]),
            bundleFiles: failing + omitted
        ) { _ in [] }
        #expect(result.added == failing.sorted())
        #expect(result.filesOmitRulesWereNotTriedOn == 0)
        #expect(result.unevaluatedOmitRules.isEmpty)
        #expect(!result.findings.contains { $0.rule == ResourceSeal.rules.omitRuleNotEvaluated.id })
    }

    /// A rule the matcher cannot evaluate omits nothing, as an invalid pattern always did, and is reported (SIG036)
    /// with its reason; the rules it can evaluate still apply.
    @Test func unsupportedOmitRuleIsReportedAndOmitsNothing() throws {
        let result = try Self.check(
            codeResources: Self.seal(for: [:], omitRules: ["^(?i)extra\\.txt$", "^(unclosed", "^Info\\.plist$"]),
            bundleFiles: ["extra.txt", "Info.plist"]
        ) { _ in [] }
        #expect(result.added == ["extra.txt"])
        #expect(result.unevaluatedOmitRules.map(\.pattern) == ["^(?i)extra\\.txt$", "^(unclosed"])
        #expect(result.unevaluatedOmitRules.allSatisfy { !$0.reason.isEmpty })
        let notes = result.findings.filter { $0.rule == ResourceSeal.rules.omitRuleNotEvaluated.id }
        #expect(notes.count == 1)
        #expect(notes.first?.severity == .note)
        #expect(notes.first?.message.contains("2 omit rules of the seal are not evaluated") == true)
        #expect(notes.first?.message.contains("^(?i)extra\\.txt$") == true)
    }

    /// Omit rules past the rule cap, and past the cap on their total program size, are reported, not dropped.
    @Test func omitRulesOverTheCapsAreReported() throws {
        let ruleCount = ResourceSeal.maximumOmitRules + 2
        let manyRules = (0..<ruleCount).map { String(format: "^file%05d$", $0) }
        let many = try ResourceSeal.parse(Self.seal(for: [:], omitRules: manyRules))
        #expect(many.unevaluatedOmitRules.map(\.pattern) == Array(manyRules.sorted().suffix(2)))
        #expect(many.unevaluatedOmitRules.allSatisfy { $0.reason.contains("beyond") })

        let bigRules = (0..<40).map { String(format: "^(?:ab){1000}%02d$", $0) }
        let size = try SealRuleRegex(bigRules[0]).programSize
        let fitting = ResourceSeal.maximumTotalProgramSize / size
        let big = try ResourceSeal.parse(Self.seal(for: [:], omitRules: bigRules))
        #expect(big.unevaluatedOmitRules.map(\.pattern) == Array(bigRules.sorted().dropFirst(fitting)))
        #expect(big.unevaluatedOmitRules.allSatisfy { $0.reason.contains("together") })
    }

    /// When the step budget runs out, the files left are not omitted and the report says how many.
    @Test func exhaustedStepBudgetLeavesFilesNotOmittedAndSaysSo() throws {
        let files = (0..<10).map { "file\($0)" }
        let result = try Self.check(
            codeResources: Self.seal(for: [:], omitRules: ["^file[0-9]$"]),
            bundleFiles: files,
            omitRuleSteps: 30
        ) { _ in [] }
        // Each file costs the matcher more than 3 steps, so the budget ends before the last file.
        #expect(result.filesOmitRulesWereNotTriedOn > 0)
        #expect(result.added.count == result.filesOmitRulesWereNotTriedOn)
        let note = result.findings.first { $0.rule == ResourceSeal.rules.omitRuleNotEvaluated.id }
        #expect(note?.message.contains("not tried on \(result.filesOmitRulesWereNotTriedOn) file(s)") == true)
    }

    /// Files inside nested code are left to its own signature, and nested code with no file is missing; comparing
    /// every file with every nested-code entry made 20,000 of each take minutes.
    @Test func manyNestedCodeEntriesAndManyFiles() throws {
        let count = 20_000
        var entries = ""
        for index in 0..<count {
            entries += "<key>PlugIns/E\(index).appex</key><dict><key>requirement</key><string>x</string></dict>"
        }
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>files2</key><dict>\(entries)</dict></dict></plist>
            """
        let inside = (0..<count).filter { $0 % 2 == 0 }.map { "PlugIns/E\($0).appex/Contents/E\($0)" }
        let extra = (0..<count).map { "extra\($0).txt" }
        let result = try Self.check(codeResources: Array(document.utf8), bundleFiles: inside + extra) { _ in [] }
        #expect(result.added == extra.sorted())
        #expect(result.missing == (0..<count).filter { $0 % 2 == 1 }.map { "PlugIns/E\($0).appex" }.sorted())
    }

    @Test func malformedSealIsAnError() {
        #expect(throws: CodeSignatureError.self) {
            try Self.check(codeResources: Array("nope".utf8), bundleFiles: []) { _ in nil }
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func isignSealMatchesTheDylibBesideIt() throws {
        // python3 plistlib: files2["Frameworks/libswiftDispatch.dylib"] is the SHA-1 of the corpus dylib; the seal
        // lists 18 files, 7 of them (the .lproj nibs) `optional`, so with only the dylib present 10 are missing;
        // Info.plist is omitted by rules2.
        let dylib = try Corpus.bytes("macho/isign_Test.app_libswiftDispatch.dylib")
        let files = ["Frameworks/libswiftDispatch.dylib", "Info.plist", "isignTestApp"]
        let result = try Self.check(
            codeResources: try Corpus.bytes("macho/isign_Test.app_CodeResources"),
            bundleFiles: files,
            mainExecutable: "isignTestApp"
        ) { $0 == "Frameworks/libswiftDispatch.dylib" ? dylib : [] }
        #expect(result.modified.isEmpty)
        #expect(result.checkedCount == 1)
        #expect(result.missing.count == 10)
        #expect(result.added.isEmpty)
    }
}
