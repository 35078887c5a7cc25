import Foundation
import IPACheckTestSupport
import Testing

/// Runs the built `ipacheck` binary and captures what a user would see.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

enum CLI {
    /// The built binary: `$IPACHECK_BINARY`, else beside the test bundle in the build folder.
    static var binary: URL {
        if let override = ProcessInfo.processInfo.environment["IPACHECK_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On macOS the runner is inside Xcode; the test bundle's folder is then the products folder.
        if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("ipacheck").path) {
            folder =
                Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
                .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("ipacheck").path) }
                ?? folder
        }
        return folder.appendingPathComponent("ipacheck")
    }

    /// Runs `ipacheck arguments…` with colour off, optionally in `directory` (default: the test's own), or another
    /// `executable` that runs the binary itself (setpriv, to run it as another user).
    static func run(
        _ arguments: [String],
        environment extra: [String: String] = [:],
        directory: URL? = nil,
        executable: URL? = nil
    ) throws -> CLIResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        for (key, value) in extra { environment[key] = value }
        let result = try ProcessRunner.run(
            executable ?? binary,
            arguments,
            environment: environment,
            directory: directory
        )
        return CLIResult(status: result.status, stdout: result.output, stderr: result.errors)
    }
}
