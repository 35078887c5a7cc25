/// What checking a code signature or its entitlements found wrong, in words and with where, for the signature
/// family to judge (its rule, severity and fix are the family's).
package struct SigningProblem: Hashable, Sendable {
    /// The kinds of problem a signature check tells apart: each is one rule of the signature family.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        case unsigned, codePageModified, specialSlotBroken, codeDirectoryInvalid, cmsInvalid, cmsMalformed, noCMS
        case signerExpired, slotNotChecked, codePagesNotChecked, encryptedCodePages
        case xmlDERDisagree, malformed, slicesDisagree, noDER, notDictionary
        case notSealed, sealUnreadable

        /// Whether the problem leaves the slice's signed entitlements unknown: a blob that cannot be decoded.
        package var leavesEntitlementsUnknown: Bool { self == .malformed }
    }

    /// What is wrong.
    package let kind: Kind
    /// What is wrong here, in one or two sentences.
    package let message: String
    /// The bundle whose code it is.
    package var bundle: String?
    /// The file it is about, when not the bundle's executable (a nested dylib, the seal).
    package var location: String?
    /// The slices it touches.
    package var affects: [String]?

    /// A problem of `kind`, said in `message`.
    package init(
        _ kind: Kind,
        _ message: String,
        bundle: String? = nil,
        location: String? = nil,
        affects: [String]? = nil
    ) {
        self.kind = kind
        self.message = message
        self.bundle = bundle
        self.location = location
        self.affects = affects
    }
}
