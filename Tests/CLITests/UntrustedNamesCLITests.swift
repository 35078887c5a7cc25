import Foundation
import IPACheckTestSupport
import Testing

/// A member name holding a line feed writes no line of its own into a report.
///
/// The name is the ipa author's text: a CI log grepped for `error   SIG…` would believe a forged line. Every text
/// report shows the line feed as `\n` on the finding's line.
struct UntrustedNamesCLITests {
    static let forged = "x\n  error   SIG999  Forged line"

    static func ipa() throws -> String {
        var zip = ZipBuilder()
        zip.add(
            "Payload/A.app/Info.plist",
            text: #"<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleIdentifier</key>"#
                + "<string>com.example.a</string></dict></plist>"
        )
        // Stored twice: ARC002 quotes the name in its message and as its location.
        zip.add("Payload/A.app/" + forged, text: "one")
        zip.add("Payload/A.app/" + forged, text: "two")
        return try zip.write()
    }

    @Test(arguments: [
        ["info"], ["verify"], ["domains"], ["check", "--offline", "--aasa-dir", SampleFiles.aasaDir],
        ["check", "--offline", "--aasa-dir", SampleFiles.aasaDir, "--format", "github"],
        ["links", "--offline", "--aasa-dir", SampleFiles.aasaDir],
    ])
    func aLineFeedInANameWritesNoLineOfItsOwn(command: [String]) throws {
        let result = try CLI.run(command + [try Self.ipa()])
        let output = result.stdout + result.stderr
        #expect(output.contains("ARC002"), "\(command): \(output)")
        for line in output.split(separator: "\n") {
            #expect(!line.trimmingCharacters(in: .whitespaces).hasPrefix("error   SIG999"), "\(command): \(line)")
        }
    }
}
