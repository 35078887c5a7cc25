import IPACheckBundle
import IPACheckReport
import IPACheckSigning

extension BundleFacts {
    /// Whether the executable was read and carries no code signature: entitlements are embedded in the signature
    /// (docs/ios-model.md I8), so the bundle has none until it is signed (a build made with signing off).
    package var isUnsigned: Bool { container != nil && slices.isEmpty }
}

extension [BundleFacts] {
    /// Why no bundle claims a domain when the main app is unsigned; nil when it is signed.
    ///
    /// Said where a check would otherwise say "no bundle is signed with associated domains": true of such a build,
    /// but the domains it will claim are decided when it is signed, and its project's entitlements file says which.
    var unsignedReason: String? {
        guard let main = first, main.isUnsigned else { return nil }
        return "\(main.bundle.path) is unsigned, so it has no entitlements until it is signed: `ipacheck check` on "
            + "the project's .entitlements file (with --app-id) checks the domains signing will give it"
    }

    /// Why some bundle's associated domains are unknown; nil when every bundle's signed entitlements were read.
    ///
    /// They are unknown when the bundle's executable or its signed entitlements could not be read.
    /// The checks that would otherwise say "no bundle is signed with associated domains" or "no bundle claims an
    /// associated domain" say this instead: a build whose entitlements were not read claims what nobody knows, and
    /// its rules did not run for that reason (as `domains` and `explain` say).
    var unknownDomainsReason: String? {
        let unread = compactMap { fact -> (bundle: String, why: String)? in
            if let executable = fact.unreadableExecutable {
                return (fact.bundle.path, "\(ArchiveRules.rules.unreadableExecutable.id) \(executable)")
            }
            let problem = fact.slices.lazy.flatMap(\.entitlements.problems).first { $0.kind.leavesEntitlementsUnknown }
            return problem.map { (fact.bundle.path, "\($0.rule.id) \($0.message)") }
        }
        guard let first = unread.first else { return nil }
        return "the signed entitlements of \(unread.map(\.bundle).joined(separator: ", ")) could not be read "
            + "(\(first.why)), so \(unread.count == 1 ? "its" : "their") associated domains are unknown"
    }
}
