import Foundation
import IPACheckReport
import IPACheckTestSupport
import Testing

/// File errors in words: what Foundation throws for a missing or unreadable file, said as a person would say it.
struct FileProblemTests {
    static let dumps = ["Error Domain=", "errno", "Code=", "UserInfo", "NSCocoaErrorDomain", "POSIXError"]

    @Test func aMissingFileFromFoundationIsNoSuchFile() throws {
        let missing = Scratch.folder.appendingPathComponent("ipacheck-no-such-\(UUID())")
        do {
            _ = try FileHandle(forReadingFrom: missing)
            Issue.record("a missing file was opened")
        } catch {
            // The error that used to be printed as `Error Domain=NSCocoaErrorDomain Code=260 …`.
            let words = FileProblem.words(error)
            #expect(words == "no such file")
            for dump in Self.dumps { #expect(!words.contains(dump), "\(words)") }
        }
    }

    @Test(arguments: [
        (CocoaError.Code.fileReadNoSuchFile, "no such file"),
        (.fileReadNoPermission, "permission denied"),
        (.fileWriteOutOfSpace, "the disk is full"),
    ])
    func cocoaCodesAreWords(code: CocoaError.Code, words: String) {
        let error = NSError(domain: NSCocoaErrorDomain, code: code.rawValue)
        #expect(FileProblem.words(error).hasPrefix(words))
    }

    @Test func posixCodesAreWordsWithoutTheNumber() {
        #expect(FileProblem.words(POSIXError(.EISDIR)) == "it is a folder, not a file")
        #expect(FileProblem.words(POSIXError(.EIO)).contains("input/output error"))
        let other = FileProblem.words(POSIXError(.EBADF))
        #expect(!other.contains("9") && !other.contains("errno"), "\(other)")
    }

    @Test func otherErrorsAreNotDumped() {
        struct Opaque: Error { let secret = "/work/.build/checkouts/x.swift" }
        let words = FileProblem.words(Opaque())
        #expect(!words.contains("Opaque") && !words.contains(".build/"), "\(words)")
    }
}
