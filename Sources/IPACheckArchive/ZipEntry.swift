/// One member of a zip archive, as its central directory describes it.
package struct ZipEntry: Sendable, Hashable {
    /// The member's index in the central directory.
    package let index: Int
    /// The member's name, decoded as UTF-8 (or libzip's guess for legacy encodings).
    package let name: String
    /// Whether the stored name bytes were not valid UTF-8.
    package let nameWasNotUTF8: Bool
    /// Whether the member's flags said the name is UTF-8 although its bytes are not (libzip refuses such an archive;
    /// it is read through ``ZipMislabelledNames``).
    package var nameMislabelledUTF8 = false
    /// Whether the member is a symbolic link (its Unix mode, in the external attributes, says `S_IFLNK`): its content
    /// is the link's target, as zip tools store links and as a folder's links are read.
    package var isSymbolicLink = false
    /// The uncompressed size the archive declares; informative only, never used to allocate.
    package let declaredSize: UInt64
    /// The compressed size the archive declares.
    package let compressedSize: UInt64
    /// The zip compression method number (0 stored, 8 deflate, …).
    package let compressionMethod: UInt16
    /// Whether the member is encrypted.
    package let isEncrypted: Bool
    /// The CRC-32 the central directory gives.
    package var crc: UInt32 = 0
    /// Whether libzip can decompress this member's method.
    package let isCompressionSupported: Bool
    /// Where the member's data starts in the file, as the consistency walk found it; `nil` when the walk could not
    /// place it (the member is then read through libzip).
    var dataOffset: UInt64?

    /// Whether the name denotes a folder (ends with `/`).
    package var isDirectory: Bool { name.hasSuffix("/") }
}
