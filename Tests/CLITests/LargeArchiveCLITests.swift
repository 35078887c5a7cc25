import Foundation
import IPACheckTestSupport
import Testing

/// A large app is read without asking: more members than the cap that used to refuse it (20,000), and the words
/// `--max-members` is refused and accepted with when a run asks for a lower cap.
struct LargeArchiveCLITests {
    @Test func anAppOfMoreThanTwentyThousandMembersIsReadByDefault() throws {
        var zip = ZipBuilder()
        zip.add("Payload/Big.app/Info.plist", PlistFixture.info(["CFBundleIdentifier": "com.example.big"]))
        for index in 0..<20_500 {
            zip.add("Payload/Big.app/Assets/\(index / 1000)/item-\(index).txt", [UInt8(index & 0xFF)])
        }
        let path = try zip.write()
        defer { try? FileManager.default.removeItem(atPath: path) }

        let info = try CLI.run(["info", path])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("Payload/Big.app"))

        let capped = try CLI.run(["info", path, "--max-members", "20000"])
        #expect(capped.status == 2)
        #expect(
            capped.stderr.contains("archive lists 20501 members, more than the 20000 accepted (--max-members raises")
        )
        #expect(capped.stderr.split(separator: "\n").count == 1)
    }
}
