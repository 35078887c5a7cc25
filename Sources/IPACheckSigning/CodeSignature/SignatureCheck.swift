package import IPACheckBundle
package import IPACheckReport

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

/// How one special slot compared.
package struct SpecialSlotCheck: Hashable, Sendable, Codable {
    /// What a special slot's hash was found to be.
    package enum Status: String, Hashable, Sendable, Codable {
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
    package let slot: Int
    /// What the slot seals, for people.
    package let name: String
    /// The outcome.
    package let status: Status
}

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

/// The verdict for one slice.
package struct SliceSignatureCheck: Hashable, Sendable {
    /// The architecture name (`arm64`).
    package let architecture: String
    /// Whether the slice has a code signature at all.
    package let isSigned: Bool
    /// Whether the signature is ad hoc (no identity).
    package let isAdHoc: Bool
    /// One entry per CodeDirectory.
    package let codeDirectories: [CodeDirectoryCheck]
    /// The CMS check, when the slice has a non-empty CMS blob.
    package let cms: CMSSignatureCheck?
    /// Problems that break the signature (the `verify` verdict).
    package let problems: [Finding]
    /// Things worth reporting that do not break integrity (trust, expiry, unchecked slots).
    package let notes: [Finding]

    /// Whether the slice's signature holds.
    package var isValid: Bool { problems.isEmpty }
}

/// The verdict for a whole file (every slice).
package struct SignatureCheck: Hashable, Sendable {
    /// One result per slice, in file order.
    package let slices: [SliceSignatureCheck]

    /// Whether every slice's signature holds: `ipacheck verify` exits 0 only then.
    package var isValid: Bool { !slices.isEmpty && slices.allSatisfy(\.isValid) }

    /// Every problem and note, slice by slice.
    package var findings: [Finding] { slices.flatMap { $0.problems + $0.notes } }
}
