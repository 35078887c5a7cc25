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
    package let problems: [SigningProblem]
    /// Things worth reporting that do not break integrity (trust, expiry, unchecked slots).
    package let notes: [SigningProblem]

    /// Whether the slice's signature holds.
    package var isValid: Bool { problems.isEmpty }
}
