public import Foundation
public import IPACheckArchive
import IPACheckBinary
import IPACheckBundle
import IPACheckLinks
import IPACheckPlist
public import IPACheckReport
import IPACheckSigning

/// `ipacheck diff OLD NEW`: what changed between two builds, bundle by bundle, in what the signature and profile
/// say: the regressions re-signing tools cause (a domain dropped or replaced by `*`, the DER blob gone, another
/// app ID, team or kind of profile, an extension that lost its domains).
///
/// Each difference is a finding: what was removed is an error (a regression, exit 1), what changed a warning, what
/// was added a note, so every output format of `check` carries it.
public struct BuildDiff: Sendable {
    /// One difference.
    public struct Change: Encodable, Sendable, Hashable {
        /// Whether it was added, removed or changed.
        public enum Kind: String, Encodable, Sendable, Hashable, CaseIterable {
            case removed, changed, added
        }

        /// What a difference is about.
        public enum Subject: String, Encodable, Sendable, Hashable {
            case bundle, entitlement, associatedDomain, appID, signature, profile
        }

        /// `added`, `removed` or `changed`.
        public let kind: Kind
        /// What it is about.
        public let subject: Subject
        /// Its name (the entitlement key, the domain entry, the blob).
        public let name: String
        /// The value in the old build, where there was one.
        public let old: String?
        /// The value in the new build, where there is one.
        public let new: String?
    }

    /// The differences of one bundle.
    public struct BundleChanges: Encodable, Sendable {
        /// The bundle's path inside the app (`.` for the app itself, `PlugIns/Share.appex`).
        public let bundle: String
        /// The bundle ID in the new build (the old one's when the bundle was removed).
        public let bundleID: String?
        /// What changed.
        public let changes: [Change]
    }

    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    public struct Rules: RuleSet {
        /// The set, its rules as declared below.
        public init() {}

        /// DIFF001.
        public let bundleRemoved = Rule(
            "DIFF001",
            .error,
            "bundle removed",
            summary:
                "A bundle of the old build (an extension, App Clip, watch app or framework) is not in the new one.",
            fix: "Check the build's targets and the export; re-signing tools sometimes drop nested bundles."
        )
        /// DIFF002.
        public let domainRemoved = Rule(
            "DIFF002",
            .error,
            "associated domain removed",
            summary: "An entry of com.apple.developer.associated-domains signed into the old build is gone (or was "
                + "replaced by `*`, which re-signing with a wildcard profile does): its links stop opening the app.",
            fix: "Restore the entry in the target's entitlements, and re-sign with a profile whose App ID has "
                + "Associated Domains enabled."
        )
        /// DIFF003.
        public let entitlementRemoved = Rule(
            "DIFF003",
            .error,
            "entitlement removed",
            summary: "A signed entitlement of the old build is not in the new one.",
            fix: "Restore the entitlement in the target's .entitlements file, or confirm it was dropped on purpose."
        )
        /// DIFF004.
        public let appIDChanged = Rule(
            "DIFF004",
            .error,
            "application identifier changed",
            summary: "The signed application-identifier (or the team that prefixes it) differs or is gone: AASA "
                + "files, keychain groups and push all key on it, so links and data stop reaching the app.",
            fix: "Sign with the same team and App ID as the shipping build, or update every AASA file first."
        )
        /// DIFF005.
        public let entitlementBlobRemoved = Rule(
            "DIFF005",
            .error,
            "entitlements blob removed",
            summary: "The old build's signature carried XML or DER entitlements that the new one lacks; iOS 15 "
                + "and later enforce the DER blob and refuse to launch an app signed without it.",
            fix: "Re-sign with codesign from Xcode 13 or later (which writes both blobs)."
        )
        /// DIFF006.
        public let entitlementChanged = Rule(
            "DIFF006",
            .warning,
            "entitlement changed",
            summary: "A signed entitlement has another value in the new build.",
            fix: "Confirm the change is intended (a re-signing profile often rewrites entitlements)."
        )
        /// DIFF007.
        public let profileChanged = Rule(
            "DIFF007",
            .warning,
            "provisioning profile of another kind",
            summary: "The embedded profile is of another kind (development, ad hoc, App Store, enterprise) or is "
                + "gone: the build is for other devices or another channel than the old one.",
            fix: "Export with the profile of the distribution you ship through."
        )
        /// DIFF008.
        public let signerChanged = Rule(
            "DIFF008",
            .warning,
            "signature changed",
            summary: "The code is signed by another team, or is now ad hoc or unsigned.",
            fix: "Sign with the team's distribution certificate."
        )
        /// DIFF009.
        public let added = Rule(
            "DIFF009",
            .note,
            "added",
            summary: "A bundle, entitlement, associated domain or entitlements blob the old build did not have.",
            fix: "Nothing to do if it is intended."
        )
    }

    /// The rules declared here.
    public static let rules = Rules()

    /// Every bundle's differences, the app first.
    public let bundles: [BundleChanges]
    /// The differences as findings.
    public let findings: [Finding]

    /// Compares two builds, each read into its bundles' facts (the main app first).
    public init(old: [BundleFacts], new: [BundleFacts]) {
        let oldByPath = Dictionary(Self.keyed(old), uniquingKeysWith: { first, _ in first })
        let newByPath = Dictionary(Self.keyed(new), uniquingKeysWith: { first, _ in first })
        var order = Self.keyed(new).map(\.0)
        for (path, _) in Self.keyed(old) where newByPath[path] == nil { order.append(path) }
        var bundles: [BundleChanges] = []
        var findings: [Finding] = []
        for path in order {
            let before = oldByPath[path]
            let after = newByPath[path]
            let changes: [Change]
            switch (before, after) {
            case (let before?, let after?): changes = Self.compare(before, after)
            case (let before?, nil):
                changes = [
                    Change(kind: .removed, subject: .bundle, name: path, old: before.bundle.bundleID, new: nil)
                ]
            case (nil, let after?):
                changes = [Change(kind: .added, subject: .bundle, name: path, old: nil, new: after.bundle.bundleID)]
            case (nil, nil): changes = []
            }
            guard !changes.isEmpty else { continue }
            let bundleID = after?.bundle.bundleID ?? before?.bundle.bundleID
            bundles.append(BundleChanges(bundle: path, bundleID: bundleID, changes: changes))
            let shownBundle = (after ?? before)?.bundle.path
            findings += changes.map { Self.finding($0, bundle: shownBundle) }
        }
        self.bundles = bundles
        self.findings = findings
    }

    /// Each bundle keyed by its path inside the app, so that builds whose app folders are named differently
    /// still pair up.
    private static func keyed(_ facts: [BundleFacts]) -> [(String, BundleFacts)] {
        guard let root = facts.first?.bundle.path else { return [] }
        return facts.map { fact in
            let path = fact.bundle.path
            return (path == root ? "." : String(path.dropFirst(root.count + 1)), fact)
        }
    }

    private static func compare(_ old: BundleFacts, _ new: BundleFacts) -> [Change] {
        var changes: [Change] = []
        if old.appID != new.appID {
            changes.append(
                Change(
                    kind: new.appID == nil ? .removed : old.appID == nil ? .added : .changed,
                    subject: .appID,
                    name: "application-identifier",
                    old: old.appID,
                    new: new.appID
                )
            )
        }
        changes += compareBlobs(old, new)
        changes += compareDomains(domainEntries(old), domainEntries(new))
        let domainsKey = BundleFacts.associatedDomainsKey
        for key in Set(old.entitlements.keys).union(new.entitlements.keys).sorted()
        where key != domainsKey && key != "application-identifier" {
            switch (old.entitlements[key], new.entitlements[key]) {
            case (let before?, nil):
                changes.append(
                    Change(kind: .removed, subject: .entitlement, name: key, old: before.oneLine, new: nil)
                )
            case (nil, let after?):
                changes.append(Change(kind: .added, subject: .entitlement, name: key, old: nil, new: after.oneLine))
            case (let before?, let after?) where before != after:
                changes.append(
                    Change(kind: .changed, subject: .entitlement, name: key, old: before.oneLine, new: after.oneLine)
                )
            default: break
            }
        }
        let oldKind = old.profile?.kind.rawValue ?? "none"
        let newKind = new.profile?.kind.rawValue ?? "none"
        if oldKind != newKind {
            changes.append(
                Change(kind: .changed, subject: .profile, name: "embedded profile", old: oldKind, new: newKind)
            )
        }
        let oldSigner = signer(old)
        let newSigner = signer(new)
        if oldSigner != newSigner {
            changes.append(
                Change(kind: .changed, subject: .signature, name: "signer", old: oldSigner, new: newSigner)
            )
        }
        return changes
    }

    /// Whether the XML and DER blobs are present in every slice.
    private static func compareBlobs(_ old: BundleFacts, _ new: BundleFacts) -> [Change] {
        var changes: [Change] = []
        for (name, present) in [
            ("XML entitlements", { (e: SignedEntitlements) in e.hasXMLBlob }), ("DER entitlements", { $0.hasDERBlob }),
        ] {
            let before = !old.slices.isEmpty && old.slices.allSatisfy { present($0.entitlements) }
            let after = !new.slices.isEmpty && new.slices.allSatisfy { present($0.entitlements) }
            if before && !after {
                changes.append(Change(kind: .removed, subject: .signature, name: name, old: "present", new: nil))
            }
            if after && !before {
                changes.append(Change(kind: .added, subject: .signature, name: name, old: nil, new: "present"))
            }
        }
        return changes
    }

    private static func compareDomains(_ old: [String], _ new: [String]) -> [Change] {
        let removed = old.filter { !new.contains($0) }
        let added = new.filter { !old.contains($0) }
        return removed.map { Change(kind: .removed, subject: .associatedDomain, name: $0, old: $0, new: nil) }
            + added.map { Change(kind: .added, subject: .associatedDomain, name: $0, old: nil, new: $0) }
    }

    /// The associated-domains entries as signed: each string of the array, or the lone string a wildcard
    /// profile leaves (`*`).
    private static func domainEntries(_ facts: BundleFacts) -> [String] {
        switch facts.entitlements[BundleFacts.associatedDomainsKey] {
        case .array(let values)?: values.compactMap(\.stringValue)
        case .string(let value)?: [value]
        default: []
        }
    }

    /// Who signed the code: the CodeDirectory's team, or ad hoc, or unsigned.
    private static func signer(_ facts: BundleFacts) -> String {
        guard let signature = facts.container?.slices.first?.signature else { return "unsigned" }
        if signature.isAdHoc { return "ad hoc" }
        return signature.primaryCodeDirectory?.teamID.map { "team \($0)" } ?? "no team"
    }

    private static func finding(_ change: Change, bundle: String?) -> Finding {
        let was = change.old.map { " (was \($0))" } ?? ""
        switch (change.kind, change.subject) {
        case (_, .appID):
            let now = change.new.map { "is now \($0)" } ?? "is gone"
            return rules.appIDChanged.finding(
                "application-identifier \(now)\(was)",
                bundle: bundle,
                location: "application-identifier"
            )
        case (.removed, .bundle):
            return rules.bundleRemoved.finding("\(change.name) is not in the new build", bundle: bundle)
        case (.removed, .associatedDomain):
            return rules.domainRemoved.finding(
                "\(change.name) is no longer signed",
                bundle: bundle,
                location: BundleFacts.associatedDomainsKey
            )
        case (.removed, .signature):
            return rules.entitlementBlobRemoved.finding(
                "the signature no longer carries \(change.name)",
                bundle: bundle
            )
        case (.removed, _):
            return rules.entitlementRemoved.finding(
                "\(change.name) is no longer signed\(was)",
                bundle: bundle,
                location: change.name
            )
        case (.changed, .profile):
            let now =
                change.new == "none"
                ? "the build has no embedded profile" : "the embedded profile is \(change.new ?? "")"
            return rules.profileChanged.finding("\(now)\(was)", bundle: bundle)
        case (.changed, .signature):
            let now =
                switch change.new {
                case "unsigned": "the code is not signed"
                case "ad hoc": "the code is signed ad hoc"
                default: "the code is signed by \(change.new ?? "")"
                }
            return rules.signerChanged.finding("\(now)\(was)", bundle: bundle)
        case (.changed, _):
            return rules.entitlementChanged.finding(
                "\(change.name) is \(change.new ?? "")\(was)",
                bundle: bundle,
                location: change.name
            )
        case (.added, .bundle):
            return rules.added.finding("bundle \(change.name) is new", bundle: bundle)
        case (.added, .associatedDomain):
            return rules.added.finding(
                "associated domain \(change.name) is new",
                bundle: bundle,
                location: BundleFacts.associatedDomainsKey
            )
        case (.added, .signature):
            return rules.added.finding("the signature now carries \(change.name)", bundle: bundle)
        case (.added, _):
            return rules.added.finding(
                "entitlement \(change.name) = \(change.new ?? "") is new",
                bundle: bundle,
                location: change.name
            )
        }
    }
}

extension BuildDiff {
    /// Reads both builds and compares them.
    ///
    /// - Throws: ``InputError`` when either cannot be read.
    public static func read(
        old: String,
        new: String,
        limits: ArchiveLimits = .standard,
        now: Date = Date()
    )
        throws(InputError) -> BuildDiff
    {
        let before = try BundleFacts.gatherAll(ipa: try IPAFile(path: old, limits: limits), now: now)
        let after = try BundleFacts.gatherAll(ipa: try IPAFile(path: new, limits: limits), now: now)
        return BuildDiff(old: before, new: after)
    }

    /// The per-bundle changes as a report section: JSON `bundles`, and for people a line per bundle.
    public func section() throws -> ReportSection {
        var lines: [StyledLine] = []
        for bundle in bundles {
            var counts: [String] = []
            for kind in Change.Kind.allCases {
                let count = bundle.changes.filter { $0.kind == kind }.count
                if count > 0 { counts.append("\(count) \(kind.rawValue)") }
            }
            var line = StyledLine.text(bundle.bundle, .bold)
            line.append("  " + (bundle.bundleID ?? "(no bundle ID)") + "  " + counts.joined(separator: ", "))
            lines.append(line)
        }
        if bundles.isEmpty {
            lines.append("no differences in bundles, entitlements, associated domains, app IDs, profiles or signers")
        }
        return try ReportSection(key: "bundles", value: bundles, lines: lines)
    }
}
