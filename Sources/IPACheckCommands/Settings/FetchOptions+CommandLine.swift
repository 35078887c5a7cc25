package import Foundation
package import IPACheckFetching
import IPACheckHTTP

extension FetchOptions {
    /// The options the shared network flags give, checked once: each value that cannot be run is refused with the
    /// flag to change.
    ///
    /// - Parameters:
    ///   - timeoutSeconds: `--timeout`: seconds per request, more than 0 and at most 600.
    ///   - caFile: `--ca-file`: extra trust anchors (PEM), on top of the system's.
    ///   - resolve: `--resolve`: `HOST:PORT:ADDRESS` overrides, as curl's.
    ///   - cdnURL: `--cdn-url`: the base URL of Apple's AASA CDN (https).
    ///   - noCDN: `--no-cdn`: do not ask Apple's CDN.
    ///   - offline: `--offline`: touch no network; needs `aasaDir`, which is read only with it.
    ///   - aasaDir: `--aasa-dir`: the folder holding `HOST/apple-app-site-association` files.
    ///   - now: `--now`: when expiries, signers and dated requirements are judged (``JudgementTime``).
    package init(
        timeoutSeconds: Double,
        caFile: String?,
        resolve: [String],
        cdnURL: String,
        noCDN: Bool,
        offline: Bool,
        aasaDir: String?,
        now: Date
    ) throws(UsageError) {
        guard timeoutSeconds > 0, timeoutSeconds <= 600 else {
            throw UsageError("--timeout must be more than 0 and at most 600 seconds")
        }
        if offline && aasaDir == nil { throw UsageError("--offline needs --aasa-dir DIR") }
        if aasaDir != nil && !offline { throw UsageError("--aasa-dir is read only with --offline") }
        if let caFile, !FileManager.default.fileExists(atPath: caFile) {
            throw UsageError("--ca-file \(caFile): no such file")
        }
        if URL(string: cdnURL)?.scheme != "https" { throw UsageError("--cdn-url must be an https URL") }
        var overrides: [ResolveOverride] = []
        for value in resolve {
            do {
                overrides.append(try ResolveOverride(parsing: value))
            } catch {
                throw UsageError(error.description)
            }
        }
        self.init(
            timeout: .milliseconds(Int64(timeoutSeconds * 1000)),
            extraCAFile: caFile.map { URL(fileURLWithPath: $0) },
            resolve: overrides,
            cdnBase: URL(string: cdnURL.hasSuffix("/") ? cdnURL : cdnURL + "/"),
            skipCDN: noCDN,
            offlineDirectory: offline ? aasaDir.map { URL(fileURLWithPath: $0, isDirectory: true) } : nil,
            now: now
        )
    }

    /// Whether the run asks Apple's CDN (for the progress line).
    var asksCDN: Bool { !skipCDN && !isOffline }

    /// Runs `body` with these options and a fetcher (nil when offline), shutting the HTTP client down afterwards:
    /// the one place that makes one.
    func withFetcher<T: Sendable>(_ body: (FetchOptions, (any HTTPFetching)?) async throws -> T) async throws -> T {
        if let folder = offlineDirectory {
            var isFolder: ObjCBool = false
            // `&isFolder` lends Foundation a pointer to a local for the call only.
            guard unsafe FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder),
                isFolder.boolValue
            else {
                let what = FileManager.default.fileExists(atPath: folder.path) ? "is not a folder" : "does not exist"
                Console.diagnose(
                    "ipacheck: error: --aasa-dir \(folder.relativePath) \(what): give the folder that holds "
                        + "HOST/apple-app-site-association files"
                )
                throw CommandExit.badInput
            }
            return try await body(self, nil)
        }
        let fetcher: AsyncHTTPFetcher
        do {
            fetcher = try AsyncHTTPFetcher(options: self)
        } catch {
            Console.diagnose("ipacheck: error: \(error.description)")
            throw CommandExit.badInput
        }
        do {
            let result = try await body(self, fetcher)
            await fetcher.shutdown()
            return result
        } catch {
            await fetcher.shutdown()
            throw error
        }
    }
}
