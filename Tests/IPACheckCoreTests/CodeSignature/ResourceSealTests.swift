import Crypto
import Foundation
import IPACheckCore
import IPACheckReport
import IPACheckTestSupport
import Testing

/// `--resources`: bundle files against `_CodeSignature/CodeResources`.
struct ResourceSealTests {
    /// A seal written by hand in Apple's layout (files2 with hash/hash2, optional, nested code, omit rules).
    static func seal(for files: [String: [UInt8]], optional: String? = nil) -> [UInt8] {
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
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>files2</key><dict>\(entries)</dict>
            <key>rules2</key><dict><key>^Info\\.plist$</key><dict><key>omit</key><true/></dict></dict>
            </dict></plist>
            """
        return Array(document.utf8)
    }

    /// Parses the seal and checks files held in memory (`read` gives a present file's bytes).
    private static func check(
        codeResources: [UInt8],
        bundleFiles: [String],
        mainExecutable: String? = nil,
        read: (String) -> [UInt8]?
    ) throws -> ResourceSealCheck {
        let seal = try ResourceSeal.parse(codeResources)
        return seal.check(
            bundleFiles: bundleFiles,
            exists: { bundleFiles.contains($0) },
            digests: { read($0).map { FileDigests(of: $0) } },
            nestedCodeHashes: { _ in nil },
            mainExecutable: mainExecutable,
            bundle: nil
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
