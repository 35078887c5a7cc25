/// How one CodeDirectory compared against the slice.
package struct CodeDirectoryCheck: Hashable, Sendable, Codable {
    /// The SuperBlob slot: 0 for the primary, 4096 to 4100 for alternates.
    package let slot: UInt32
    /// The hash type's name (`sha256`), or `type N` when unknown.
    package let hashType: String
    /// The cdhash: the CodeDirectory's digest with its own hash type, hex.
    package let cdhash: String
    /// The signing identifier.
    package let identifier: String
    /// The team ID, if present.
    package let teamID: String?
    /// `flags` of the CodeDirectory.
    package let flags: UInt32
    /// The number of code pages checked.
    package let codePageCount: Int
    /// The indexes of code pages whose hash differs.
    package let modifiedPages: [Int]
    /// Every special slot up to `nSpecialSlots`, plus unsealed blobs.
    package let specialSlots: [SpecialSlotCheck]
}
