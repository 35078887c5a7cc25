public import IPACheckPlist
public import IPACheckReport

/// Reads `com.apple.developer.associated-domains` from an entitlements dictionary into ``AssociatedDomain``s
/// plus findings for each entry and for the list as a whole.
public enum AssociatedDomains {
    /// The entitlement key.
    public static let key = "com.apple.developer.associated-domains"
    /// The boolean entitlement an app needs to accept MDM-supplied associated domains.
    public static let mdmManagedKey = "com.apple.developer.associated-domains.mdm-managed"
    /// More entries than this draws ``AssociatedDomainRules/tooMany``; aasa.md §6 B ("about 30").
    public static let recommendedMaximum = 30
    /// The most entries read; a hostile entitlement with more is cut short (and reported).
    public static let readLimit = 10_000

    /// The associated domains of `entitlements`, in order, and what is wrong with them.
    ///
    /// An absent key gives no domains and no findings. Each finding carries the entry as `domain` and
    /// `com.apple.developer.associated-domains[i]` as `location`.
    public static func from(
        entitlements: PlistValue,
        bundle: String? = nil
    ) -> (domains: [AssociatedDomain], findings: [Finding]) {
        guard let value = entitlements[key] else { return ([], []) }
        guard let elements = value.arrayValue else {
            let finding = AssociatedDomainRules.rules.notAnArray.finding(
                "\(key) is a \(value.typeName), not an array of strings; iOS ignores it",
                bundle: bundle,
                location: key
            )
            return ([], [finding])
        }
        var findings: [Finding] = []
        if elements.isEmpty {
            findings.append(
                AssociatedDomainRules.rules.empty.finding(
                    "\(key) is present but empty: the capability is on, with no domain",
                    bundle: bundle,
                    location: key
                )
            )
        }
        var domains: [AssociatedDomain] = []
        var seen: [String: Int] = [:]
        for (index, element) in elements.prefix(readLimit).enumerated() {
            let location = "\(key)[\(index)]"
            guard let entry = element.stringValue else {
                findings.append(
                    AssociatedDomainRules.rules.notAnArray.finding(
                        "element \(index) is a \(element.typeName), not a string; iOS ignores it",
                        bundle: bundle,
                        location: location
                    )
                )
                continue
            }
            let domain = AssociatedDomain.parse(entry: entry)
            for problem in domain.problems {
                findings.append(
                    problem.rule.finding(
                        problem.message,
                        bundle: bundle,
                        domain: domain.findingDomain,
                        location: location
                    )
                )
            }
            let identity =
                "\(domain.service.name):\(domain.wildcard ? "*." : "")\(domain.host)?\(domain.mode?.rawValue ?? "")"
            if let first = seen[identity] {
                findings.append(
                    AssociatedDomainRules.rules.duplicate.finding(
                        "'\(entry)' repeats entry \(first) ('\(domains[first].entry)')",
                        bundle: bundle,
                        domain: domain.findingDomain,
                        location: location
                    )
                )
            } else {
                seen[identity] = domains.count
            }
            domains.append(domain)
        }
        if elements.count > readLimit {
            findings.append(
                AssociatedDomainRules.rules.tooMany.finding(
                    "\(key) has \(elements.count) entries; only the first \(readLimit) were read",
                    bundle: bundle,
                    location: key
                )
            )
        } else if domains.count > recommendedMaximum {
            findings.append(
                AssociatedDomainRules.rules.tooMany.finding(
                    "\(key) has \(domains.count) entries (more than about \(recommendedMaximum))",
                    bundle: bundle,
                    location: key
                )
            )
        }
        findings += wildcardsWithoutApex(domains, bundle: bundle)
        return (domains, findings)
    }

    /// `*.example.com` never matches `example.com` itself: note wildcards whose apex is not listed too.
    private static func wildcardsWithoutApex(_ domains: [AssociatedDomain], bundle: String?) -> [Finding] {
        var findings: [Finding] = []
        for (index, domain) in domains.enumerated() where domain.wildcard && domain.isUsable {
            let apexListed = domains.contains { other in
                !other.wildcard && other.host == domain.host && other.service == domain.service
            }
            if !apexListed {
                findings.append(
                    AssociatedDomainRules.rules.wildcardWithoutApex.finding(
                        "'\(domain.entry)' covers subdomains of \(domain.host) but not \(domain.host) itself, "
                            + "which is not listed",
                        bundle: bundle,
                        domain: domain.findingDomain,
                        location: "\(key)[\(index)]"
                    )
                )
            }
        }
        return findings
    }

    /// Findings for alternate modes the build's signing makes useless: `?mode=developer` (or
    /// `developer+managed`) in a distribution-signed app, which iOS skips silently (aasa.md §1.6).
    ///
    /// The `check` command calls this with ``EntitlementComparison/signingKind(signed:profile:)``; nothing is
    /// reported when the signing kind is unknown (`nil`).
    public static func alternateModeFindings(
        _ domains: [AssociatedDomain],
        signing: SigningKind?,
        bundle: String? = nil
    ) -> [Finding] {
        guard signing == .distribution else { return [] }
        var findings: [Finding] = []
        for (index, domain) in domains.enumerated() {
            guard let mode = domain.mode, mode.requiresDevelopmentSigning else { continue }
            findings.append(
                AssociatedDomainRules.rules.developerModeInDistribution.finding(
                    "'\(domain.entry)' uses mode=\(mode.rawValue), but the app is distribution-signed: iOS skips "
                        + "this domain, so \(domain.host) gets no \(domain.service.name) in production",
                    bundle: bundle,
                    domain: domain.findingDomain,
                    location: "\(key)[\(index)]"
                )
            )
        }
        return findings
    }
}
