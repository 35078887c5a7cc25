package import Foundation
package import IPACheckBundle
package import IPACheckGate
package import IPACheckLinks
import IPACheckPlist
package import IPACheckReport

/// The answer to `ipacheck domains`: every bundle's associated domains, parsed.
package struct DomainsReport: Encodable, Sendable {
    /// One bundle's domains.
    package struct Bundle: Encodable, Sendable {
        /// The bundle's folder inside the archive.
        package let path: String
        /// What kind of bundle it is.
        package let kind: BundleKind
        /// `CFBundleIdentifier`.
        package let bundleID: String?
        /// `application-identifier` from the signed entitlements.
        package let appID: String?
        /// Every string entry, parsed, in entitlement order: the ones iOS ignores too, with their problems.
        package let associatedDomains: [AssociatedDomain]
        /// For each entry, why no device uses it for this build (``LinkModel/unusedReason(_:of:)``), or `nil`.
        package var unused: [String?] = []
        /// Why the bundle's signed entitlements could not be read, when they could not: then its list of domains is
        /// unknown, not empty.
        package var unreadable: String?
        /// Whether the executable carries no code signature: entitlements live in the signature, so the bundle has
        /// none until it is signed, and the domains it will claim are decided then.
        package var unsigned = false

        private enum CodingKeys: String, CodingKey {
            case path, kind, bundleID, appID, associatedDomains, unreadable, unsigned
        }

        /// Writes `bundleID` and `appID` as `null` when absent, as domains.schema.json declares them, and each entry as
        /// ``Listed`` (the schema's keys plus `index`, `usable` and `problems`).
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(kind, forKey: .kind)
            try container.encode(bundleID, forKey: .bundleID)
            try container.encode(appID, forKey: .appID)
            let listed = associatedDomains.enumerated().map { index, domain in
                Listed(domain: domain, unused: index < unused.count ? unused[index] : nil)
            }
            try container.encode(listed, forKey: .associatedDomains)
            try container.encodeIfPresent(unreadable, forKey: .unreadable)
            if unsigned { try container.encode(true, forKey: .unsigned) }
        }
    }

    /// One entry as `domains` lists it: the schema's `entry`, `service`, `host`, `wildcard` and `mode`, plus where
    /// it stands in the signed array (`index`, the `[n]` of findings' locations), whether iOS uses it (`usable`) and
    /// why not (`problems`).
    struct Listed: Encodable {
        /// One reason the entry is ignored or suspect.
        struct Problem: Encodable {
            let rule: String
            let severity: Severity
            let message: String
        }

        let domain: AssociatedDomain
        /// Why no device uses the entry for this build, beyond its own problems.
        let unused: String?

        private enum CodingKeys: String, CodingKey {
            case index, usable, unusedBecause, problems
        }

        func encode(to encoder: any Encoder) throws {
            try domain.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(domain.index, forKey: .index)
            try container.encode(unused == nil, forKey: .usable)
            try container.encodeIfPresent(unused, forKey: .unusedBecause)
            try container.encode(
                domain.problems.map { problem in
                    let rule = AssociatedDomainRules.rule(for: problem.kind)
                    return Problem(rule: rule.id, severity: rule.severity, message: problem.message)
                },
                forKey: .problems
            )
        }
    }

    /// Whether a device installs and runs the build at all, as `explain`'s build step says it: the same findings
    /// of the same gate (``LinkModel/buildBlockers``), so no entry of a build no device runs is called usable.
    package struct Device: Encodable, Sendable {
        /// Whether some device installs and runs the build.
        package let installs: Bool
        /// Where, as the main app's profile says (`the 3 devices its development profile lists`), when known.
        package let installsOn: String?
        /// What keeps every device from installing or running it, when something does.
        package let blockedBy: [Blocker]

        /// One finding that keeps every device from the build.
        package struct Blocker: Encodable, Sendable {
            /// The rule (`DIST001`).
            package let rule: String
            /// Its severity (always `error`: only errors stop a link).
            package let severity: Severity
            /// What it found.
            package let message: String
        }
    }

    /// Every bundle, the main app first.
    package private(set) var bundles: [Bundle]
    /// Where a device installs the build; `nil` for an entitlements file, which is not a build.
    package private(set) var device: Device?
    /// Problems with the entries, signatures and archive.
    package let findings: [Finding]

    /// The rules `domains` applies: those raised when the archive is opened, and the entries' (every set about
    /// them).
    package static let rules = ArchiveRules.raisedWhenOpened + RuleFamily.entryRules

    /// Why no device uses `domain` for the bundle of `fact`: what the link model says (a malformed entry, a mode
    /// the build cannot use, a managed entry without the MDM entitlement, a domain the profile does not grant), or
    /// a Firebase Dynamic Links domain, which no longer serves since the service shut down.
    static func unusedReason(_ domain: AssociatedDomain, of fact: BundleFacts) -> String? {
        if let reason = LinkModel.unusedReason(domain, of: fact) { return reason }
        if FirebaseChecks.isDynamicLinksHost(domain.host) {
            return "\(domain.host) is a Firebase Dynamic Links domain; the service shut down on Aug 25, 2025"
        }
        return nil
    }

    /// The same report, told where a device installs the build (from the gate's link model): when no device
    /// installs or runs it, every entry not already unused says so.
    package func placed(on links: LinkModel) -> DomainsReport {
        let blockers = links.buildBlockers
        var placed = self
        placed.device = Device(
            installs: blockers.isEmpty,
            installsOn: links.installsOn,
            blockedBy: blockers.map { Device.Blocker(rule: $0.rule, severity: $0.severity, message: $0.message) }
        )
        guard !blockers.isEmpty else { return placed }
        let rules = blockers.map(\.rule).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let reason = "no device will install or run this build (\(rules.joined(separator: ", ")))"
        for index in placed.bundles.indices {
            placed.bundles[index].unused = placed.bundles[index].unused.map { $0 ?? reason }
        }
        return placed
    }

    /// The domains of every bundle, from what the gate read of the build (`facts`), what opening the archive found
    /// (`archiveFindings`; only the rules `domains` applies are kept) and the gate's findings (`judged`), which say
    /// whose signed entitlements could not be read; `now` is the gate's judgement time.
    package static func make(
        facts: [BundleFacts],
        archiveFindings: [Finding],
        judged: [Finding],
        now: Date
    ) -> DomainsReport {
        let bundleFindings = facts.map { $0.findings(judgedAt: now) }
        let bundles = zip(facts, bundleFindings).map { fact, findings in
            var bundle = Bundle(
                path: fact.bundle.path,
                kind: fact.bundle.kind,
                bundleID: fact.bundle.bundleID,
                appID: fact.appID,
                associatedDomains: fact.domains
            )
            bundle.unused = fact.domains.map { unusedReason($0, of: fact) }
            bundle.unsigned = fact.isUnsigned
            let unread = (judged + findings).first {
                LinkModel.entitlementsUnread.contains($0.rule) && ($0.bundle == nil || $0.bundle == fact.bundle.path)
                    && ($0.rule != ArchiveRules.rules.unreadableExecutable.id || $0.bundle == fact.bundle.path)
            }
            bundle.unreadable = unread.map { "\($0.rule) \($0.message)" }
            return bundle
        }
        let entryRules = Set(rules.map(\.id))
        let findings = (archiveFindings + bundleFindings.joined()).filter { entryRules.contains($0.rule) }
        return DomainsReport(bundles: bundles, findings: findings.sorted())
    }

    /// The domains of an entitlements file, as the one bundle it will be signed into: every entry at its index in
    /// the file's array, an entry that holds a build setting included (ENT201, left out of the checks), judged at
    /// `now`.
    package static func make(for file: EntitlementsFile, now: Date) -> DomainsReport {
        let fact = file.facts()
        let domains = fact.domains
        let findings = fact.findings(judgedAt: now)
        var bundle = Bundle(
            path: fact.bundle.path,
            kind: fact.bundle.kind,
            bundleID: fact.bundle.bundleID,
            appID: fact.appID,
            associatedDomains: domains
        )
        bundle.unused = domains.map { unusedReason($0, of: fact) }
        return DomainsReport(bundles: [bundle], findings: findings.sorted())
    }

    /// The host as a listing shows it; an entry that holds a build setting has no real host, so it is shown as
    /// written (after its service), not lower-cased.
    private static func shownHost(_ domain: AssociatedDomain) -> String {
        guard AssociatedDomain.holdsBuildSetting(domain.entry) else {
            return (domain.wildcard ? "*." : "") + domain.host
        }
        let prefix = domain.service.name + ":"
        return domain.entry.hasPrefix(prefix) ? String(domain.entry.dropFirst(prefix.count)) : domain.entry
    }

    /// The domains as a report section: JSON `bundles`, and for people one block per bundle.
    package func section() throws -> ReportSection {
        var lines: [StyledLine] = []
        for bundle in bundles {
            let id = bundle.appID ?? bundle.bundleID ?? "(no app ID)"
            var title = StyledLine.text(bundle.path, .bold)
            title.append("  [\(bundle.kind.rawValue)]  \(id)")
            lines.append(title)
            if let unreadable = bundle.unreadable {
                lines.append(
                    .text(
                        "  ✗ its signed entitlements could not be read, so its domains are unknown: \(unreadable)",
                        .red
                    )
                )
                continue
            }
            if bundle.associatedDomains.isEmpty {
                lines.append(
                    bundle.unsigned
                        ? .text(
                            "  unsigned: no entitlements until it is signed, so no associated domains yet (the "
                                + "project's .entitlements file lists those signing will give it)",
                            .yellow
                        )
                        : .text("  no associated domains", .dim)
                )
                continue
            }
            let width = "\(bundle.associatedDomains.compactMap(\.index).max() ?? 0)".count
            for (position, domain) in bundle.associatedDomains.enumerated() {
                let index = domain.index.map { "[\($0)]" } ?? ""
                var line = StyledLine.text("  " + index.padding(toLength: width + 3, withPad: " ", startingAt: 0))
                line.append("\(domain.service.name.padding(toLength: 21, withPad: " ", startingAt: 0))")
                line.append(Self.shownHost(domain))
                if let mode = domain.mode { line.append("  (mode \(mode.rawValue))") }
                if !domain.problems.isEmpty {
                    line.append("  ✗ " + domain.problems.map(\.message).joined(separator: "; "), .red)
                } else if position < bundle.unused.count, let reason = bundle.unused[position] {
                    line.append("  ✗ not used: " + reason, .red)
                }
                lines.append(line)
            }
        }
        return try ReportSection(key: "bundles", value: bundles, lines: lines)
    }

    /// Where a device installs the build, as a report section (JSON `device`), when the build was judged.
    package func deviceSection() throws -> ReportSection? {
        guard let device else { return nil }
        var lines: [StyledLine] = []
        if device.installs {
            lines.append(.text("device: installs on " + (device.installsOn ?? "the devices its signing allows")))
        } else {
            var line = StyledLine.text("device: ")
            line.append("✗ no device will install or run this build", .red)
            lines.append(line)
            lines += device.blockedBy.map { .text("  \($0.rule) \($0.message)") }
        }
        return try ReportSection(key: "device", value: device, lines: lines)
    }
}
