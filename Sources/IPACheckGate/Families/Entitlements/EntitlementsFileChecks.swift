package import IPACheckReport

/// The ENT2xx rules: what a project's entitlements file (``EntitlementsFile``) leaves for Xcode to fill in, which
/// ipacheck cannot judge before the build.
package enum EntitlementsFileChecks {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet, EntryRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .bundleFacts }

        /// The set, its rules as declared below.
        package init() {}

        /// ENT201.
        package let unexpandedSetting = Rule(
            "ENT201",
            .warning,
            "build setting not expanded",
            summary: "A value of the entitlements file holds an Xcode build setting such as `$(AppIdentifierPrefix)` "
                + "or `$(DOMAIN)`; Xcode expands it when it signs, so ipacheck cannot know the value and leaves the "
                + "entry out of its checks.",
            fix: "Pass --app-id TEAMID.BUNDLE for the application identifier; for other values, check the built ipa "
                + "(or the .xcent Xcode writes into the build folder, where the settings are expanded)."
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// The application identifier that still holds a build setting, as a finding (nil when it holds none or
    /// `--app-id` stands in for it).
    package static func unexpandedAppID(_ written: String?, file: String) -> Finding? {
        written.map {
            rules.unexpandedSetting.finding(
                "application-identifier is \($0); pass --app-id with the identifier it expands to",
                bundle: file,
                location: "application-identifier"
            )
        }
    }
}
