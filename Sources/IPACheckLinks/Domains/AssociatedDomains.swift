package import IPACheckPlist
package import IPACheckReport

/// Reads `com.apple.developer.associated-domains` from an entitlements dictionary into ``AssociatedDomain``s
/// plus findings for each entry and for the list as a whole.
package enum AssociatedDomains {
    /// The entitlement key.
    package static let key = "com.apple.developer.associated-domains"
    /// The boolean entitlement an app needs to accept MDM-supplied associated domains.
    package static let mdmManagedKey = "com.apple.developer.associated-domains.mdm-managed"
    /// More entries than this draws ``AssociatedDomainRules/tooMany``; Apple's guide advises about 20 to 30.
    package static let recommendedMaximum = 30
    /// The most entries read; a hostile entitlement with more is cut short (and reported).
    package static let readLimit = 10_000

    /// `com.apple.developer.associated-domains[index]`, where findings about one element point.
    package static func location(of index: Int) -> String {
        "\(key)[\(index)]"
    }

    /// The associated domains of `entitlements`, in order, and what is wrong with them.
    ///
    /// An absent key gives no domains and no findings. Every string element is a domain, whatever is wrong with it
    /// (``AssociatedDomain/problems`` says why iOS ignores it); an element that is not a string is a finding only.
    /// Each domain's ``AssociatedDomain/index`` is its position in the array, and each finding carries the entry as
    /// `domain` and `com.apple.developer.associated-domains[index]` as `location`, so positions match the signed
    /// array however many elements before it are broken.
    ///
    /// - Parameters:
    ///   - entitlements: The entitlements dictionary.
    ///   - bundle: The bundle findings name.
    ///   - pendingSetting: For an entitlements file Xcode has not signed yet, the rule for an entry that holds a
    ///     build setting (`$(NAME)`): Xcode substitutes it when it signs, so the entry is listed with this rule as
    ///     its only problem and left out of the checks (``AssociatedDomain/isUsable`` is false). `nil` for signed
    ///     entitlements, where such an entry was never substituted and iOS reads it literally (ENT012).
    package static func from(
        entitlements: PlistValue,
        bundle: String? = nil,
        pendingSetting: Rule? = nil
    ) -> (domains: [AssociatedDomain], findings: [Finding]) {
        guard let value = entitlements[key] else { return ([], []) }
        guard let elements = value.arrayValue else {
            let finding = AssociatedDomainRules.rules.notAnArray.finding(
                "\(key) is \(value.typeNameWithArticle), not an array of strings; iOS ignores it",
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
        var seen: [String: (index: Int, entry: String)] = [:]
        for (index, element) in elements.prefix(readLimit).enumerated() {
            guard let entry = element.stringValue else {
                findings.append(
                    AssociatedDomainRules.rules.notAnArray.finding(
                        "element \(index) is \(element.typeNameWithArticle), not a string; iOS ignores it",
                        bundle: bundle,
                        location: location(of: index)
                    )
                )
                continue
            }
            var domain = AssociatedDomain.parse(entry: entry)
            domain.index = index
            if let pendingSetting, AssociatedDomain.holdsBuildSetting(entry) {
                domain.problems = [
                    AssociatedDomain.Problem(
                        rule: pendingSetting,
                        message: "\(entry) holds a build setting, which Xcode substitutes when it signs: its value is "
                            + "unknown here, so the entry is left out of the checks",
                        fix: "Check the built ipa, or the .xcent Xcode writes into the build folder, where the setting "
                            + "is substituted."
                    )
                ]
            }
            for problem in domain.problems {
                findings.append(
                    problem.rule.finding(
                        problem.message,
                        bundle: bundle,
                        domain: domain.findingDomain,
                        location: location(of: index),
                        fix: problem.fix
                    )
                )
            }
            let identity =
                "\(domain.service.name):\(domain.wildcard ? "*." : "")\(domain.host)?\(domain.mode?.rawValue ?? "")"
            if let first = seen[identity] {
                findings.append(
                    AssociatedDomainRules.rules.duplicate.finding(
                        "'\(entry)' repeats entry \(first.index) ('\(first.entry)')",
                        bundle: bundle,
                        domain: domain.findingDomain,
                        location: location(of: index)
                    )
                )
            } else {
                seen[identity] = (index, entry)
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
                        location: domain.location(fallback: index)
                    )
                )
            }
        }
        return findings
    }

    /// Findings for alternate modes the build's signing makes useless: `?mode=developer` (or
    /// `developer+managed`) in a distribution-signed app, which iOS skips silently (Apple's associated-domains entitlement page).
    ///
    /// The `check` command calls this with ``EntitlementComparison/signingKind(signed:profile:)``; nothing is
    /// reported when the signing kind is unknown (`nil`).
    package static func alternateModeFindings(
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
                    location: domain.location(fallback: index)
                )
            )
        }
        return findings
    }
}
