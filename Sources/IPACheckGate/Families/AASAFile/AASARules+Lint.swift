import IPACheckAASA
import IPACheckReport

extension AASARules {
    /// The lint rules about the file's shape and its rules' reach (AASA101–AASA110); ``RuleSet/all`` lists them by
    /// reflection, so a rule added here is listed.
    struct LintRules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .hostFiles }

        /// The set, its rules as declared below.
        init() {}

        /// The content of the host's file.
        var linkPath: LinkPathPlace { .hostFile }

        let mixedPathsAndComponents = Rule(
            "AASA101",
            .warning,
            "paths next to components",
            summary:
                "A details entry with a components array ignores its paths (docs/matching.md#m21); TN3155 (2025-05): \"Please avoid "
                + "mixing formats. Doing so may result in unexpected behavior for universal links.\"",
            fix: "Keep one format per entry: components (iOS 13+) or, only for iOS 12 and older, paths.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "paths": ["/products/*"],
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

        let appIDBesideAppIDs = Rule(
            "AASA102",
            .warning,
            "appID next to appIDs",
            summary: "When appIDs is present (even empty), iOS ignores appID (docs/matching.md#m20).",
            fix: "Move the app ID into the appIDs array and delete appID.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "appID": "A1B2C3D4E5.com.acme.shop",
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

        let legacyAppsNotEmpty = Rule(
            "AASA103",
            .warning,
            "applinks.apps is not an empty array",
            summary:
                "The legacy format requires \"apps\": [] in applinks; anything else is wrong (the archived guide).",
            fix: "Set \"apps\": [] or remove the key (iOS 13+ does not need it).",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "apps": ["A1B2C3D4E5.com.acme.shop"],
                        "details": [{"appID": "A1B2C3D4E5.com.acme.shop", "paths": ["/products/*"]}]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "apps": [],
                        "details": [{"appID": "A1B2C3D4E5.com.acme.shop", "paths": ["/products/*"]}]
                      }
                    }
                    """
                ]
            )
        )

        let unreachableRule = Rule(
            "AASA104",
            .warning,
            "rule can never fire",
            summary: "An earlier rule matches every URL this one would, and the first match wins "
                + "(docs/matching.md#m1).",
            fix: "Move the specific rule before the broader one, or delete it.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/*"},
                          {"/": "/account/*", "exclude": true}
                        ]
                        """
                    ),
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/products/*"},
                          {"/": "/products/sale"}
                        ]
                        """
                    ),
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/account/*", "exclude": true},
                          {"/": "/*"}
                        ]
                        """
                    ),
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/products/sale"},
                          {"/": "/products/*"}
                        ]
                        """
                    ),
                ]
            )
        )

        let duplicateRule = Rule(
            "AASA105",
            .warning,
            "duplicate rule",
            summary: "The rule has the same effect as an earlier one, so it never decides anything.",
            fix: "Delete the duplicate.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/products/*"},
                          {"/": "/cart"},
                          {"/": "/products/*"}
                        ]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/products/*"},
                          {"/": "/cart"}
                        ]
                        """
                    )
                ]
            )
        )

        let repeatedAppID = Rule(
            "AASA106",
            .warning,
            "app ID in more than one details entry",
            summary: "swcd keeps one entry per (service, app ID, domain): only the first details entry listing an app "
                + "applies to it (docs/matching.md#m22).",
            fix: "Merge the rules into the first entry that lists the app.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [
                          {"appIDs": ["A1B2C3D4E5.com.acme.shop"], "components": [{"/": "/products/*"}]},
                          {"appIDs": ["A1B2C3D4E5.com.acme.shop"], "components": [{"/": "/orders/*"}]}
                        ]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/products/*"},
                          {"/": "/orders/*"}
                        ]
                        """
                    )
                ]
            )
        )

        let unknownComponentKey = Rule(
            "AASA107",
            .warning,
            "unknown key in a component or defaults",
            summary: "Apple silently ignores unknown keys (docs/matching.md#m18); a misspelled \"/\" (\"path\") or "
                + "\"caseSensitive\" (\"casesensitive\") turns the rule into a broader one, often a catch-all.",
            fix: "Use the documented keys: /, ?, #, exclude, comment, caseSensitive, percentEncoded.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/products/*", "casesensitive": false}]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/products/*", "caseSensitive": false}]
                        """
                    )
                ]
            )
        )

        let excludesEverything = Rule(
            "AASA108",
            .error,
            "exclude that excludes too much",
            summary: "The exclude rule matches every URL (or more than intended: a query item pattern \"*\" also holds "
                + "when the item is absent: docs/matching.md#m3, #m10), so links break.",
            fix: "Constrain the exclude, e.g. require a query item with \"?*\" instead of \"*\".",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "*", "exclude": true},
                          {"/": "/products/*"}
                        ]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/products/drafts/*", "exclude": true},
                          {"/": "/products/*"}
                        ]
                        """
                    )
                ]
            )
        )

        let questionMarkInPath = Rule(
            "AASA109",
            .warning,
            "query written into a path pattern",
            summary: "In a path pattern, ? matches any single character; the path never contains the query.",
            fix: "Match the query with the \"?\" key of a component.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/search?q=*"}]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/search", "?": {"q": "?*"}}]
                        """
                    )
                ]
            )
        )

        let hashInPath = Rule(
            "AASA110",
            .warning,
            "fragment (hash route) written into a path pattern",
            summary: "# starts the URL fragment, so a path pattern containing # never matches a hash-router URL "
                + "(docs/matching.md#m13).",
            fix: "Match hash routes with the \"#\" key of a component.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/#/settings*"}]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/", "#": "/settings*"}]
                        """
                    )
                ]
            )
        )
    }

    /// The rules declared here.
    static let lint = LintRules()
}
