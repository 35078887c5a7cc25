/// A file a CodeDirectory's special slot seals (Info.plist, `_CodeSignature/CodeResources`), as the caller has it.
package enum SealedFile: Hashable, Sendable {
    /// The file's digests, taken when it was read.
    case file(FileDigests)
    /// The file does not exist in the bundle: a bound slot is then broken.
    case missing
    /// Not known (a bare Mach-O without its bundle): bound slots are reported as unchecked.
    case notChecked

    /// A file whose bytes are at hand.
    package static func bytes(_ bytes: [UInt8]) -> SealedFile {
        .file(FileDigests(of: bytes))
    }
}
