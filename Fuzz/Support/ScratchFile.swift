import Foundation

/// A file in the temporary folder that a harness rewrites for every input, for APIs that only open paths
/// (libzip, the configuration loader).
///
/// The name carries the process ID, so parallel fuzzers never share one; the file is overwritten, never
/// accumulated, and removed when the value is released.
public final class ScratchFile: Sendable {
    /// The file's path.
    public let path: String

    /// Reserves `ipacheck-fuzz-<pid>-<name>` in the temporary folder (`name` may end in the extension the API
    /// looks at, such as `config.yml`).
    public init(name: String) {
        path = NSTemporaryDirectory() + "/ipacheck-fuzz-\(getpid())-\(name)"
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Replaces the file's contents with `bytes`; false when the file cannot be written (the input is skipped).
    public func write(_ bytes: [UInt8]) -> Bool {
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }
}
