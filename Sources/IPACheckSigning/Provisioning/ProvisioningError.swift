import IPACheckErrors

/// A provisioning profile that could not be read: what is wrong, where, as a value with a stable code.
///
/// The CLI maps every one of these to exit code 2 with ``description`` as its one line on stderr. Equality
/// compares ``code`` only, so tests can write `#expect(throws: ProvisioningError(.empty, ""))`.
package struct ProvisioningError: CodedError {
    /// What kind of problem it is; stable, so callers and tests can switch on it.
    package enum Code: String, Hashable, Sendable, CaseIterable {
        /// The file has no bytes at all.
        case empty
        /// The file is larger than any real profile (``ProvisioningProfile/maximumSize``).
        case tooLarge
        /// The bytes are not a CMS (PKCS #7) structure and not a property list either.
        case notCMS
        /// The bytes are an unsigned property list: a profile's payload without its CMS envelope.
        case unsignedPropertyList
        /// The CMS structure is damaged: truncated, a wrong tag, a length past the end, trailing bytes.
        case malformedCMS
        /// The CMS `ContentInfo` holds something other than `SignedData`.
        case notSignedData
        /// `SignedData` has no embedded content (a detached signature), so there is no plist to read.
        case missingContent
        /// The embedded content is not a property list libplist can read.
        case malformedPropertyList
        /// The property list's root is not a dictionary.
        case notADictionary
        /// A property list, but not a provisioning profile: none of the keys every profile has (a signed
        /// `.mobileconfig`, for one).
        case notAProfile
    }

    /// What kind of problem it is.
    package let code: Code
    /// What went wrong and where, in words a person can act on.
    package let reason: String

    /// Creates an error.
    package init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// `provisioning profile: <reason>`.
    package var description: String { "provisioning profile: \(reason)" }
}
