public import IPACheckBundle
public import IPACheckReport

/// A file a CodeDirectory's special slot seals (Info.plist, `_CodeSignature/CodeResources`), as the caller has it.
public enum SealedFile: Hashable, Sendable {
    /// The file's digests, taken when it was read.
    case file(FileDigests)
    /// The file does not exist in the bundle: a bound slot is then broken.
    case missing
    /// Not known (a bare Mach-O without its bundle): bound slots are reported as unchecked.
    case notChecked

    /// A file whose bytes are at hand.
    public static func bytes(_ bytes: [UInt8]) -> SealedFile {
        .file(FileDigests(of: bytes))
    }
}

/// How one special slot compared.
public struct SpecialSlotCheck: Hashable, Sendable, Codable {
    /// What a special slot's hash was found to be.
    public enum Status: String, Hashable, Sendable, Codable {
        /// The hash matches the file or blob.
        case valid
        /// The hash differs: the file or blob changed after signing.
        case modified
        /// The slot is bound but the file or blob is absent.
        case missing
        /// The slot is all zeros: nothing bound.
        case notBound
        /// The file or blob exists but the slot does not seal it.
        case unsealed
        /// The caller could not supply the file.
        case notChecked
    }

    /// The slot number (1 = Info.plist, 2 requirements, 3 CodeResources, 5 entitlements, 7 DER entitlements).
    public let slot: Int
    /// What the slot seals, for people.
    public let name: String
    /// The outcome.
    public let status: Status
}

/// How one CodeDirectory compared against the slice.
public struct CodeDirectoryCheck: Hashable, Sendable, Codable {
    /// The SuperBlob slot: 0 for the primary, 4096 to 4100 for alternates.
    public let slot: UInt32
    /// The hash type's name (`sha256`), or `type N` when unknown.
    public let hashType: String
    /// The cdhash: the CodeDirectory's digest with its own hash type, hex.
    public let cdhash: String
    /// The signing identifier.
    public let identifier: String
    /// The team ID, if present.
    public let teamID: String?
    /// `flags` of the CodeDirectory.
    public let flags: UInt32
    /// The number of code pages checked.
    public let codePageCount: Int
    /// The indexes of code pages whose hash differs.
    public let modifiedPages: [Int]
    /// Every special slot up to `nSpecialSlots`, plus unsealed blobs.
    public let specialSlots: [SpecialSlotCheck]
}

/// The verdict for one slice.
public struct SliceSignatureCheck: Hashable, Sendable {
    /// The architecture name (`arm64`).
    public let architecture: String
    /// Whether the slice has a code signature at all.
    public let isSigned: Bool
    /// Whether the signature is ad hoc (no identity).
    public let isAdHoc: Bool
    /// One entry per CodeDirectory.
    public let codeDirectories: [CodeDirectoryCheck]
    /// The CMS check, when the slice has a non-empty CMS blob.
    public let cms: CMSSignatureCheck?
    /// Problems that break the signature (the `verify` verdict).
    public let problems: [Finding]
    /// Things worth reporting that do not break integrity (trust, expiry, unchecked slots).
    public let notes: [Finding]

    /// Whether the slice's signature holds.
    public var isValid: Bool { problems.isEmpty }
}

/// The verdict for a whole file (every slice).
public struct SignatureCheck: Hashable, Sendable {
    /// One result per slice, in file order.
    public let slices: [SliceSignatureCheck]

    /// Whether every slice's signature holds: `ipacheck verify` exits 0 only then.
    public var isValid: Bool { !slices.isEmpty && slices.allSatisfy(\.isValid) }

    /// Every problem and note, slice by slice.
    public var findings: [Finding] { slices.flatMap { $0.problems + $0.notes } }
}
