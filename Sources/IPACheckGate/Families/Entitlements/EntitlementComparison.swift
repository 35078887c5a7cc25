package import IPACheckBundle
package import IPACheckLinks
package import IPACheckPlist
package import IPACheckReport
import IPACheckSigning

/// The `ENT1xx` rules: what the code signature claims that the embedded profile does not grant.
///
/// iOS refuses to
/// install (or launch) an app whose signed entitlements exceed its profile's.
package enum EntitlementComparison {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .bundleFacts }

        /// The set, its rules as declared below.
        package init() {}

        /// An entitlement the profile does not grant keeps the build from installing: every link stops there.
        package var linkPath: LinkPathPlace { .install }

        /// ENT101.
        package let applicationIdentifierNotGranted = Rule(
            "ENT101",
            .error,
            "application identifier not granted by the profile",
            summary: "The signed `application-identifier` does not match the profile's (which may end in `*`). The "
                + "app will not install, and the AASA must list the signed identifier.",
            fix: "Sign with a profile made for this App ID."
        )

        /// ENT102.
        package let teamIdentifierMismatch = Rule(
            "ENT102",
            .error,
            "team identifier differs from the profile's",
            summary: "`com.apple.developer.team-identifier` in the signature is not the profile's team.",
            fix: "Sign with the team's certificate and profile."
        )

        /// ENT103.
        package let keychainGroupNotGranted = Rule(
            "ENT103",
            .error,
            "keychain access group not granted by the profile",
            summary:
                "A signed `keychain-access-groups` entry is not covered by the profile's groups (e.g. `TEAMID.*`).",
            fix: "Use groups with the profile's prefix, or regenerate the profile."
        )

        /// ENT104.
        package let associatedDomainNotGranted = Rule(
            "ENT104",
            .error,
            "associated domain not granted by the profile",
            summary: "The signature lists an associated domain the profile does not grant (a profile grants any "
                + "domain with `*`, otherwise only the domains it lists).",
            fix: "Regenerate the profile after enabling Associated Domains on the App ID, or remove the domain."
        )

        /// ENT105.
        package let getTaskAllowMismatch = Rule(
            "ENT105",
            .error,
            "get-task-allow differs from the profile",
            summary: "The signature claims `get-task-allow` true but the profile is a distribution profile (false); "
                + "iOS refuses to install it.",
            fix: "Export with the matching method (development vs distribution)."
        )

        /// ENT106.
        package let apsEnvironmentMismatch = Rule(
            "ENT106",
            .error,
            "aps-environment differs from the profile",
            summary: "The signed push environment is not the profile's (development vs production).",
            fix: "Sign with a profile whose push environment matches, or let Xcode set aps-environment on export."
        )

        /// ENT107.
        package let mdmManagedNotGranted = Rule(
            "ENT107",
            .error,
            "MDM-managed associated domains not granted",
            summary:
                "`com.apple.developer.associated-domains.mdm-managed` is a restricted entitlement; without Apple's "
                + "grant in the profile the app does not install.",
            fix: "Request the entitlement from Apple for the App ID, or remove it."
        )

        /// ENT108.
        package let entitlementNotGranted = Rule(
            "ENT108",
            .error,
            "entitlement not granted by the profile",
            summary: "The signature claims an entitlement (or a value of it) the profile does not contain; iOS "
                + "refuses to install apps whose restricted entitlements exceed the profile.",
            fix: "Enable the capability on the App ID and regenerate the profile, or remove the entitlement."
        )

        /// ENT109.
        package let signedDistributionWithDevelopmentProfile = Rule(
            "ENT109",
            .note,
            "get-task-allow false with a development profile",
            summary: "The signature says distribution (`get-task-allow` false) while the profile allows debugging; "
                + "legal, but usually a mis-export.",
            fix: "Check the export method."
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// Keys the comparison ignores: set by the system or by Apple on export, never granted by profiles.
    static let ignoredKeys: Set<String> = ["beta-reports-active"]

    /// What `signed` (the code signature's entitlements) claims beyond `profile` (the profile's `Entitlements`).
    ///
    /// Wildcards follow Apple's profiles: a string ending in `*` grants every string with that prefix (`TEAMID.*`),
    /// and `"*"` grants anything, including any associated domain.
    package static func compare(
        signed: [String: PlistValue],
        profile: [String: PlistValue],
        bundle: String? = nil
    ) -> [Finding] {
        var findings: [Finding] = []
        for key in signed.keys.sorted() where !ignoredKeys.contains(key) {
            guard let value = signed[key] else { continue }
            findings += compare(key: key, signed: value, granted: profile[key], bundle: bundle)
        }
        return findings
    }

    /// What the associated-domains finding of the bundle of `fact` says of `domain`, when its profile does not
    /// grant it (the build then installs nowhere); nil when it does, or when there is no profile to compare with.
    package static func notGranted(_ domain: AssociatedDomain, of fact: BundleFacts) -> String? {
        guard let granted = fact.profile?.entitlements, !fact.entitlements.isEmpty,
            let signed = fact.entitlements[AssociatedDomains.key]
        else { return nil }
        let findings = compare(
            key: AssociatedDomains.key,
            signed: signed,
            granted: granted[AssociatedDomains.key],
            bundle: fact.bundle.path
        )
        return findings.first { $0.domain == domain.findingDomain }?.message
    }

    private static func compare(key: String, signed: PlistValue, granted: PlistValue?, bundle: String?) -> [Finding] {
        switch key {
        case "application-identifier":
            guard let granted, grants(granted, signed) else {
                return [
                    EntitlementComparison.rules.applicationIdentifierNotGranted.finding(
                        "the signature's application-identifier \(describe(signed)) is not granted by the profile's "
                            + describe(granted),
                        bundle: bundle,
                        location: key
                    )
                ]
            }
        case "com.apple.developer.team-identifier":
            guard let granted, grants(granted, signed) else {
                return [
                    EntitlementComparison.rules.teamIdentifierMismatch.finding(
                        "the signature's team \(describe(signed)) is not the profile's \(describe(granted))",
                        bundle: bundle,
                        location: key
                    )
                ]
            }
        case "get-task-allow":
            let claimed = signed.boolValue ?? false
            let allowed = granted?.boolValue ?? false
            if claimed && !allowed {
                return [
                    EntitlementComparison.rules.getTaskAllowMismatch.finding(
                        "the signature claims get-task-allow true; the profile does not allow it",
                        bundle: bundle,
                        location: key
                    )
                ]
            }
            if !claimed && allowed {
                return [
                    EntitlementComparison.rules.signedDistributionWithDevelopmentProfile.finding(
                        "the signature has get-task-allow false while the profile (development) allows true",
                        bundle: bundle,
                        location: key
                    )
                ]
            }
        case "aps-environment":
            guard let granted, grants(granted, signed) else {
                return [
                    EntitlementComparison.rules.apsEnvironmentMismatch.finding(
                        "the signature's aps-environment \(describe(signed)) differs from the profile's "
                            + describe(granted),
                        bundle: bundle,
                        location: key
                    )
                ]
            }
        case "keychain-access-groups":
            return ungranted(signed, granted).map { group in
                EntitlementComparison.rules.keychainGroupNotGranted.finding(
                    "keychain group \(describe(group)) is not covered by the profile's \(describe(granted))",
                    bundle: bundle,
                    location: key
                )
            }
        case AssociatedDomains.key:
            return ungranted(signed, granted).map { entry in
                EntitlementComparison.rules.associatedDomainNotGranted.finding(
                    "associated domain \(describe(entry)) is not granted by the profile "
                        + (granted == nil
                            ? "(the profile has no associated domains)" : "(it grants \(describe(granted)))"),
                    bundle: bundle,
                    domain: entry.stringValue.map { AssociatedDomain.parse(entry: $0).findingDomain },
                    location: key
                )
            }
        case AssociatedDomains.mdmManagedKey:
            if signed.boolValue == true, granted?.boolValue != true {
                return [
                    EntitlementComparison.rules.mdmManagedNotGranted.finding(
                        "the signature claims \(key) but the profile does not grant it",
                        bundle: bundle,
                        location: key
                    )
                ]
            }
        default:
            if signed.boolValue == false { return [] }  // claiming `false` never needs a grant
            guard let granted else {
                return [
                    EntitlementComparison.rules.entitlementNotGranted.finding(
                        "the signature claims \(key) = \(describe(signed)), absent from the profile",
                        bundle: bundle,
                        location: key
                    )
                ]
            }
            return ungranted(signed, granted).map { value in
                EntitlementComparison.rules.entitlementNotGranted.finding(
                    "the signature's \(key) value \(describe(value)) is not granted by the profile's "
                        + describe(granted),
                    bundle: bundle,
                    location: key
                )
            }
        }
        return []
    }

    /// The parts of `signed` that `granted` does not cover: each element of an array, or the value itself.
    static func ungranted(_ signed: PlistValue, _ granted: PlistValue?) -> [PlistValue] {
        let claims = signed.arrayValue ?? [signed]
        guard let granted else { return claims }
        return claims.filter { !grants(granted, $0) }
    }

    /// Whether a profile value grants one claimed value: `"*"` grants anything, a pattern ending in `*` grants
    /// strings with its prefix, an array grants what any element grants, otherwise values must be equal.
    static func grants(_ granted: PlistValue, _ claim: PlistValue) -> Bool {
        switch granted {
        case .array(let options):
            if case .array(let claims) = claim {
                return claims.allSatisfy { element in options.contains { grants($0, element) } }
            }
            return options.contains { grants($0, claim) }
        case .string(let pattern):
            if pattern == "*" { return true }
            if case .array(let claims) = claim { return claims.allSatisfy { grants(granted, $0) } }
            guard let value = claim.stringValue else { return false }
            if pattern.hasSuffix("*") { return value.hasPrefix(pattern.dropLast()) }
            return value == pattern
        case .bool(let allowed):
            if let wanted = claim.boolValue { return allowed || !wanted }
            return granted == claim
        default:
            return granted == claim
        }
    }

    /// A value as people read it: strings as they are, lists as `a, b, c … (10 in all)`, never program syntax.
    private static func describe(_ value: PlistValue?) -> String {
        guard let value else { return "(absent)" }
        switch value {
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .unsignedInteger(let number): return String(number)
        case .array(let elements):
            if elements.isEmpty { return "an empty list" }
            let shown = elements.prefix(5).map { describe($0) }.joined(separator: ", ")
            return shown + (elements.count > 5 ? ", … (\(elements.count) in all)" : "")
        default: return value.typeNameWithArticle
        }
    }
}
