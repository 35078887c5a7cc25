package import Foundation
import IPACheckFetching
import IPACheckHTTP

/// How the commands that fetch reach the network: the values of the shared network options, checked once, and the
/// one place that makes (and shuts down) the HTTP client.
package struct NetworkSettings: Sendable {
    /// Seconds per request.
    package var timeout = Double(FetchOptions.defaultTimeoutSeconds)
    /// Extra trust anchors (PEM), on top of the system's.
    package var caFile: String?
    /// `HOST:PORT:ADDRESS` overrides, as curl's `--resolve`.
    package var resolve: [String] = []
    /// The base URL of Apple's AASA CDN.
    package var cdnURL = FetchOptions.appleCDN
    /// Do not ask Apple's CDN.
    package var noCDN = false
    /// Touch no network: read `aasaDir/HOST/apple-app-site-association`.
    package var offline = false
    /// With `offline`: the folder holding the hosts' files.
    package var aasaDir: String?
    /// When expiries, signers and dated requirements are judged (``JudgementTime``): every command that fetches
    /// also judges a build or a file at this time.
    package var now = Date()

    /// Settings with every default.
    package init() {}

    /// Whether the run asks Apple's CDN (for the progress line).
    package var asksCDN: Bool { !noCDN && !offline }

    /// Refuses settings that cannot be run, saying which option to change.
    package func validate() throws(UsageError) {
        guard timeout > 0, timeout <= 600 else {
            throw UsageError("--timeout must be more than 0 and at most 600 seconds")
        }
        if offline && aasaDir == nil { throw UsageError("--offline needs --aasa-dir DIR") }
        if aasaDir != nil && !offline { throw UsageError("--aasa-dir is read only with --offline") }
        if let caFile, !FileManager.default.fileExists(atPath: caFile) {
            throw UsageError("--ca-file \(caFile): no such file")
        }
        if URL(string: cdnURL)?.scheme != "https" { throw UsageError("--cdn-url must be an https URL") }
        _ = try overrides()
    }

    /// The library's options.
    func fetchOptions() throws(UsageError) -> FetchOptions {
        FetchOptions(
            timeout: .milliseconds(Int64(timeout * 1000)),
            extraCAFile: caFile.map { URL(fileURLWithPath: $0) },
            resolve: try overrides(),
            cdnBase: URL(string: cdnURL.hasSuffix("/") ? cdnURL : cdnURL + "/"),
            skipCDN: noCDN,
            offlineDirectory: offline ? aasaDir.map { URL(fileURLWithPath: $0, isDirectory: true) } : nil,
            now: now
        )
    }

    /// The `--resolve` values, parsed.
    private func overrides() throws(UsageError) -> [ResolveOverride] {
        var result: [ResolveOverride] = []
        for value in resolve {
            do {
                result.append(try ResolveOverride(parsing: value))
            } catch {
                throw UsageError(error.description)
            }
        }
        return result
    }

    /// Runs `body` with a fetcher (nil when offline), shutting the HTTP client down afterwards.
    func withFetcher<T: Sendable>(_ body: (FetchOptions, (any HTTPFetching)?) async throws -> T) async throws -> T {
        let options = try fetchOptions()
        if let aasaDir, offline {
            var isFolder: ObjCBool = false
            // `&isFolder` lends Foundation a pointer to a local for the call only.
            guard unsafe FileManager.default.fileExists(atPath: aasaDir, isDirectory: &isFolder), isFolder.boolValue
            else {
                let what = FileManager.default.fileExists(atPath: aasaDir) ? "is not a folder" : "does not exist"
                Console.diagnose(
                    "ipacheck: error: --aasa-dir \(aasaDir) \(what): give the folder that holds "
                        + "HOST/apple-app-site-association files"
                )
                throw CommandExit.badInput
            }
        }
        if options.isOffline { return try await body(options, nil) }
        let fetcher: AsyncHTTPFetcher
        do {
            fetcher = try AsyncHTTPFetcher(options: options)
        } catch {
            Console.diagnose("ipacheck: error: \(error.description)")
            throw CommandExit.badInput
        }
        do {
            let result = try await body(options, fetcher)
            await fetcher.shutdown()
            return result
        } catch {
            await fetcher.shutdown()
            throw error
        }
    }
}
