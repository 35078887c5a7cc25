/// The magic numbers that open each code-signing blob (`CSMAGIC_*` of xnu's `cs_blobs.h`), big-endian.
package enum CodeSignMagic: UInt32, Sendable, CaseIterable {
    /// `CSMAGIC_REQUIREMENT`: one code requirement.
    case requirement = 0xfade_0c00
    /// `CSMAGIC_REQUIREMENTS`: the requirements set (itself a SuperBlob of requirements).
    case requirements = 0xfade_0c01
    /// `CSMAGIC_CODEDIRECTORY`: a CodeDirectory.
    case codeDirectory = 0xfade_0c02
    /// `CSMAGIC_EMBEDDED_SIGNATURE`: the SuperBlob that `LC_CODE_SIGNATURE` points to.
    case embeddedSignature = 0xfade_0cc0
    /// `CSMAGIC_EMBEDDED_SIGNATURE_OLD`: a pre-10.5 embedded signature.
    case embeddedSignatureOld = 0xfade_0b02
    /// `CSMAGIC_EMBEDDED_ENTITLEMENTS`: the XML entitlements plist.
    case embeddedEntitlements = 0xfade_7171
    /// `CSMAGIC_EMBEDDED_DER_ENTITLEMENTS`: the DER entitlements.
    case embeddedDEREntitlements = 0xfade_7172
    /// `CSMAGIC_DETACHED_SIGNATURE`: a detached multi-arch signature.
    case detachedSignature = 0xfade_0cc1
    /// `CSMAGIC_BLOBWRAPPER`: the CMS signature wrapper (empty for an ad-hoc signature).
    case blobWrapper = 0xfade_0b01
    /// `CSMAGIC_EMBEDDED_LAUNCH_CONSTRAINT`: a launch constraint.
    case launchConstraint = 0xfade_8181
}

/// The slot types of a SuperBlob's index (`CSSLOT_*` of `cs_blobs.h`); negated, they also number the
/// CodeDirectory's special slots.
package enum CodeSignSlot: UInt32, Sendable, CaseIterable {
    /// `CSSLOT_CODEDIRECTORY`: the primary CodeDirectory.
    case codeDirectory = 0
    /// `CSSLOT_INFOSLOT`: special slot −1 holds the Info.plist's hash.
    case infoPlist = 1
    /// `CSSLOT_REQUIREMENTS`: the requirements blob (special slot −2).
    case requirements = 2
    /// `CSSLOT_RESOURCEDIR`: special slot −3 holds `_CodeSignature/CodeResources`' hash.
    case resourceDirectory = 3
    /// `CSSLOT_APPLICATION`: application-specific (special slot −4).
    case application = 4
    /// `CSSLOT_ENTITLEMENTS`: the XML entitlements blob (special slot −5).
    case entitlements = 5
    /// `CSSLOT_REP_SPECIFIC`: representation-specific (special slot −6).
    case representationSpecific = 6
    /// `CSSLOT_DER_ENTITLEMENTS`: the DER entitlements blob (special slot −7).
    case derEntitlements = 7
    /// `CSSLOT_LAUNCH_CONSTRAINT_SELF`.
    case launchConstraintSelf = 8
    /// `CSSLOT_LAUNCH_CONSTRAINT_PARENT`.
    case launchConstraintParent = 9
    /// `CSSLOT_LAUNCH_CONSTRAINT_RESPONSIBLE`.
    case launchConstraintResponsible = 10
    /// `CSSLOT_LIBRARY_CONSTRAINT`.
    case libraryConstraint = 11
    /// `CSSLOT_ALTERNATE_CODEDIRECTORIES`: the first alternate CodeDirectory (e.g. SHA-256 beside SHA-1).
    case alternateCodeDirectory0 = 0x1000
    /// The second alternate CodeDirectory.
    case alternateCodeDirectory1 = 0x1001
    /// The third alternate CodeDirectory.
    case alternateCodeDirectory2 = 0x1002
    /// The fourth alternate CodeDirectory.
    case alternateCodeDirectory3 = 0x1003
    /// `CSSLOT_ALTERNATE_CODEDIRECTORY_LIMIT - 1`: the last alternate CodeDirectory.
    case alternateCodeDirectory4 = 0x1004
    /// `CSSLOT_SIGNATURESLOT`: the CMS signature.
    case signature = 0x10000

    /// Whether the slot holds a CodeDirectory (the primary or an alternate).
    package var holdsCodeDirectory: Bool {
        self == .codeDirectory || (0x1000...0x1004).contains(rawValue)
    }
}

/// The digest a CodeDirectory uses for its slots (`CS_HASHTYPE_*`).
package enum CodeSignHashType: UInt8, Sendable, CaseIterable {
    /// `CS_HASHTYPE_SHA1`: 20 bytes.
    case sha1 = 1
    /// `CS_HASHTYPE_SHA256`: 32 bytes.
    case sha256 = 2
    /// `CS_HASHTYPE_SHA256_TRUNCATED`: SHA-256 cut to 20 bytes.
    case sha256Truncated = 3
    /// `CS_HASHTYPE_SHA384`: 48 bytes.
    case sha384 = 4

    /// The number of bytes each slot holds for this hash type.
    package var size: Int {
        switch self {
        case .sha1, .sha256Truncated: 20
        case .sha256: 32
        case .sha384: 48
        }
    }

    /// The name people know it by (`sha256`).
    package var name: String {
        switch self {
        case .sha1: "sha1"
        case .sha256: "sha256"
        case .sha256Truncated: "sha256-truncated"
        case .sha384: "sha384"
        }
    }
}
