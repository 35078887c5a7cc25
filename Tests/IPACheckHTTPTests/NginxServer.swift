import Foundation
import IPACheckTestSupport
import NIOCore
import NIOPosix

/// A real nginx started by the test on `127.0.0.1:<free port>` (`daemon off`, `master_process off`, every path
/// inside a temporary prefix), serving one site per server name with a certificate from the test CA.
struct NginxServer {
    /// One virtual host: its name, the files under its root, and extra directives for its `server` block.
    struct Site {
        var name: String
        var files: [String: [UInt8]]
        var directives: String
    }

    /// Where nginx is installed, if it is.
    static let executable: String? = [
        "/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx",
        "/usr/local/bin/nginx", "/opt/homebrew/bin/nginx",
    ]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether the tests run in CI, where a missing nginx is a failure, not a skip.
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    let port: Int
    let prefix: URL
    private let process: Process

    /// Writes the configuration and starts nginx; throws with nginx's error log when it does not start.
    static func start(
        executable: String,
        sites: [Site],
        identity: ServerIdentity,
        in prefix: URL
    ) async throws
        -> NginxServer
    {
        let files = FileManager.default
        for folder in ["logs", "tmp"] {
            try files.createDirectory(at: prefix.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let (certificate, key) = try identity.write(to: prefix, name: "server")
        let port = try await freePort()
        var servers = ""
        for site in sites {
            let root = prefix.appendingPathComponent("sites/\(site.name)")
            for (path, bytes) in site.files {
                let file = root.appendingPathComponent(path)
                try files.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: file)
            }
            try files.createDirectory(at: root, withIntermediateDirectories: true)
            servers += """
                    server {
                        listen 127.0.0.1:\(port) ssl;
                        server_name \(site.name);
                        root \(root.path);
                        \(site.directives)
                    }

                """
        }
        let p = prefix.path
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(p)/nginx.pid;
            error_log \(p)/logs/error.log warn;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(p)/tmp/body;
                proxy_temp_path \(p)/tmp/proxy;
                fastcgi_temp_path \(p)/tmp/fastcgi;
                uwsgi_temp_path \(p)/tmp/uwsgi;
                scgi_temp_path \(p)/tmp/scgi;
                types { application/json json; text/html html; }
                default_type application/octet-stream;
                ssl_certificate \(certificate.path);
                ssl_certificate_key \(key.path);
            \(servers)
            }
            """
        let configurationFile = prefix.appendingPathComponent("nginx.conf")
        try Data(configuration.utf8).write(to: configurationFile)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-c", configurationFile.path, "-p", p + "/"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = NginxServer(port: port, prefix: prefix, process: process)
        // Wait until it accepts connections (or died).
        for _ in 0..<100 {
            if !process.isRunning { break }
            if await canConnect(port: port) { return server }
            try await Task.sleep(for: .milliseconds(50))
        }
        server.stop()
        let log = (try? String(contentsOf: prefix.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? ""
        throw StartError(log: log)
    }

    /// Stops nginx and waits for it to exit.
    ///
    /// SIGKILL, not SIGTERM: a child spawned from the test runner may inherit a signal mask that blocks SIGTERM,
    /// and a nginx that never exits would block this thread forever.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    struct StartError: Error, CustomStringConvertible {
        var log: String
        var description: String { "nginx did not start: \(log)" }
    }

    private static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    private static func canConnect(port: Int) async -> Bool {
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port).get()
            try await channel.close()
            return true
        } catch {
            return false
        }
    }
}
