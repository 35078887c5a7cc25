import Foundation
package import IPACheckReport

/// A file of URLs, one a line, read in fixed-size chunks so that a sitemap of any length takes the same memory.
///
/// Blank lines and lines starting with `#` are skipped; spaces, tabs and a carriage return around a URL are
/// trimmed. A pipe or other stream (`--urls -`, `<(…)`) is copied to a temporary file first, so that it can be read
/// twice like a regular file: once to check every URL before anything is printed, once to match.
package final class URLListFile {
    /// The longest line accepted: far beyond any real URL, and what bounds a line's buffer.
    package static let maximumLineBytes = 64 * 1024
    /// The bytes read from the file at a time.
    static let chunkBytes = 1 << 20

    /// The path as given, for messages.
    package let path: String
    private let readablePath: String
    private let spooled: URL?

    /// Opens `path` (`-` is standard input).
    ///
    /// - Throws: ``InputError`` when the file cannot be opened, or a stream cannot be copied.
    package init(path: String) throws(InputError) {
        self.path = path
        let source = path == "-" ? "/dev/stdin" : path
        let resolved = URL(fileURLWithPath: source).resolvingSymlinksInPath().path
        let type: FileAttributeType?
        do {
            type = try FileManager.default.attributesOfItem(atPath: resolved)[.type] as? FileAttributeType
        } catch {
            throw InputError("unreadable", file: path, "cannot be read (\(error.localizedDescription))")
        }
        if type == .typeRegular {
            readablePath = resolved
            spooled = nil
        } else {
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
                "ipacheck-urls-\(UUID().uuidString)"
            )
            try Self.copy(source, to: copy, reportingAs: path)
            readablePath = copy.path
            spooled = copy
        }
    }

    deinit {
        if let spooled { try? FileManager.default.removeItem(at: spooled) }
    }

    /// Calls `body` with the bytes of each URL (trimmed, not decoded) and its line number, in order: the reading
    /// thread makes no string, the threads the URLs are handed to make their own.
    ///
    /// - Throws: ``InputError`` when the file cannot be read or a line is longer than ``maximumLineBytes``; any
    ///   error `body` throws.
    package func forEachURLBytes(_ body: (_ url: ArraySlice<UInt8>, _ line: Int) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: readablePath) else {
            let problem = InputError.unreadableFile(readablePath)
            throw InputError(problem.code, file: path, problem.message)
        }
        defer { try? handle.close() }
        func tooLong(_ line: Int) -> InputError {
            InputError("line-too-long", file: path, "line \(line) is longer than \(Self.maximumLineBytes) bytes")
        }
        var pending: [UInt8] = []
        var lineNumber = 0
        func emit(_ bytes: ArraySlice<UInt8>) throws {
            lineNumber += 1
            guard bytes.count <= Self.maximumLineBytes else { throw tooLong(lineNumber) }
            guard let url = Self.url(in: bytes) else { return }
            try body(url, lineNumber)
        }
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: Self.chunkBytes) ?? Data()
            } catch {
                throw InputError("unreadable", file: path, "cannot be read (\(error.localizedDescription))")
            }
            if chunk.isEmpty { break }
            pending.append(contentsOf: chunk)
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                try emit(pending[start..<newline])
                start = newline + 1
            }
            pending.removeSubrange(..<start)
            guard pending.count <= Self.maximumLineBytes else { throw tooLong(lineNumber + 1) }
        }
        if !pending.isEmpty { try emit(pending[...]) }
    }

    /// The URL on a line, or nil for a blank or comment line.
    private static func url(in line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        guard let first = line.firstIndex(where: { !isSpace($0) }), let last = line.lastIndex(where: { !isSpace($0) })
        else { return nil }
        guard line[first] != UInt8(ascii: "#") else { return nil }
        return line[first...last]
    }

    private static func copy(_ source: String, to destination: URL, reportingAs path: String) throws(InputError) {
        guard let input = FileHandle(forReadingAtPath: source) else {
            let problem = InputError.unreadableFile(source)
            throw InputError(problem.code, file: path, problem.message)
        }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
            let output = FileHandle(forWritingAtPath: destination.path)
        else {
            throw InputError("unwritable", file: destination.path, "a temporary copy cannot be written")
        }
        defer {
            try? input.close()
            try? output.close()
        }
        do {
            while let chunk = try input.read(upToCount: chunkBytes), !chunk.isEmpty {
                try output.write(contentsOf: chunk)
            }
        } catch {
            throw InputError("unreadable", file: path, "cannot be copied (\(error.localizedDescription))")
        }
    }
}
