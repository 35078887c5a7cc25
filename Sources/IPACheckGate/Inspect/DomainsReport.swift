import Foundation
public import IPACheckBundle
public import IPACheckLinks
public import IPACheckReport

/// The answer to `ipacheck domains`: every bundle's associated domains, parsed.
public struct DomainsReport: Encodable, Sendable {
    /// One bundle's domains.
    public struct Bundle: Encodable, Sendable {
        /// The bundle's folder inside the archive.
        public let path: String
        /// What kind of bundle it is.
        public let kind: BundleKind
        /// `CFBundleIdentifier`.
        public let bundleID: String?
        /// `application-identifier` from the signed entitlements.
        public let appID: String?
        /// The entries, parsed, in entitlement order.
        public let associatedDomains: [AssociatedDomain]

        private enum CodingKeys: String, CodingKey {
            case path, kind, bundleID, appID, associatedDomains
        }

        /// Writes `bundleID` and `appID` as `null` when absent, as the contract shows them.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(kind, forKey: .kind)
            try container.encode(bundleID, forKey: .bundleID)
            try container.encode(appID, forKey: .appID)
            try container.encode(associatedDomains, forKey: .associatedDomains)
        }
    }

    /// Every bundle, the main app first.
    public let bundles: [Bundle]
    /// Problems with the entries, signatures and archive.
    public let findings: [Finding]

    /// The rules `domains` applies: the archive's and the entries'.
    public static let rules =
        ArchiveRules.rules.all + AssociatedDomainRules.rules.all + EntitlementsFile.rules.all

    /// Reads the domains of every bundle of `ipa`.
    public static func make(for ipa: IPAFile, facts: [BundleFacts]) -> DomainsReport {
        let bundles = facts.map { fact in
            Bundle(
                path: fact.bundle.path,
                kind: fact.bundle.kind,
                bundleID: fact.bundle.bundleID,
                appID: fact.appID,
                associatedDomains: fact.domains
            )
        }
        let entryRules = Set(rules.map(\.id))
        let findings = ipa.findings + facts.flatMap(\.findings).filter { entryRules.contains($0.rule) }
        return DomainsReport(bundles: bundles, findings: findings.sorted())
    }

    /// The domains of an entitlements file, as the one bundle it will be signed into.
    public static func make(for file: EntitlementsFile) -> DomainsReport {
        let fact = file.facts()
        let bundle = Bundle(
            path: fact.bundle.path,
            kind: fact.bundle.kind,
            bundleID: fact.bundle.bundleID,
            appID: fact.appID,
            associatedDomains: fact.domains
        )
        return DomainsReport(bundles: [bundle], findings: fact.findings.sorted())
    }

    /// The domains as a report section: JSON `bundles`, and for people one block per bundle.
    public func section() throws -> ReportSection {
        var lines: [StyledLine] = []
        for bundle in bundles {
            let id = bundle.appID ?? bundle.bundleID ?? "(no app ID)"
            var title = StyledLine.text(bundle.path, .bold)
            title.append("  [\(bundle.kind.rawValue)]  \(id)")
            lines.append(title)
            if bundle.associatedDomains.isEmpty {
                lines.append(.text("  no associated domains", .dim))
                continue
            }
            for domain in bundle.associatedDomains {
                var line = StyledLine.text(
                    "  \(domain.service.name.padding(toLength: 21, withPad: " ", startingAt: 0))"
                )
                line.append((domain.wildcard ? "*." : "") + domain.host)
                if let mode = domain.mode { line.append("  (mode \(mode.rawValue))") }
                if !domain.problems.isEmpty {
                    line.append("  ✗ " + domain.problems.map(\.message).joined(separator: "; "), .red)
                }
                lines.append(line)
            }
        }
        return try ReportSection(key: "bundles", value: bundles, lines: lines)
    }
}
