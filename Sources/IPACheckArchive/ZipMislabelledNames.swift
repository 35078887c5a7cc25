import Foundation
import IPACheckBinary

/// Members whose general-purpose bit 11 says "this name is UTF-8" over name bytes that are not UTF-8.
///
/// libzip refuses the whole archive then ("Zip archive inconsistent"), while Info-ZIP's `unzip -t` and Python's
/// zipfile read the name's bytes as they are. What iOS's installer does with such a name no Apple document says;
/// ipacheck reads the archive through a view of the file with that bit cleared for exactly those members (in the
/// central directory and in their local headers), so libzip takes the bytes as a legacy name, as for any other
/// member without the bit, and each such member is reported (ARC006), never the archive as damaged.
///
/// ```
/// central directory header (46 bytes + name + extra + comment), little-endian:
///   "PK\1\2", versions (2 + 2), flags (2, at 8), method (2), time (2), date (2), CRC (4), sizes (4 + 4),
///   name length (2, at 28), extra length (2, at 30), comment length (2, at 32), disk (2), attributes (2 + 4),
///   local header offset (4, at 42; 0xFFFFFFFF: in the zip64 extra field, id 1)
/// local file header: "PK\3\4", version (2), flags (2, at 6), …
/// ```
enum ZipMislabelledNames {
    /// One member to read as a legacy name: its index in the central directory, and the file offsets of the byte
    /// holding bit 11 (the high byte of each flags field) in its central and local headers.
    struct Member: Equatable {
        let index: Int
        let flagBytes: [UInt64]
    }

    /// The members of the zip at `path` whose names carry bit 11 over bytes that are not UTF-8; empty when there are
    /// none, or when the central directory cannot be found or walked (libzip's own error stands then).
    static func scan(path: String) -> [Member] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard let directory = ZipCentralDirectory(handle: handle) else { return [] }
        return directory.headers.enumerated().compactMap { index, header in
            guard header.flags & 0x0800 != 0, String(validating: header.name, as: UTF8.self) == nil else {
                return nil
            }
            // The flags are at 8 in a central header and 6 in a local one; bit 11 is in their high byte.
            let local = header.localOffset.flatMap { $0.addingReportingOverflow(7).overflow ? nil : $0 + 7 }
            return Member(index: index, flagBytes: [header.fileOffset + 9] + (local.map { [$0] } ?? []))
        }
    }
}
