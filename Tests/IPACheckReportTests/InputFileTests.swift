import Foundation
import IPACheckReport
import IPACheckTestSupport
import Testing

/// Local inputs are read up to their limit and no further.
struct InputFileTests {
    static func file(bytes: Int) throws -> String {
        let url = Scratch.folder.appendingPathComponent("ipacheck-input-\(UUID())")
        try Data(repeating: 0x20, count: bytes).write(to: url)
        return url.path
    }

    @Test func readsAFileUpToItsLimit() throws {
        let path = try Self.file(bytes: 100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try InputFile.read(path, limit: 100, what: "a test file").count == 100)
    }

    @Test func refusesAFileOverItsLimitNamingItsSize() throws {
        let path = try Self.file(bytes: 101)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: InputError.self) { try InputFile.read(path, limit: 100, what: "a test file") }
        #expect(error?.code == "too-large")
        #expect(error?.message == "is 101 bytes, over the 100-byte limit for a test file")
    }

    @Test func refusesAFolderAndAMissingFile() throws {
        let folder = Scratch.folder.path
        let notAFile = #expect(throws: InputError.self) { try InputFile.read(folder, limit: 10, what: "a test file") }
        #expect(notAFile?.message == "is a folder, not a test file")
        let missing = #expect(throws: InputError.self) {
            try InputFile.read(folder + "/ipacheck-no-such-\(UUID())", limit: 10, what: "a test file")
        }
        #expect(missing?.message == "no such file")
    }
}
