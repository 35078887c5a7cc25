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
