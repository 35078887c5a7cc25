import Foundation
import IPACheckBinary

/// What kind of file the user pointed a command at, judged by its first bytes rather than its name.
public enum TargetKind: Sendable, Hashable {
    /// A zip archive (an ipa, or something that claims to be one).
    case archive
    /// A bare Mach-O, thin or fat.
    case machO

    /// Sniffs the file at `path`.
    ///
    /// - Throws: ``InputError`` when the file cannot be read or is neither a zip nor a Mach-O.
    public static func of(path: String) throws(InputError) -> TargetKind {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw InputError("unreadable", file: path, exists ? "cannot be read" : "no such file")
        }
        defer { try? handle.close() }
        let head = Array((try? handle.read(upToCount: 4)) ?? Data())
        guard head.count == 4 else {
            throw InputError("too-short", file: path, "is too short to be an ipa or a Mach-O")
        }
        if head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06] { return .archive }
        let magic = head.reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
        let machOMagics: Set<UInt32> = [
            0xcafe_babe, 0xcafe_babf, 0xfeed_face, 0xfeed_facf, 0xcefa_edfe, 0xcffa_edfe,
        ]
        if machOMagics.contains(magic) { return .machO }
        throw InputError("unknown-format", file: path, "is neither an ipa (zip) nor a Mach-O")
    }
}

/// Reads a bare Mach-O from disk, in chunks: headers and signatures are kept, code pages only hashed.
enum MachOFile {
    /// Parses headers and signatures only, reading the file in chunks and keeping what the scanner needs.
    static func scan(path: String) throws(InputError) -> MachOContainer {
        try read(path: path).container
    }

    /// Reads the headers, signatures and code-page digests in one pass (for verification).
    static func read(path: String) throws(InputError) -> SealScan.Executable {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError("unreadable", file: path, "cannot be read")
        }
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

extension IPAFile {
    /// Finds a bundle by its folder path, folder name (`Share.appex`) or bundle ID; nil selects the main app.
    ///
    /// - Throws: ``InputError`` naming the bundles there are when nothing matches.
    public func bundle(matching selector: String?) throws(InputError) -> AppBundle {
        guard let selector, !selector.isEmpty else { return mainApp }
        let trimmed = selector.hasSuffix("/") ? String(selector.dropLast()) : selector
        let match =
            bundles.first { $0.path == trimmed } ?? bundles.first { $0.bundleID == trimmed }
            ?? bundles.first { $0.path.hasSuffix("/" + trimmed) }
        guard let match else {
            let known = bundles.map { "\($0.path) (\($0.bundleID ?? "no ID"))" }.joined(separator: ", ")
            throw InputError("no-such-bundle", file: path, "no bundle matches \(selector); bundles: \(known)")
        }
        return match
    }
}
