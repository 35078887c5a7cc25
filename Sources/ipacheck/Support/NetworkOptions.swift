import ArgumentParser
import Foundation
import IPACheckFetching
import IPACheckHTTP

/// The network options every fetching subcommand shares (see the README's contract table).
struct NetworkOptions: ParsableArguments {
    @Option(help: "Seconds per request (default 10).")
    var timeout: Double = 10

    @Option(help: ArgumentHelp("Extra trust anchors (PEM), on top of the system's.", valueName: "pem"))
    var caFile: String?

    @Option(
        help: ArgumentHelp(
            "Connect to ADDRESS for HOST:PORT, keeping TLS name and Host header (repeatable, as curl).",
            valueName: "host:port:address"
        )
    )
    var resolve: [String] = []

    @Option(help: ArgumentHelp("Base URL of Apple's AASA CDN.", valueName: "url"))
    var cdnURL: String = "https://app-site-association.cdn-apple.com/a/v1/"

    @Flag(help: "Do not ask Apple's CDN.")
    var noCDN = false

    @Flag(help: "Touch no network: read DIR/HOST/apple-app-site-association (needs --aasa-dir).")
    var offline = false

    @Option(
        help: ArgumentHelp(
            "With --offline: the folder holding HOST/apple-app-site-association files.",
            valueName: "dir"
        )
    )
    var aasaDir: String?

    func validate() throws {
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be between 0 and 600 seconds") }
        if offline && aasaDir == nil { throw ValidationError("--offline needs --aasa-dir DIR") }
        if aasaDir != nil && !offline { throw ValidationError("--aasa-dir is read only with --offline") }
        if let caFile, !FileManager.default.fileExists(atPath: caFile) {
            throw ValidationError("--ca-file \(caFile): no such file")
        }
        if URL(string: cdnURL)?.scheme != "https" { throw ValidationError("--cdn-url must be an https URL") }
        _ = try overrides()
    }

    /// The library's options.
    func fetchOptions() throws -> FetchOptions {
        FetchOptions(
            timeout: .milliseconds(Int64(timeout * 1000)),
            extraCAFile: caFile.map { URL(fileURLWithPath: $0) },
            resolve: try overrides(),
            cdnBase: URL(string: cdnURL.hasSuffix("/") ? cdnURL : cdnURL + "/"),
            skipCDN: noCDN,
            offlineDirectory: offline ? aasaDir.map { URL(fileURLWithPath: $0, isDirectory: true) } : nil
        )
    }

    /// The `--resolve` values, parsed.
    private func overrides() throws -> [ResolveOverride] {
        var result: [ResolveOverride] = []
        for value in resolve {
            do {
                result.append(try ResolveOverride(parsing: value))
            } catch {
                throw ValidationError(error.description)
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
                throw ExitStatus.badInput
            }
        }
        if options.isOffline { return try await body(options, nil) }
        let fetcher: AsyncHTTPFetcher
        do {
            fetcher = try AsyncHTTPFetcher(options: options)
        } catch {
            Console.diagnose("ipacheck: error: \(error.description)")
            throw ExitStatus.badInput
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
