import IPACheckErrors

/// A CMS message that could not be read: what is wrong and in which structure, as a value with a stable code.
///
/// Equality compares ``code`` only, so tests can write `#expect(throws: CMSError(.malformed, "", ""))`; callers
/// map it to their own error (``description`` is a complete sentence fragment naming the place).
package struct CMSError: CodedError {
    /// What kind of problem it is; stable, so callers can switch on it.
    package enum Code: String, Hashable, Sendable, CaseIterable {
        /// More bytes than ``CMSSignedData/maximumSize``; not read at all.
        case tooLarge
        /// The BER/DER is damaged (truncated, a length past the end, trailing bytes, nested too deeply) or a
        /// structure has the wrong tag or the wrong number of fields.
        case malformed
        /// The `ContentInfo` holds something other than `SignedData`.
        case notSignedData
        /// A list is longer than ``CMSSignedData/maximumElements`` (certificates, signers, attributes).
        case tooManyElements
    }

    /// What kind of problem it is.
    package let code: Code
    /// The structure being read (`ContentInfo`, `SignedData.signerInfos`, `SignerInfo.signedAttrs`).
    package let context: String
    /// What is wrong, in words a person can act on.
    package let reason: String

    /// Creates an error.
    package init(_ code: Code, _ context: String, _ reason: String) {
        self.code = code
        self.context = context
        self.reason = reason
    }

    /// `<context>: <reason>`.
    package var description: String { "\(context): \(reason)" }
}
