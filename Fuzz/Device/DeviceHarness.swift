import IPACheckArchive
import IPACheckDevice
import IPACheckFuzzSupport

/// Device evidence: `swcutil show` text through `SwcutilParser` (every field, date and error read), and the same
/// bytes as a file through `DeviceEvidenceFile`, which reads a gzip or tar stream to its `swcutil_show.txt`
/// (ISA-L's gzip, ipacheck's tar reader) or the text itself.
enum DeviceHarness {
    static let scratch = ScratchFile(name: "evidence")

    static func run(_ bytes: [UInt8]) {
        parse(String(decoding: bytes, as: UTF8.self))
        guard scratch.write(bytes), let evidence = try? DeviceEvidenceFile(path: scratch.path) else { return }
        _ = evidence.capturedAt
        parse(evidence.text)
    }

    private static func parse(_ text: String) {
        let record = SwcutilParser.parse(text)
        for entry in record.entries {
            _ = entry.error.map { SwcutilErrorMeaning($0, host: entry.domain.host) }
            _ = entry.lastChecked?.date
        }
        _ = record.settings.map(\.linksEnabled)
        _ = (record.developerMode, record.isVerbose)
    }
}

/// Fuzzes with libFuzzer in a fuzz build, replays the files named on the command line otherwise.
@main
enum Main {
    static func main() { FuzzMain.run(DeviceHarness.run) }
}
