import Foundation
import IPACheckTestSupport
import Testing

/// No input, however malformed, may crash or trap the process (README, exit codes).
///
/// The sample app with one member damaged (bytes flipped or cut short, the zip itself intact) goes through every
/// command that reads it; each run must end with a documented exit code (0, 1 or 2), never a signal.
struct CorruptInputCLITests {
    /// The members whose parsers matter: the Mach-O, the profile, Info.plist and the resource seal.
    static let targets = [
        "Payload/Acme.app/Acme", "Payload/Acme.app/embedded.mobileprovision", "Payload/Acme.app/Info.plist",
        "Payload/Acme.app/_CodeSignature/CodeResources",
    ]

    static let commands: [[String]] = [
        ["info"], ["domains"], ["verify", "--resources"], ["entitlements", "--source", "der"],
        ["entitlements", "--source", "profile"],
        ["check", "--offline", "--aasa-dir", SampleFiles.aasaDir],
    ]

    @Test(
        .enabled(if: Python.isAvailable || Python.isCI, "needs python3 to unpack the sample"),
        arguments: 0..<8
    )
    func damagedMemberNeverCrashes(seed: Int) throws {
        let folder = try Python.unzip(SampleFiles.acme)
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix(seed: UInt64(seed))
        let target = Self.targets[seed % Self.targets.count]
        let path = try Rezip.write(folder) { name, bytes in
            guard name == target, !bytes.isEmpty else { return }
            if seed % 3 == 0 {
                bytes.removeLast(Int(random.next() % UInt64(bytes.count)))
            } else {
                for _ in 0..<(1 + random.next() % 24) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            }
        }
        for command in Self.commands {
            let result = try CLI.run(command + [path])
            #expect([0, 1, 2].contains(result.status), "\(command) on damaged \(target): exit \(result.status)")
            if result.status == 2 {
                #expect(result.stderrLines.count == 1, "\(command): \(result.stderr)")
            }
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failing seed reproduces.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
