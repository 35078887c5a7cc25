import IPACheckArchive
import IPACheckBundle
import IPACheckFuzzSupport
import IPACheckSigning

/// Zip archives through libzip: listing, whole and streamed member reads under limits, then the same file as an
/// ipa (bundle discovery, Info.plist, the main executable) and the one-pass seal scan that `verify` runs.
///
/// libzip opens paths, so each input is written to a scratch file first.
enum ZipHarness {
    /// Limits small enough that a zip bomb costs milliseconds, large enough for the seeds' members.
    static let limits = ArchiveLimits(maximumEntries: 512, maximumMemberBytes: 1 << 20, maximumStreamedBytes: 4 << 20)
    /// The most members read per input; the rest only add time.
    static let maximumMembersRead = 32

    static let scratch = ScratchFile(name: "input.ipa")

    static func run(_ bytes: [UInt8]) {
        guard scratch.write(bytes) else { return }
        if let archive = try? ZipArchive(path: scratch.path, limits: limits) {
            for entry in archive.entries.prefix(maximumMembersRead) {
                _ = try? archive.read(entry, limit: 64 * 1024)
                readStreamed(entry, of: archive)
            }
            _ = archive.entries.first.flatMap { archive.entry(named: $0.name) }
        }
        guard let ipa = try? IPAFile(path: scratch.path) else { return }
        _ = try? ipa.machO(of: ipa.mainApp)
        _ = try? SealScan.scan(ipa, depth: .everything, threads: 1)
    }

    /// Streams `entry` in 4 KiB reads after skipping its first 100 bytes, as the executable scanner does.
    private static func readStreamed(_ entry: ZipEntry, of archive: ZipArchive) {
        guard let stream = try? archive.stream(entry) else { return }
        guard (try? stream.skip(to: 100)) != nil else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while let count = try? stream.read(into: &buffer), count > 0 {}
    }
}

/// Fuzzes with libFuzzer in a fuzz build, replays the files named on the command line otherwise.
@main
enum Main {
    static func main() { FuzzMain.run(ZipHarness.run) }
}
