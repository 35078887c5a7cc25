import Foundation

/// Runs a harness outside libFuzzer: on every file named on the command line (folders are walked), once each.
///
/// Without `-sanitize=fuzzer` a harness has no libFuzzer `main`, so this is its `main`: it keeps the harnesses
/// compiling in every ordinary build, and replays a saved crash input under a debugger or on macOS.
public enum FuzzReplay {
    /// Feeds each named file (or every file under a named folder) to `harness`; exits 2 on a missing path.
    public static func run(_ harness: ([UInt8]) -> Void) {
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            print("usage: \(CommandLine.arguments.first ?? "harness") FILE_OR_FOLDER...")
            print("Runs the fuzz harness once on each file; build with scripts/fuzz to fuzz.")
            exit(2)
        }
        var count = 0
        for path in paths {
            guard let files = inputFiles(at: path) else {
                print("no such file or folder: \(path)")
                exit(2)
            }
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                harness(Array(data))
                count += 1
            }
        }
        print("ran \(count) input\(count == 1 ? "" : "s")")
    }

    /// The file at `path`, or the regular files under it when it is a folder, sorted; nil when absent.
    private static func inputFiles(at path: String) -> [String]? {
        var isDirectory: ObjCBool = false
        // `&isDirectory` lends Foundation a pointer to a local for the call only.
        guard unsafe FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return [path] }
        let folder = URL(fileURLWithPath: path)
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        var files: [String] = []
        while let url = walker?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(url.path)
            }
        }
        return files.sorted()
    }
}

/// Copies libFuzzer's input (pointer and length; the pointer may be null when the length is 0) into an array.
func fuzzInputBytes(_ start: UnsafeRawPointer?, _ count: Int) -> [UInt8] {
    // libFuzzer promises `count` readable bytes at `start` for the duration of the call; they are copied at once.
    guard let start = unsafe start, count > 0 else { return [] }
    return unsafe Array(UnsafeRawBufferPointer(start: start, count: count))
}
