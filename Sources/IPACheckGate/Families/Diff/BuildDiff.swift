import Foundation
package import IPACheckArchive
import IPACheckBinary
package import IPACheckBundle
import IPACheckLinks
import IPACheckPlist
package import IPACheckReport
import IPACheckSigning

/// `ipacheck diff OLD NEW`: what changed between two builds, bundle by bundle, in what the signature, the profile
/// and the Info.plist say: the regressions re-signing tools cause (a domain dropped or replaced by `*`, the DER blob
/// gone or out of step with the XML one, another app ID, team, profile or signer, an extension that lost its
/// domains), and what a release changes (version, build, platform, minimum OS).
///
/// Each difference is a finding of one of the rules below, whose severity is the rule's: removing a bundle, an
/// associated domain, an entitlement, an app ID (signed or provisioned) or an entitlements blob is an error (a
/// regression, exit 1); a changed value, profile, signer, platform or minimum OS a warning, as is a version or build
/// that went down; what was added, a renewed profile and a release's new version a note.
package struct BuildDiff: Sendable {
    /// One difference.
    package struct Change: Encodable, Sendable, Hashable {
        /// Whether it was added, removed or changed.
        package enum Kind: String, Encodable, Sendable, Hashable, CaseIterable {
            case removed, changed, added
        }

        /// What a difference is about.
        package enum Subject: String, Encodable, Sendable, Hashable {
            /// A nested bundle (the name is its path).
            case bundle
            /// A signed entitlement (the name is its key).
            case entitlement
            /// An entry of the signed associated domains.
            case associatedDomain
            /// The signed `application-identifier`.
            case appID
            /// The code signature: an entitlements blob, or the signer.
            case signature
            /// The embedded profile: its kind, team, App ID, UUID or expiry (the name says which).
            case profile
            /// An entitlement the embedded profile grants (the name is its key).
            case profileEntitlement
            /// `CFBundleShortVersionString`, `CFBundleVersion` or `MinimumOSVersion` (the name is the key).
            case version
            /// The platform the bundle is built for.
            case platform
        }

        /// `added`, `removed` or `changed`.
        package let kind: Kind
        /// What it is about.
        package let subject: Subject
        /// Its name (the entitlement key, the domain entry, the blob, the profile field).
        package let name: String
        /// The value in the old build, where there was one.
        package let old: String?
        /// The value in the new build, where there is one.
        package let new: String?
        /// For a signed entitlement or domain: the one entitlements blob (`XML` or `DER`) the difference is in;
        /// absent when both blobs changed alike.
        package let blob: String?

        /// A difference.
        package init(
            kind: Kind,
            subject: Subject,
            name: String,
            old: String?,
            new: String?,
            blob: String? = nil
        ) {
            self.kind = kind
            self.subject = subject
            self.name = name
            self.old = old
            self.new = new
            self.blob = blob
        }
    }

    /// The differences of one bundle.
    package struct BundleChanges: Encodable, Sendable {
        /// The bundle's path inside the app (`.` for the app itself, `PlugIns/Share.appex`).
        package let bundle: String
        /// The bundle ID in the new build (the old one's when the bundle was removed).
        package let bundleID: String?
        /// What changed.
        package let changes: [Change]
    }

    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: RuleSet {
        /// The set, its rules as declared below.
        package init() {}

        /// DIFF001.
        package let bundleRemoved = Rule(
            "DIFF001",
            .error,
            "bundle removed",
            summary:
                "A bundle of the old build (an extension, App Clip, watch app or framework) is not in the new one.",
            fix: "Check the build's targets and the export; re-signing tools sometimes drop nested bundles."
        )
        /// DIFF002.
        package let domainRemoved = Rule(
            "DIFF002",
            .error,
            "associated domain removed",
            summary: "An entry of com.apple.developer.associated-domains signed into the old build is gone (or was "
                + "replaced by `*`, which re-signing with a wildcard profile does), from both entitlements blobs or "
                + "from the one the message names: its links stop opening the app.",
            fix: "Restore the entry in the target's entitlements, and re-sign with a profile whose App ID has "
                + "Associated Domains enabled, so that codesign writes it into both the XML and the DER blob."
        )
        /// DIFF003.
        package let entitlementRemoved = Rule(
            "DIFF003",
            .error,
            "entitlement removed",
            summary: "A signed entitlement of the old build is not in the new one (in both entitlements blobs, or in "
                + "the one the message names).",
            fix: "Restore the entitlement in the target's .entitlements file, or confirm it was dropped on purpose."
        )
        /// DIFF004.
        package let appIDChanged = Rule(
            "DIFF004",
            .error,
            "application identifier changed",
            summary: "The signed application-identifier (or the team that prefixes it) differs or is gone, in both "
                + "entitlements blobs or in the one the message names: AASA files, keychain groups and push all key "
                + "on it, so links and data stop reaching the app.",
            fix: "Sign with the same team and App ID as the shipping build, or update every AASA file first."
        )
        /// DIFF005.
        package let entitlementBlobRemoved = Rule(
            "DIFF005",
            .error,
            "entitlements blob removed",
            summary: "The old build's signature carried readable XML or DER entitlements that the new one lacks; iOS "
                + "15 and later enforce the DER blob and refuse to launch an app signed without it.",
            fix: "Re-sign with codesign from Xcode 13 or later (which writes both blobs)."
        )
        /// DIFF006.
        package let entitlementChanged = Rule(
            "DIFF006",
            .warning,
            "entitlement changed",
            summary: "A signed entitlement has another value in the new build, in both entitlements blobs or in the "
                + "one the message names (then the two blobs no longer agree, and iOS obeys the DER one).",
            fix: "Confirm the change is intended (a re-signing profile often rewrites entitlements); re-sign so that "
                + "both blobs carry the same entitlements."
        )
        /// DIFF007.
        package let profileChanged = Rule(
            "DIFF007",
            .warning,
            "provisioning profile of another kind",
            summary: "The embedded profile is of another kind (development, ad hoc, App Store, enterprise) or is "
                + "gone: the build is for other devices or another channel than the old one.",
            fix: "Export with the profile of the distribution you ship through."
        )
        /// DIFF008.
        package let signerChanged = Rule(
            "DIFF008",
            .warning,
            "signature changed",
            summary: "The code is signed by another team or certificate, or is now ad hoc or unsigned.",
            fix: "Sign with the team's distribution certificate."
        )
        /// DIFF009.
        package let added = Rule(
            "DIFF009",
            .note,
            "added",
            summary: "A bundle, entitlement, associated domain, entitlements blob or profile entitlement the old build "
                + "did not have.",
            fix: "Nothing to do if it is intended."
        )
        /// DIFF010.
        package let profileTeamChanged = Rule(
            "DIFF010",
            .warning,
            "provisioning profile of another team",
            summary: "The embedded profile's TeamIdentifier differs from the old build's: the build is provisioned "
                + "(and usually signed) by another developer account.",
            fix: "Export with a profile of the team that ships the app."
        )
        /// DIFF011.
        package let profileAppIDChanged = Rule(
            "DIFF011",
            .error,
            "provisioning profile for another App ID",
            summary: "The application-identifier the embedded profile grants differs or is gone: the build is "
                + "provisioned as another app, so its signed app ID, AASA entries, keychain groups and push no longer "
                + "match the shipping app.",
            fix: "Export with a profile of the shipping app's App ID (TEAMID.bundle.id)."
        )
        /// DIFF012.
        package let profileRenewed = Rule(
            "DIFF012",
            .note,
            "provisioning profile replaced",
            summary: "The embedded profile is another one of the same team, App ID and kind (another UUID), or now "
                + "expires later: what regenerating or renewing a profile does.",
            fix: "Nothing to do if the profile was renewed on purpose."
        )
        /// DIFF013.
        package let profileExpiresSooner = Rule(
            "DIFF013",
            .warning,
            "provisioning profile expires sooner",
            summary: "The embedded profile expires before the old build's did (or names no expiry): the build stops "
                + "launching on that date for everyone it was installed on outside the App Store.",
            fix: "Export with a current profile; download it again from the developer portal if it was renewed."
        )
        /// DIFF014.
        package let profileGrantChanged = Rule(
            "DIFF014",
            .warning,
            "provisioning profile grants less or otherwise",
            summary: "An entitlement the old build's profile granted is missing from the new profile or has another "
                + "value: the signed entitlements must be a subset of what the profile grants, or iOS refuses to "
                + "install the app.",
            fix: "Enable the capability on the App ID in the developer portal, regenerate the profile and export "
                + "again."
        )
        /// DIFF015.
        package let versionChanged = Rule(
            "DIFF015",
            .note,
            "version changed",
            summary: "CFBundleShortVersionString or CFBundleVersion went up, or MinimumOSVersion went down: what a "
                + "new release does.",
            fix: "Nothing to do if it is intended."
        )
        /// DIFF016.
        package let versionLowered = Rule(
            "DIFF016",
            .warning,
            "version or build went down",
            summary: "CFBundleShortVersionString or CFBundleVersion is lower than the old build's, or gone: App Store "
                + "Connect and TestFlight refuse a build whose version and build do not go up.",
            fix: "Raise the version or build number (agvtool, or the target's Version and Build fields)."
        )
        /// DIFF017.
        package let platformChanged = Rule(
            "DIFF017",
            .warning,
            "platform changed",
            summary: "The bundle is built for another platform (DTPlatformName, such as iphonesimulator instead of "
                + "iphoneos): it does not run where the old build ran.",
            fix: "Archive for the device platform (Any iOS Device) and export again."
        )
        /// DIFF018.
        package let minimumOSRaised = Rule(
            "DIFF018",
            .warning,
            "minimum OS raised",
            summary: "MinimumOSVersion is higher than the old build's (or changed in a way that cannot be ordered): "
                + "devices on the older OS no longer get the update.",
            fix: "Confirm the deployment target was raised on purpose."
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// Every bundle's differences, the app first.
    package let bundles: [BundleChanges]
    /// The differences as findings.
    package let findings: [Finding]

    /// The differences of one pair of bundles and the findings they raise, gathered as they are found.
    struct Comparison {
        /// The bundle's path as findings name it.
        let bundle: String?
        /// The differences so far.
        private(set) var changes: [Change] = []
        /// Their findings so far.
        private(set) var findings: [Finding] = []

        /// Records a difference and the finding of `rule` it raises.
        mutating func add(_ change: Change, _ rule: Rule, _ message: String, location: String? = nil) {
            changes.append(change)
            findings.append(rule.finding(message, bundle: bundle, location: location))
        }
    }

    /// Compares two builds, each read into its bundles' facts (the main app first).
    package init(old: [BundleFacts], new: [BundleFacts]) {
        let oldByPath = Dictionary(Self.keyed(old), uniquingKeysWith: { first, _ in first })
        let newByPath = Dictionary(Self.keyed(new), uniquingKeysWith: { first, _ in first })
        var order = Self.keyed(new).map(\.0)
        for (path, _) in Self.keyed(old) where newByPath[path] == nil { order.append(path) }
        var bundles: [BundleChanges] = []
        var findings: [Finding] = []
        for path in order {
            let before = oldByPath[path]
            let after = newByPath[path]
            var comparison = Comparison(bundle: (after ?? before)?.bundle.path)
            switch (before, after) {
            case (let before?, let after?): Self.compare(before, after, into: &comparison)
            case (let before?, nil):
                comparison.add(
                    Change(kind: .removed, subject: .bundle, name: path, old: before.bundle.bundleID, new: nil),
                    Self.rules.bundleRemoved,
                    "\(path) is not in the new build"
                )
            case (nil, let after?):
                comparison.add(
                    Change(kind: .added, subject: .bundle, name: path, old: nil, new: after.bundle.bundleID),
                    Self.rules.added,
                    "bundle \(path) is new"
                )
            case (nil, nil): break
            }
            guard !comparison.changes.isEmpty else { continue }
            let bundleID = after?.bundle.bundleID ?? before?.bundle.bundleID
            bundles.append(BundleChanges(bundle: path, bundleID: bundleID, changes: comparison.changes))
            findings += comparison.findings
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

    /// Everything two builds of one bundle may differ in.
    private static func compare(_ old: BundleFacts, _ new: BundleFacts, into comparison: inout Comparison) {
        compareBlobs(old, new, into: &comparison)
        compareEntitlements(old, new, into: &comparison)
        compareProfiles(old, new, into: &comparison)
        compareSigners(old, new, into: &comparison)
        compareVersions(old.bundle, new.bundle, into: &comparison)
    }
}

extension BuildDiff {
    /// Reads both builds and compares them.
    ///
    /// - Throws: ``InputError`` when either cannot be read.
    package static func read(
        old: String,
        new: String,
        limits: ArchiveLimits = .standard
    )
        throws(InputError) -> BuildDiff
    {
        let before = try BundleFacts.gatherAll(ipa: try IPAFile(path: old, limits: limits))
        let after = try BundleFacts.gatherAll(ipa: try IPAFile(path: new, limits: limits))
        return BuildDiff(old: before, new: after)
    }

    /// The per-bundle changes as a report section: JSON `bundles`, and for people a line per bundle.
    package func section() throws -> ReportSection {
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
            lines.append(
                .text(
                    "no differences in bundles, entitlements (XML and DER), associated domains, app IDs, profiles, "
                        + "signers, versions, builds, platforms or minimum OS versions"
                )
            )
        }
        return try ReportSection(key: "bundles", value: bundles, lines: lines)
    }
}
