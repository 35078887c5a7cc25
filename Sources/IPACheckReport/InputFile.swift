import Foundation

/// Reads a local input (a profile, a config file, an AASA file, an entitlements file) whole, refusing one larger
/// than its limit before reading it: a huge file costs its first `limit + 1` bytes, never its size, so memory stays
/// bounded whatever the user passes.
package enum InputFile {
    /// The bytes of the file at `path`, at most `limit` of them.
    ///
    /// - Parameter what: What the file is, for the message (`a provisioning profile`).
    /// - Throws: ``InputError`` when the file does not exist, is a folder, cannot be read, or holds more than
    ///   `limit` bytes (code `too-large`, with the file's size).
    package static func read(_ path: String, limit: Int, what: String) throws(InputError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        // `&isDirectory` lends Foundation a pointer to a local for the call only.
        guard unsafe FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError.unreadableFile(path)
        }
        guard !isDirectory.boolValue else { throw InputError("unreadable", file: path, "is a folder, not \(what)") }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw InputError.unreadableFile(path)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw InputError("unreadable", file: path, "cannot be read: \(FileProblem.words(error))")
        }
        guard data.count <= limit else {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap { $0 }
            let shown = size.map { "\($0) bytes" } ?? "more than \(limit) bytes"
            throw InputError("too-large", file: path, "is \(shown), over the \(limit)-byte limit for \(what)")
        }
        return [UInt8](data)
    }
}
