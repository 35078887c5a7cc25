import Foundation
import IPACheckPlist
import IPACheckTestSupport
import Testing

@testable import IPACheckSigning

/// A seal parsed as it streams out of the archive says what the same seal read whole says (the whole reading is
/// the reference: it is checked against libplist and codesign's layouts in ResourceSealTests).
struct ResourceSealStreamingTests {
    /// Parses `bytes` pulled `chunk` bytes at a time; `opened` counts the passes.
    private static func streamed(_ bytes: [UInt8], chunk: Int, opened: inout Int) throws -> ResourceSeal {
        var passes = 0
        defer { opened = passes }
        return try ResourceSeal.parseXML(pulling: {
            passes += 1
            var offset = 0
            return {
                let piece = Array(bytes[offset..<min(offset + chunk, bytes.count)])
                offset += piece.count
                return .bytes(piece)
            }
        })
    }

    static let files: [String: [UInt8]] = ["a.png": [1, 2, 3], "b/c.txt": Array("hello".utf8), "d&amp;e.txt": [9]]

    @Test(arguments: [1, 2, 5, 64, 1 << 20])
    func aStreamedSealIsTheWholeSeal(chunk: Int) throws {
        let bytes = ResourceSealTests.seal(for: Self.files, optional: "a.png", omitRules: ["^Info\\.plist$", "\\.x$"])
        let whole = try ResourceSeal.parse(bytes)
        var opened = 0
        let streamed = try Self.streamed(bytes, chunk: chunk, opened: &opened)
        #expect(streamed.entries == whole.entries)
        #expect(streamed.unevaluatedOmitRules == whole.unevaluatedOmitRules)
        #expect(streamed.entries.count == Self.files.count + 1)
        #expect(opened == 1, "files2 is there: one pass")
    }

    /// A seal with only `files` (codesign before 10.9) is read in a second pass, from a fresh stream.
    @Test func aSealWithoutFiles2IsReadInASecondPass() throws {
        let bytes = ResourceSealTests.seal(for: Self.files).replacingKey("files2", with: "files")
        let whole = try ResourceSeal.parse(bytes)
        var opened = 0
        let streamed = try Self.streamed(bytes, chunk: 7, opened: &opened)
        #expect(streamed.entries == whole.entries)
        #expect(opened == 2)
    }

    /// The corpus's real seal, streamed, is the seal read whole.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func theCorpusSealStreamsAsItReadsWhole() throws {
        let bytes = try Corpus.bytes("macho/isign_Test.app_CodeResources")
        var opened = 0
        let streamed = try Self.streamed(bytes, chunk: 13, opened: &opened)
        #expect(streamed.entries == (try ResourceSeal.parse(bytes)).entries)
        #expect(streamed.entries.count == 18)
    }

    /// Damage says the same in both readings; a stream that fails says why.
    @Test func damageReadsTheSameStreamed() throws {
        var bytes = ResourceSealTests.seal(for: Self.files)
        bytes.insert(0, at: bytes.count / 2)
        let whole = #expect(throws: CodeSignatureError.self) { _ = try ResourceSeal.parse(bytes) }
        var opened = 0
        let streamed = #expect(throws: CodeSignatureError.self) {
            _ = try Self.streamed(bytes, chunk: 9, opened: &opened)
        }
        #expect(streamed?.reason == whole?.reason)
        #expect(whole?.reason.contains("a NUL byte") == true)

        let failing = #expect(throws: CodeSignatureError.self) {
            _ = try ResourceSeal.parseXML(pulling: { { .failed("Payload/A.app/_CodeSignature/CodeResources: gone") } })
        }
        #expect(failing?.reason == "Payload/A.app/_CodeSignature/CodeResources: gone")
    }
}

extension [UInt8] {
    /// The document with `<key>old</key>` renamed.
    fileprivate func replacingKey(_ old: String, with new: String) -> [UInt8] {
        Array(
            String(decoding: self, as: UTF8.self).replacingOccurrences(
                of: "<key>\(old)</key>",
                with: "<key>\(new)</key>"
            ).utf8
        )
    }
}
