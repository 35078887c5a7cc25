/// One member of an archive, as its central directory (or its folder) describes it.
///
/// What listing and screening need; where its bytes are is read when the member is opened.
package struct ZipEntry: Sendable, Hashable {
    /// The member's index in the central directory (or the folder's listing).
    package let index: Int
    /// The member's name, decoded as UTF-8 (or as code page 437 for legacy names: ``ZipNameEncoding``).
    package let name: String
    /// Whether the stored name bytes were not valid UTF-8.
    package let nameWasNotUTF8: Bool
    /// Whether the member's flags said the name is UTF-8 although its bytes are not.
    package var nameMislabelledUTF8 = false
    /// Whether the member is a symbolic link (its Unix mode, in the external attributes, says `S_IFLNK`): its content
    /// is the link's target, as zip tools store links and as a folder's links are read.
    package var isSymbolicLink = false
    /// About the uncompressed size the archive declares.
    ///
    /// A folder's file's size, or for a zip's member an upper bound within a factor of two (its member table keeps
    /// the magnitude only; ``ZipArchive/declaredSize(at:)`` reads the exact value). Informative only, never used to
    /// allocate.
    package let sizeEstimate: UInt64
    /// The zip compression method number (0 stored, 8 deflate, …).
    package let compressionMethod: UInt16
    /// Whether the member is encrypted.
    package let isEncrypted: Bool
    /// Whether this member's method can be decompressed (stored and deflate, and what libzip was built with).
    package let isCompressionSupported: Bool

    /// Whether the name denotes a folder (ends with `/`).
    package var isDirectory: Bool { name.hasSuffix("/") }

    /// The compression method in words: its number and, for those APPNOTE 4.4.5 names, its name
    /// ("method 9 (Deflate64)").
    package var compressionMethodInWords: String {
        let names: [UInt16: String] = [
            0: "stored", 1: "Shrink", 6: "Implode", 8: "Deflate", 9: "Deflate64", 12: "bzip2", 14: "LZMA",
            93: "Zstandard", 95: "XZ", 98: "PPMd", 99: "AE-x encryption",
        ]
        return names[compressionMethod].map { "method \(compressionMethod) (\($0))" } ?? "method \(compressionMethod)"
    }
}
