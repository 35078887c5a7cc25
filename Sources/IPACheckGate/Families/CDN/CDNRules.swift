package import IPACheckReport

/// The `CDN` rules: what Apple's associated-domains CDN holds for a host (since iOS 14 devices read the file from Apple's CDN).
package enum CDNRules {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .hostFiles }

        /// The set, its rules as declared below.
        package init() {}

        /// Apple's copy of the host's file.
        package var linkPath: LinkPathPlace { .hostFile }

        /// The CDN has no usable copy and says why.
        package let noCopy = Rule(
            "CDN001",
            .error,
            "Apple's CDN has no copy",
            summary: "Devices on iOS 14 / macOS 11 and later get the AASA file from Apple's CDN, not from your server. "
                + "The CDN answered without a file, so this host's associated domains do not work on new installs.",
            fix: "Fix what Apple-Failure-Reason names, then wait for the CDN to refetch (failures are cached for the "
                + "Cache-Control max-age, usually 30–60 minutes) and reinstall the app."
        )

        /// The CDN copy means something different from the origin's file.
        package let stale = Rule(
            "CDN002",
            .warning,
            "Apple's CDN copy differs from the origin",
            summary: "The CDN's copy would associate different apps or rules than the file your server serves now, "
                + "so devices behave according to the old file until the CDN refreshes (within about a day) and "
                + "devices refetch (about weekly, or on reinstall).",
            fix: "Wait for the CDN to refresh; reinstall the app on test devices. There is no CDN invalidation."
        )

        /// The CDN copy agrees with the origin.
        package let current = Rule(
            "CDN003",
            .note,
            "Apple's CDN copy matches the origin",
            summary: "The CDN serves a copy that means the same as the origin's file (it may be re-serialized).",
            fix: "Nothing to do."
        )

        /// The CDN could not be asked, or answered in an unexpected way.
        package let unavailable = Rule(
            "CDN004",
            .warning,
            "Apple's CDN could not be checked",
            summary: "The CDN lookup failed or returned something other than a file or a documented failure, so "
                + "ipacheck cannot tell what devices get.",
            fix: "Retry later; check the host name (the CDN answers 405 for names it cannot use) and your network."
        )

        /// The CDN step was skipped because of the entry's alternate mode.
        package let skippedForMode = Rule(
            "CDN005",
            .note,
            "Apple's CDN not used in this mode",
            summary: "Entries with ?mode=developer (and ?mode=managed on devices whose MDM enables direct downloads, "
                + "AssociatedDomainsEnableDirectDownloads) make the device fetch the file directly from your server, "
                + "bypassing the CDN, so only the origin was checked. Managed entries without direct downloads are "
                + "read from Apple's CDN like any other.",
            fix: "Nothing to do; remove ?mode= before App Store submission if this is a release build."
        )

        /// The CDN still serves a copy while the origin is broken.
        package let servingDespiteOriginFailure = Rule(
            "CDN006",
            .warning,
            "Apple's CDN still serves an older copy",
            summary: "The origin fails now, but the CDN still has a copy from an earlier fetch; devices keep working "
                + "only until the CDN refreshes and records the failure.",
            fix: "Fix the origin before the CDN's copy expires."
        )

        /// The CDN fetched a different URL than the `.well-known` one.
        package let fetchedElsewhere = Rule(
            "CDN007",
            .note,
            "Apple's CDN fetched another URL",
            summary: "Apple-From names the URL the CDN fetched; it is not this host's .well-known URL (for example the "
                + "root path, or another host).",
            fix: "Serve the file at https://HOST/.well-known/apple-app-site-association."
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

}
