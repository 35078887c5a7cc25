import IPACheckArchive
package import IPACheckBinary
package import IPACheckReport

extension IPAFile {
    /// The largest executable read whole (for `verify`, which must hash every code page).
    package static let maximumExecutableBytes = 2 * 1024 * 1024 * 1024

    /// Parses a bundle executable's Mach-O headers and code signatures, streaming it from the archive.
    ///
    /// Only the fat header, each slice's load commands and each signature are kept in memory; the code in
    /// between is decompressed and dropped.
    package func machO(of bundle: AppBundle) throws(InputError) -> MachOContainer {
        guard let member = bundle.executable else {
            throw InputError("no-executable", file: path, "\(bundle.path) has no executable")
        }
        let declared = declaredSize(of: member).flatMap { Int(exactly: $0) } ?? 0
        let stream = try stream(member)
        var scanner = MachOStreamScanner(fileSize: declared)
        do {
            while !scanner.isComplete {
                let chunk: [UInt8]
                do {
                    chunk = try stream.read(maximumCount: 256 * 1024)
                } catch {
                    throw InputError("unreadable-member", file: path, "\(member): \(error.reason)")
                }
                if chunk.isEmpty { break }
                try scanner.consume(chunk[...])
            }
            return try scanner.finish()
        } catch let error as ParseError {
            throw InputError("bad-macho", file: path, "\(member): \(error)")
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError("bad-macho", file: path, "\(member): \(error)")
        }
    }

    /// Reads a bundle's whole executable, for checks that hash every page.
    package func executableBytes(of bundle: AppBundle) throws(InputError) -> [UInt8] {
        guard let member = bundle.executable else {
            throw InputError("no-executable", file: path, "\(bundle.path) has no executable")
        }
        return try read(member, limit: Self.maximumExecutableBytes)
    }
}
