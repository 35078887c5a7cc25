import Foundation
import IPACheckFetching
import IPACheckHTTP
import IPACheckTestSupport

/// A test CA, its PEM file in a temporary folder, and fetch options that trust it and send the given host names
/// to a server on 127.0.0.1, keeping the names for SNI and `Host` (curl's `--resolve` plus `--connect-to`).
struct LocalTLS {
    let ca: TestCA
    let directory: URL
    let caFile: URL

    init() throws {
        ca = try TestCA()
        directory = Scratch.folder
            .appendingPathComponent("ipacheck-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        caFile = try ca.writeCertificate(to: directory)
    }

    /// Options trusting the test CA, routing `hosts` (port 443) to `127.0.0.1:port`.
    func options(
        hosts: [String],
        port: Int,
        timeout: Duration = .seconds(5),
        bodyLimit: Int = FetchOptions.defaultBodyLimit,
        cdnHost: String? = "cdn.test"
    ) -> FetchOptions {
        let routed = hosts + (cdnHost.map { [$0] } ?? [])
        return FetchOptions(
            timeout: timeout,
            extraCAFile: caFile,
            resolve: routed.map { ResolveOverride(host: $0, port: 443, address: "127.0.0.1", connectPort: port) },
            cdnBase: cdnHost.flatMap { URL(string: "https://\($0)/a/v1/") },
            skipCDN: cdnHost == nil,
            bodyLimit: bodyLimit
        )
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a started server and fetcher, shutting both down afterwards.
func withServer<T: Sendable>(
    _ tls: LocalTLS,
    names: [String],
    respond: @escaping @Sendable (TestRequest) -> TestResponse,
    body: (TLSTestServer) async throws -> T
) async throws -> T {
    let identity = try tls.ca.issueServerCertificate(dnsNames: names)
    let server = try await TLSTestServer.start(identity: identity, respond: respond)
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// A request for `url` with an AASA-Bot user agent.
func request(_ url: String, timeout: Duration = .seconds(5), bodyLimit: Int = 1 << 20) throws -> FetchRequest {
    guard let parsed = URL(string: url) else { throw FixtureError.badURL(url) }
    return FetchRequest(
        url: parsed,
        headers: [HTTPHeaderField("User-Agent", "AASA-Bot/1.0.0")],
        timeout: timeout,
        bodyLimit: bodyLimit
    )
}

enum FixtureError: Error {
    case badURL(String)
    case python(String)
}

/// Gzip-compresses `data` with python3's zlib (an implementation independent of the one under test).
func gzip(_ data: [UInt8]) throws -> [UInt8] {
    let result = try ProcessRunner.run(
        program: "python3",
        ["-c", "import gzip,sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read()))"],
        input: Data(data)
    )
    guard result.status == 0 else { throw FixtureError.python("gzip failed") }
    return Array(result.standardOutput)
}

/// A small valid AASA file (Apple's documented modern format).
let goodAASA = """
    {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], \
    "components": [{"/": "/buy/*", "comment": "purchases"}]}]}, \
    "webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}
    """
