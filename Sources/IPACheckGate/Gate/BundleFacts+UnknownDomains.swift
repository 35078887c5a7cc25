import IPACheckBundle
import IPACheckReport
import IPACheckSigning

extension [BundleFacts] {
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
