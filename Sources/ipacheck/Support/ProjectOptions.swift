import ArgumentParser
import Foundation
import IPACheckGate
import IPACheckReport
import IPACheckSigning

/// What the project says about its build, shared by `check` and `explain` so that both judge the same build the
/// same way: the config file, what the build is for, and the App Flip config.
struct ProjectOptions: ParsableArguments {
    @Option(help: "App Flip config (JSON) to check the main app against.")
    var appflip: String?

    @Option(help: "Config file, JSON or YAML (default: .ipacheck.json or .ipacheck.yml in the current folder).")
    var config: String?

    @Option(help: "What the build is for: app-store, ad-hoc, enterprise or development (default: its profile's kind).")
    var distribution: Distribution?

    /// The configuration: `--config`, else the default file of the current folder, with `--appflip` applied.
    func loadConfiguration() throws(InputError) -> GateConfiguration {
        var configuration = GateConfiguration()
        if let config {
            configuration = try GateConfiguration.load(path: config)
        } else if let found = GateConfiguration.defaultFileNames.first(where: FileManager.default.fileExists) {
            configuration = try GateConfiguration.load(path: found)
            Console.diagnose("ipacheck: using ./\(found)")
        }
        if let appflip {
            let bytes = try InputFile.read(appflip, limit: AppFlipConfig.maximumSize, what: "an App Flip config")
            do {
                configuration.appFlip = try AppFlipConfig.parse(bytes, file: appflip)
            } catch {
                throw InputError("bad-appflip", file: appflip, error.detail)
            }
        }
        return configuration
    }
}
