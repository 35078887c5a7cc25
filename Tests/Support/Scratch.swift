package import Foundation

/// The folder every test of this process writes its files in, removed when the process exits.
///
/// It lies inside the system's temporary folder; a test that forgets to clean up (or fails before it can) leaves
/// nothing behind. Each run of the suite used to leave thousands of files and folders in /tmp.
package enum Scratch {
    /// Created on first use; removed at exit.
    package static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ipacheck-test-run-\(getpid())-\(UUID().uuidString)"
        )
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.folder) }
        return folder
    }()
}
