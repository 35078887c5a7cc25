import Foundation
package import IPACheckBinary
package import IPACheckReport
import IPACheckSigning

/// Reads a bare Mach-O from disk, in chunks: headers and signatures are kept, code pages only hashed.
package enum MachOFile {
    /// Parses headers and signatures only, reading the file in chunks and keeping what the scanner needs.
    package static func scan(path: String) throws(InputError) -> MachOContainer {
        try read(path: path).container
    }

    /// Reads the headers, signatures and code-page digests in one pass (for verification).
    package static func read(path: String) throws(InputError) -> SealScan.Executable {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw InputError.unreadableFile(path) }
        defer { try? handle.close() }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        var reader = ExecutableReader(fileSize: size)
        var buffer = [UInt8](repeating: 0, count: SealScan.chunkSize)
        while true {
            let chunk: Data
            do {
                guard let read = try handle.read(upToCount: SealScan.chunkSize), !read.isEmpty else { break }
                chunk = read
            } catch {
                throw InputError("unreadable", file: path, "\(error.localizedDescription)")
            }
            buffer.replaceSubrange(0..<chunk.count, with: chunk)
            reader.consume(buffer, count: chunk.count)
        }
        switch reader.finish() {
        case .success(let result):
            return SealScan.Executable(member: path, container: result.container, pages: result.pages)
        case .failure(let error):
            throw InputError("bad-macho", file: path, error.description)
        }
    }
}
