import IPACheckFuzzSupport
import IPACheckGate

/// The configuration file, `.ipacheck.json` and `.ipacheck.yml`.
///
/// Each input is loaded both ways, as strict JSON and through Yams, with the schema check, rule-ID and suppression
/// validation, and the App Flip and Firebase sections. A YAML parser reads JSON too, so JSON seeds reach both.
///
/// The loader opens paths, so each input is written to two scratch files first.
enum ConfigHarness {
    static let jsonFile = ScratchFile(name: "config.json")
    static let yamlFile = ScratchFile(name: "config.yml")

    static func run(_ bytes: [UInt8]) {
        for file in [jsonFile, yamlFile] where file.write(bytes) {
            _ = try? GateConfiguration.load(path: file.path)
        }
    }
}

/// Fuzzes with libFuzzer in a fuzz build, replays the files named on the command line otherwise.
@main
enum Main {
    static func main() { FuzzMain.run(ConfigHarness.run) }
}
