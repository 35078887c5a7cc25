import IPACheckAASA
import IPACheckReport

extension AASARules {
    /// The lint rules about details entries and their components (AASA121–AASA129); ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    struct LintEntryRules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .hostFiles }

        /// The set, its rules as declared below.
        init() {}

        /// The content of the host's file.
        var linkPath: LinkPathPlace { .hostFile }

        let detailWithoutRules = Rule(
            "AASA121",
            .warning,
            "details entry without rules",
            summary:
                "Without components or paths (or with an empty components array: docs/matching.md#m21) the entry "
                + "matches no URL.",
            fix: "Add components (e.g. {\"/\": \"*\"} to match everything).",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{"appIDs": ["A1B2C3D4E5.com.acme.shop"]}]
                      }
                    }
                    """,
                    """
                    {
                      "applinks": {
                        "details": [{"appIDs": ["A1B2C3D4E5.com.acme.shop"], "components": []}]
                      }
                    }
                    """,
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    )
                ]
            )
        )

        let detailWithoutAppIDs = Rule(
            "AASA122",
            .warning,
            "details entry without app IDs",
            summary: "An entry with an empty appIDs array (or no appID) applies to no app; appIDs [] even hides appID "
                + "(docs/matching.md#m20).",
            fix: "List the app IDs in appIDs.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        appIDs: #"[]"#,
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    )
                ]
            )
        )

        let emptyAppsArray = Rule(
            "AASA123",
            .note,
            "empty apps array",
            summary: "The service section lists no app, so it has no effect.",
            fix: "List the app IDs, or delete the section.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "webcredentials": {"apps": []}
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "webcredentials": {"apps": ["A1B2C3D4E5.com.acme.shop"]}
                    }
                    """
                ]
            )
        )

        let starQueryItem = Rule(
            "AASA124",
            .note,
            "query item \"*\" does not require the item",
            summary:
                "A missing query item counts as empty and \"*\" matches empty (docs/matching.md#m10), so {\"id\": \"*\"} accepts URLs "
                + "without id.",
            fix: "Use \"?*\" to require a non-empty value.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/product", "?": {"id": "*"}}]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/product", "?": {"id": "?*"}}]
                        """
                    )
                ]
            )
        )

        let ignoredExtraKey = Rule(
            "AASA125",
            .note,
            "ignored extra key",
            summary:
                "A key that is no known service or field and resembles none: Apple ignores it, and nothing is lost.",
            fix: "Delete it to keep the file clear.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "version": 2,
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    )
                ]
            )
        )

        let singleAppDetailsDictionary = Rule(
            "AASA126",
            .note,
            "details as a dictionary (one app)",
            summary: "The oldest format keys details by app ID; with a single app the missing order does not matter.",
            fix: "Use \"details\": [ {\"appIDs\": [...], \"components\": [...]} ] before adding a second app.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": {
                          "A1B2C3D4E5.com.acme.shop": {"paths": ["/products/*"]}
                        }
                      }
                    }
                    """
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    )
                ]
            )
        )

        let appIDLostBesideAppIDs = Rule(
            "AASA127",
            .error,
            "appID lost next to appIDs",
            summary:
                "When appIDs is present (even empty), iOS ignores appID (docs/matching.md#m20); here the appID is not in appIDs, so "
                + "that app gets nothing from the entry.",
            fix: "Move the app ID into the appIDs array and delete appID.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        appIDs: #"["A1B2C3D4E5.com.acme.shop.Clip"]"#,
                        """
                        "appID": "A1B2C3D4E5.com.acme.shop",
                        "components": [{"/": "/products/*"}]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        appIDs: #"["A1B2C3D4E5.com.acme.shop", "A1B2C3D4E5.com.acme.shop.Clip"]"#,
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    )
                ]
            )
        )

        let excludeBroaderThanItLooks = Rule(
            "AASA128",
            .warning,
            "exclude broader than it looks",
            summary:
                "The exclude covers more than its pattern suggests: exclude: true in defaults makes every component "
                + "exclude unless it says otherwise, and a query item \"*\" also holds when the item is absent (docs/matching.md#m3, #m10).",
            fix: "Set exclude only on the components that should block; require a query item with \"?*\".",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/products/*", "?": {"preview": "*"}, "exclude": true},
                          {"/": "/products/*"}
                        ]
                        """
                    ),
                    AASAExample.detail(
                        """
                        "defaults": {"exclude": true},
                        "components": [{"/": "/products/*"}]
                        """
                    ),
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/products/*", "?": {"preview": "?*"}, "exclude": true},
                          {"/": "/products/*"}
                        ]
                        """
                    )
                ]
            )
        )

        let misspelledKeyCatchAll = Rule(
            "AASA129",
            .error,
            "misspelled key makes a catch-all",
            summary: "Apple ignores unknown keys (docs/matching.md#m18): with its pattern key misspelled (\"path\" for "
                + "\"/\"), the component matches every URL, so the app opens links it was never meant to.",
            fix: "Use the documented keys: /, ?, #, exclude, comment, caseSensitive, percentEncoded.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [{"path": "/products/*"}]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    )
                ]
            )
        )
    }

    /// The rules declared here.
    static let lintEntries = LintEntryRules()
}
