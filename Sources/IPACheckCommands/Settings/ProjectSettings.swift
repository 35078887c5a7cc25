import Foundation
import IPACheckArchive
import IPACheckFetching
import IPACheckGate
import IPACheckReport
package import IPACheckSigning

/// What the project says about its build, shared by `check`, `explain` and `links` so that all judge the same
/// build the same way: the config file, what the build is for, and the App Flip config.
package struct ProjectSettings: Sendable {
    /// An App Flip config (JSON) to check the main app against.
    package var appflip: String?
    /// The config file (default: `.ipacheck.json` or `.ipacheck.yml` in the current folder).
    package var config: String?
    /// What the build is for, as release policy (default: the kind of its profile, never development).
    package var distribution: Distribution?
    /// Whether managed entries are judged as on a device whose MDM enables direct downloads.
    package var mdmDirectDownloads = false

    /// Settings with every default.
    package init() {}

    /// The configuration: `config`, else the default file of the current folder, with `appflip` applied.
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

    /// The gate's options for one run: what the project says, with the fetch options (and their judgement time)
    /// and fetcher, so that check, explain, links and match judge a build the same way.
    func gateOptions(
        fetch: FetchOptions,
        fetcher: (any HTTPFetching)?,
        configuration: GateConfiguration,
        archive: ArchiveLimits,
        appID: String?
    ) -> GateOptions {
        GateOptions(
            fetch: fetch,
            fetcher: fetcher,
            configuration: configuration,
            distribution: distribution,
            archiveLimits: archive,
            appID: appID,
            mdmDirectDownloads: mdmDirectDownloads
        )
    }
}
