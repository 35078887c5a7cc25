/// One member of a zip archive, as its central directory describes it.
public struct ZipEntry: Sendable, Hashable {
    /// The member's index in the central directory.
    public let index: Int
    /// The member's name, decoded as UTF-8 (or libzip's guess for legacy encodings).
    public let name: String
    /// Whether the stored name bytes were not valid UTF-8.
    public let nameWasNotUTF8: Bool
    /// The uncompressed size the archive declares; informative only, never used to allocate.
    public let declaredSize: UInt64
    /// The compressed size the archive declares.
    public let compressedSize: UInt64
    /// The zip compression method number (0 stored, 8 deflate, …).
    public let compressionMethod: UInt16
    /// Whether the member is encrypted.
    public let isEncrypted: Bool
    /// Whether libzip can decompress this member's method.
    public let isCompressionSupported: Bool

    /// Whether the name denotes a folder (ends with `/`).
    public var isDirectory: Bool { name.hasSuffix("/") }
}
