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

/// Reads a bare Mach-O from disk.
enum MachOFile {
    /// The largest bare Mach-O read whole.
    static let maximumBytes = 2 * 1024 * 1024 * 1024

    /// Parses headers and signatures only, reading the file in chunks and keeping what the scanner needs.
    static func scan(path: String) throws(InputError) -> MachOContainer {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError("unreadable", file: path, "cannot be read")
        }
        defer { try? handle.close() }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        var scanner = MachOStreamScanner(fileSize: size)
        do {
            while !scanner.isComplete {
                guard let chunk = try handle.read(upToCount: 256 * 1024), !chunk.isEmpty else { break }
                try scanner.consume(Array(chunk)[...])
            }
            return try scanner.finish()
        } catch let error as ParseError {
            throw InputError("bad-macho", file: path, error.description)
        } catch {
            throw InputError("unreadable", file: path, "\(error)")
        }
    }

    /// Reads the whole file (for verification, which hashes every page).
    static func read(path: String) throws(InputError) -> [UInt8] {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        guard size <= maximumBytes else {
            throw InputError("too-large", file: path, "is larger than \(maximumBytes) bytes")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError("unreadable", file: path, "cannot be read")
        }
        return Array(data)
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
