package import IPACheckLinks
package import IPACheckReport

/// The `ENT0xx` rules about associated-domain entries.
///
/// Sources: Apple's entitlement page and "Configuring an
/// associated domain", TN3155.
package enum AssociatedDomainRules {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet, EntryRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .bundleFacts }

        /// The set, its rules as declared below.
        package init() {}

        /// `count` distinct `applinks:` entries, one a line, for the examples of ``tooMany``.
        private static func entries(_ count: Int) -> String {
            (1...count).map { "applinks:shop\($0).example.com" }.joined(separator: "\n")
        }

        /// ENT001.
        package let notAnArray = Rule(
            "ENT001",
            .error,
            "associated domains entitlement is not an array of strings",
            summary: "`com.apple.developer.associated-domains` must be an array of strings; iOS ignores other values.",
            fix: "Write the entitlement as an array of `service:domain` strings."
        )

        /// ENT002.
        package let empty = Rule(
            "ENT002",
            .note,
            "associated domains entitlement is empty",
            summary: "The Associated Domains capability is on but lists no domain; nothing is associated.",
            fix: "Add the domains, or turn the capability off.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: [""],
                nonTriggering: ["applinks:example.com"]
            )
        )

        /// ENT003.
        package let unknownService = Rule(
            "ENT003",
            .error,
            "unknown associated-domain service",
            summary: "The entry's service is missing or is not one of applinks, webcredentials, appclips, "
                + "activitycontinuation, authsrv (lower case); iOS ignores the entry.",
            fix: "Prefix the domain with a known service, e.g. `applinks:example.com`.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["example.com", "appLinks:example.com", "universallinks:example.com"],
                nonTriggering: ["applinks:example.com"]
            )
        )

        /// ENT004.
        package let scheme = Rule(
            "ENT004",
            .error,
            "scheme in associated domain",
            summary: "Entries name a domain, not a URL; `applinks:https://example.com` matches nothing.",
            fix: "Remove the scheme: `applinks:example.com`.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:https://example.com"],
                nonTriggering: ["applinks:example.com"]
            )
        )

        /// ENT005.
        package let path = Rule(
            "ENT005",
            .error,
            "path in associated domain",
            summary: "Apple: \"Don't include path and query components\"; an entry with a path matches nothing. Paths "
                + "belong in the AASA file's components.",
            fix: "Keep only the domain in the entitlement; route paths in the AASA file.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:example.com/products", "applinks:example.com#top"],
                nonTriggering: ["applinks:example.com"]
            )
        )

        /// ENT006.
        package let trailingSlash = Rule(
            "ENT006",
            .error,
            "trailing slash in associated domain",
            summary: "Apple: \"Don't include … a trailing slash (/)\"; the entry matches nothing.",
            fix: "Remove the trailing '/'.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:example.com/"],
                nonTriggering: ["applinks:example.com"]
            )
        )

        /// ENT007.
        package let port = Rule(
            "ENT007",
            .error,
            "port in associated domain",
            summary: "TN3155: \"Domains in your applinks can't contain a port number. For example, "
                + "applinks:example.com:8080 will not open your app.\"",
            fix: "Serve the AASA file on port 443 and remove the port from the entry.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:example.com:8080"],
                nonTriggering: ["applinks:example.com"]
            )
        )

        /// ENT008.
        package let query = Rule(
            "ENT008",
            .error,
            "query in associated domain",
            summary: "The only query an entry may carry is `?mode=developer|managed|developer+managed`.",
            fix: "Remove the query.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:example.com?ref=app", "applinks:example.com?mode=developer&ref=app"],
                nonTriggering: ["applinks:example.com?mode=developer"]
            )
        )

        /// ENT009.
        package let unknownMode = Rule(
            "ENT009",
            .error,
            "unknown alternate mode",
            summary: "`mode` must be `developer`, `managed` or `developer+managed`.",
            fix: "Fix the spelling of the mode, or remove it.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:example.com?mode=develop", "applinks:example.com?mode=Developer"],
                nonTriggering: ["applinks:example.com?mode=developer+managed"]
            )
        )

        /// ENT010.
        package let misplacedWildcard = Rule(
            "ENT010",
            .error,
            "wildcard not at the start",
            summary: "A wildcard is only allowed as a leading `*.` (subdomains of the rest); elsewhere it matches "
                + "nothing.",
            fix: "Use `*.example.com`, or list each domain.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:www.*.example.com", "applinks:*example.com"],
                nonTriggering: ["applinks:*.example.com"]
            )
        )

        /// ENT011.
        package let appClipWildcard = Rule(
            "ENT011",
            .error,
            "wildcard in an App Clip domain",
            summary: "Apple: for appclips, \"Don't include … wildcard (*)\".",
            fix: "List each App Clip domain explicitly.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["appclips:*.example.com"],
                nonTriggering: ["appclips:clip.example.com"]
            )
        )

        /// ENT012.
        package let unexpandedVariable = Rule(
            "ENT012",
            .error,
            "unexpanded build setting in associated domain",
            summary: "The entry still contains `$(…)`: the build did not substitute it, and iOS reads it literally.",
            fix: "Define the build setting for this configuration, or write the domain out.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:$(ASSOCIATED_DOMAIN)"],
                nonTriggering: ["applinks:example.com"]
            )
        )

        /// ENT013.
        package let emptyHost = Rule(
            "ENT013",
            .error,
            "associated domain without a domain",
            summary: "The entry has a service but no domain.",
            fix: "Write the domain after the colon, or remove the entry.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:"],
                nonTriggering: ["applinks:example.com"]
            )
        )

        /// ENT014.
        package let uppercase = Rule(
            "ENT014",
            .note,
            "upper case in associated domain",
            summary: "Domains are case-insensitive; ipacheck compares them in lower case. Lower case avoids surprises "
                + "with tools that do not.",
            fix: "Write the domain in lower case.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:Example.com"],
                nonTriggering: ["applinks:example.com"]
            )
        )

        /// ENT015.
        package let internationalized = Rule(
            "ENT015",
            .note,
            "internationalized domain",
            summary: "The domain has non-ASCII labels; in DNS and TLS it is the punycode A-label form, which ipacheck "
                + "uses to fetch and compare.",
            fix: "Consider writing the A-label (`xn--…`) form so every tool agrees.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:bücher.de"],
                nonTriggering: ["applinks:xn--bcher-kva.de"]
            )
        )

        /// ENT016.
        package let invalidHost = Rule(
            "ENT016",
            .error,
            "invalid domain name",
            summary: "The domain is not valid DNS syntax (empty or over-long labels, characters other than letters, "
                + "digits and inner hyphens, a trailing dot, an IP address).",
            fix: "Write the fully qualified domain name that serves the AASA file.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:example.com.", "applinks:my_app.example.com", "applinks:192.168.1.10"],
                nonTriggering: ["applinks:my-app.example.com"]
            )
        )

        /// ENT017.
        package let notFullyQualified = Rule(
            "ENT017",
            .warning,
            "not a fully qualified domain",
            summary: "Apple asks for a fully qualified domain; a single label (`localhost`, `your-domain-here`) or a "
                + "template placeholder cannot serve an AASA file Apple's CDN can reach.",
            fix: "Replace it with the real domain.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:localhost", "applinks:your-domain-here", "applinks:www.your-domain.com"],
                nonTriggering: ["applinks:www.example.com"]
            )
        )

        /// ENT018.
        package let duplicate = Rule(
            "ENT018",
            .warning,
            "duplicate associated domain",
            summary: "The same service, domain and mode are listed twice.",
            fix: "Remove the duplicate.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: [
                    "applinks:example.com\napplinks:example.com",
                    "applinks:example.com\napplinks:EXAMPLE.com",
                ],
                nonTriggering: [
                    "applinks:example.com\nwebcredentials:example.com",
                    "applinks:example.com\napplinks:example.com?mode=developer",
                ]
            )
        )

        /// ENT019.
        package let tooMany = Rule(
            "ENT019",
            .warning,
            "many associated domains",
            summary: "More than about 30 entries (Apple advises 20 to 30): each is a lookup at install and update "
                + "time, and long lists hide stale domains.",
            fix: "Prefer `*.` wildcards, or keep the list to the domains the app really opens.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: [Rules.entries(31)],
                nonTriggering: [Rules.entries(30)]
            )
        )

        /// ENT020.
        package let wildcardWithoutApex = Rule(
            "ENT020",
            .note,
            "wildcard without its apex",
            summary: "`*.example.com` covers subdomains only, never `example.com` itself (Apple).",
            fix: "Add `service:example.com` too if links on the apex should open the app.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:*.example.com"],
                nonTriggering: ["applinks:*.example.com\napplinks:example.com"]
            )
        )

        /// ENT021.
        package let whitespace = Rule(
            "ENT021",
            .error,
            "whitespace in associated domain",
            summary: "The entry has leading or trailing whitespace, which becomes part of the service or domain.",
            fix: "Remove the whitespace.",
            examples: RuleExamples(
                .associatedDomainEntry,
                triggering: ["applinks:example.com ", " applinks:example.com"],
                nonTriggering: ["applinks:example.com"]
            )
        )

        /// ENT022.
        package let developerModeInDistribution = Rule(
            "ENT022",
            .error,
            "developer mode domain in a distribution build",
            summary: "`?mode=developer` domains work only in development-signed apps on devices with developer mode; "
                + "in App Store, TestFlight, ad hoc and in-house builds iOS skips them silently.",
            fix: "Remove the `?mode=` query before distributing, or add the domain without it."
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// The rule each kind of problem an entry or the list can have breaks.
    package static func rule(for kind: AssociatedDomain.Problem.Kind) -> Rule {
        switch kind {
        case .notAnArray: rules.notAnArray
        case .empty: rules.empty
        case .unknownService: rules.unknownService
        case .scheme: rules.scheme
        case .path: rules.path
        case .trailingSlash: rules.trailingSlash
        case .port: rules.port
        case .query: rules.query
        case .unknownMode: rules.unknownMode
        case .misplacedWildcard: rules.misplacedWildcard
        case .appClipWildcard: rules.appClipWildcard
        case .unexpandedVariable: rules.unexpandedVariable
        case .emptyHost: rules.emptyHost
        case .uppercase: rules.uppercase
        case .internationalized: rules.internationalized
        case .invalidHost: rules.invalidHost
        case .notFullyQualified: rules.notFullyQualified
        case .duplicate: rules.duplicate
        case .tooMany: rules.tooMany
        case .wildcardWithoutApex: rules.wildcardWithoutApex
        case .whitespace: rules.whitespace
        case .pendingBuildSetting: EntitlementsFileChecks.rules.unexpandedSetting
        }
    }

    /// The problems of a reading of the entitlement, as findings, in order.
    package static func findings(of problems: [AssociatedDomains.Located]) -> [Finding] {
        problems.map { located in
            rule(for: located.problem.kind).finding(
                located.problem.message,
                bundle: located.bundle,
                domain: located.domain,
                location: located.location,
                fix: located.problem.fix
            )
        }
    }

    /// Findings for alternate modes the build's signing makes useless: `?mode=developer` (or
    /// `developer+managed`) in a distribution-signed app, which iOS skips silently (Apple's associated-domains entitlement page).
    ///
    /// Judged with ``BundleFacts/signingKind(signed:profile:)``; nothing is reported when the signing kind is
    /// unknown (`nil`).
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
                rules.developerModeInDistribution.finding(
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
