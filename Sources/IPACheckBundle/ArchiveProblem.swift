/// What opening an archive or reading its bundles found wrong, in words and with where, for the archive family to
/// judge (its rule, severity and fix are the family's).
package struct ArchiveProblem: Hashable, Sendable {
    /// The kinds of problem reading an archive tells apart: each is one rule of the archive family.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        case unsafeMemberPath, duplicateMember, caseCollision, unreadableMember, nestedPayload, severalApps
        case nonUTF8Name, bundleInfoPlist, missingExecutable, unreadableExecutable, inconsistentDirectory
        case linkLeavesBundle, unreadableSealedMember

        /// Whether the problem leaves a bundle's signed entitlements unknown: what it claims cannot be told.
        package var leavesEntitlementsUnknown: Bool { self == .unreadableExecutable }
    }

    /// What is wrong.
    package let kind: Kind
    /// What is wrong here, in one sentence.
    package let message: String
    /// The bundle it is about.
    package var bundle: String?
    /// The member (or the bundle's file) it is about.
    package var location: String?

    /// A problem of `kind`, said in `message`.
    package init(_ kind: Kind, _ message: String, bundle: String? = nil, location: String? = nil) {
        self.kind = kind
        self.message = message
        self.bundle = bundle
        self.location = location
    }
}
