import Foundation
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
    ///
    /// stderr is drained on another thread while stdout is read, so neither pipe can fill up and stall the child.
    static func run(
        _ arguments: [String],
        environment extra: [String: String] = [:],
        directory: URL? = nil,
        executable: URL? = nil
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errorReader = PipeReader(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = errorReader.wait()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }
}

/// Reads a pipe to its end on a background thread.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }

    /// Everything the pipe delivered, once the writer closed it.
    func wait() -> Data {
        done.wait()
        return data
    }
}
