import IPACheckReport

extension AASARules {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    struct LintRules: RuleSet {
        /// The set, its rules as declared below.
        init() {}

        let mixedPathsAndComponents = Rule(
            "AASA101",
            .warning,
            "paths next to components",
            summary: "A details entry with a components array ignores its paths (M21); TN3155: \"Don't mix and match "
                + "these formats or universal links won't work.\"",
            fix: "Keep one format per entry: components (iOS 13+) or, only for iOS 12 and older, paths.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "paths": ["/products/*"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let appIDBesideAppIDs = Rule(
            "AASA102",
            .warning,
            "appID next to appIDs",
            summary: "When appIDs is present (even empty), iOS ignores appID (M20).",
            fix: "Move the app ID into the appIDs array and delete appID.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "appID": "A1B2C3D4E5.com.acme.shop",
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
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
            summary: "An earlier rule matches every URL this one would, and the first match wins (M1).",
            fix: "Move the specific rule before the broader one, or delete it.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/*"},
                            {"/": "/account/*", "exclude": true}
                          ]
                        }]
                      }
                    }
                    """,
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/products/*"},
                            {"/": "/products/sale"}
                          ]
                        }]
                      }
                    }
                    """,
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/account/*", "exclude": true},
                            {"/": "/*"}
                          ]
                        }]
                      }
                    }
                    """,
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/products/sale"},
                            {"/": "/products/*"}
                          ]
                        }]
                      }
                    }
                    """,
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
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/products/*"},
                            {"/": "/cart"},
                            {"/": "/products/*"}
                          ]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/products/*"},
                            {"/": "/cart"}
                          ]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let repeatedAppID = Rule(
            "AASA106",
            .warning,
            "app ID in more than one details entry",
            summary: "swcd keeps one entry per (service, app ID, domain): only the first details entry listing an app "
                + "applies to it (M22).",
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
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/products/*"},
                            {"/": "/orders/*"}
                          ]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let unknownComponentKey = Rule(
            "AASA107",
            .warning,
            "unknown key in a component or defaults",
            summary: "Apple silently ignores unknown keys (M18); a misspelled \"/\" (\"path\") or \"caseSensitive\" "
                + "(\"casesensitive\") turns the rule into a broader one, often a catch-all.",
            fix: "Use the documented keys: /, ?, #, exclude, comment, caseSensitive, percentEncoded.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*", "casesensitive": false}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*", "caseSensitive": false}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let excludesEverything = Rule(
            "AASA108",
            .error,
            "exclude that excludes too much",
            summary: "The exclude rule matches every URL (or more than intended: a query item pattern \"*\" also holds "
                + "when the item is absent, M3+M10), so links break.",
            fix: "Constrain the exclude, e.g. require a query item with \"?*\" instead of \"*\".",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "*", "exclude": true},
                            {"/": "/products/*"}
                          ]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/products/drafts/*", "exclude": true},
                            {"/": "/products/*"}
                          ]
                        }]
                      }
                    }
                    """
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
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/search?q=*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/search", "?": {"q": "?*"}}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let hashInPath = Rule(
            "AASA110",
            .warning,
            "fragment (hash route) written into a path pattern",
            summary: "# starts the URL fragment, so a path pattern containing # never matches a hash-router URL (M13).",
            fix: "Match hash routes with the \"#\" key of a component.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/#/settings*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/", "#": "/settings*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let trailingExclude = Rule(
            "AASA111",
            .warning,
            "exclude after every accepting rule",
            summary: "An exclude (or NOT path) after which no rule could accept a URL has no effect: with first match "
                + "wins, such URLs are not matched anyway.",
            fix: "Move the exclude before the broader rule it is meant to carve out of, or delete it.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/products/*"},
                            {"/": "/admin/*", "exclude": true}
                          ]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/admin/*", "exclude": true},
                            {"/": "/products/*"}
                          ]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let malformedAppID = Rule(
            "AASA112",
            .error,
            "malformed app ID",
            summary:
                "An app ID is the 10-character App ID prefix (Team ID), a dot and the bundle ID; anything else never "
                + "equals the app's application-identifier.",
            fix: "Copy application-identifier from the signed app (ipacheck entitlements APP.ipa).",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """,
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["a1b2c3d4e5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """,
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let placeholderAppID = Rule(
            "AASA113",
            .warning,
            "placeholder app ID",
            summary: "The app ID looks like a template value (FAKETEAMID, ABCDE12345, com.example…), not a real app.",
            fix: "Replace it with the app's real application-identifier.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["ABCDE12345.com.example.app"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let undefinedVariable = Rule(
            "AASA114",
            .error,
            "undefined substitution variable",
            summary: "The pattern uses $(name) that is neither predefined (alpha, upper, lower, alnum, digit, xdigit, "
                + "region, lang) nor defined in substitutionVariables.",
            fix: "Define the variable in applinks.substitutionVariables or fix its name (names are case-sensitive).",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/$(locale)/products/*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "substitutionVariables": {"locale": ["en-us", "fr-fr"]},
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/$(locale)/products/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let unterminatedVariable = Rule(
            "AASA115",
            .warning,
            "unterminated substitution variable",
            summary: "A pattern has \"$(\" without a closing \")\".",
            fix: "Close the variable reference: $(name).",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/$(lang/products/*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/$(lang)/products/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let nonStringQueryValue = Rule(
            "AASA116",
            .error,
            "non-string query predicate",
            summary:
                "One non-string value (true, 5, null, array, object) makes Apple ignore the whole \"?\" dictionary, "
                + "so the rule matches any query (M12).",
            fix: "Quote the value: \"flag\": \"true\", or use \"?*\" to require any value.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/search", "?": {"q": "?*", "beta": true}}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/search", "?": {"q": "?*", "beta": "true"}}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let wrongType = Rule(
            "AASA117",
            .error,
            "wrong JSON type",
            summary: "A key has a JSON type Apple does not accept; Apple ignores the value as if it were absent.",
            fix: "Use the documented type (strings for patterns and app IDs, booleans for flags, arrays for lists).",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*", "caseSensitive": "false"}]
                        }]
                      }
                    }
                    """,
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": "A1B2C3D4E5.com.acme.shop",
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """,
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*", "caseSensitive": false}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let unknownKey = Rule(
            "AASA118",
            .warning,
            "unknown key",
            summary:
                "Apple ignores keys it does not know; a misspelled service or key disables what it was meant to do.",
            fix: "Check the spelling against Apple's documentation; delete keys that are not used.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applink": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """,
                    """
                    {
                      "applinks": {
                        "detail": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """,
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let legacyDetailsDictionary = Rule(
            "AASA119",
            .warning,
            "details as a dictionary",
            summary: "The oldest format keys details by app ID; JSON objects have no order, so the evaluation order of "
                + "apps is undefined.",
            fix: "Use \"details\": [ {\"appIDs\": [...], \"components\": [...]} ].",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": {
                          "A1B2C3D4E5.com.acme.shop": {"paths": ["/products/*"]},
                          "A1B2C3D4E5.com.acme.shop.beta": {"paths": ["/products/*"]}
                        }
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop", "A1B2C3D4E5.com.acme.shop.beta"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let badSubstitutionVariable = Rule(
            "AASA120",
            .warning,
            "questionable substitution variable",
            summary: "Variable names cannot contain $, ( or ); values cannot reference variables; an empty list never "
                + "matches; redefining a predefined name is undocumented.",
            fix: "Follow applinks.SubstitutionVariables: plain names, non-empty string lists without $(…).",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "substitutionVariables": {"category": []},
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/$(category)/*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "substitutionVariables": {"category": ["shoes", "hats"]},
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/$(category)/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let detailWithoutRules = Rule(
            "AASA121",
            .warning,
            "details entry without rules",
            summary: "Without components or paths (or with an empty components array, M21) the entry matches no URL.",
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
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let detailWithoutAppIDs = Rule(
            "AASA122",
            .warning,
            "details entry without app IDs",
            summary: "An entry with an empty appIDs array (or no appID) applies to no app; appIDs [] even hides appID "
                + "(M20).",
            fix: "List the app IDs in appIDs.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": [],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
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
                "A missing query item counts as empty and \"*\" matches empty (M10), so {\"id\": \"*\"} accepts URLs "
                + "without id.",
            fix: "Use \"?*\" to require a non-empty value.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/product", "?": {"id": "*"}}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/product", "?": {"id": "?*"}}]
                        }]
                      }
                    }
                    """
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
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
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
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let appIDLostBesideAppIDs = Rule(
            "AASA127",
            .error,
            "appID lost next to appIDs",
            summary:
                "When appIDs is present (even empty), iOS ignores appID (M20); here the appID is not in appIDs, so "
                + "that app gets nothing from the entry.",
            fix: "Move the app ID into the appIDs array and delete appID.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop.Clip"],
                          "appID": "A1B2C3D4E5.com.acme.shop",
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop", "A1B2C3D4E5.com.acme.shop.Clip"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let excludeBroaderThanItLooks = Rule(
            "AASA128",
            .warning,
            "exclude broader than it looks",
            summary:
                "The exclude covers more than its pattern suggests: exclude: true in defaults makes every component "
                + "exclude unless it says otherwise, and a query item \"*\" also holds when the item is absent (M3, M10).",
            fix: "Set exclude only on the components that should block; require a query item with \"?*\".",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/products/*", "?": {"preview": "*"}, "exclude": true},
                            {"/": "/products/*"}
                          ]
                        }]
                      }
                    }
                    """,
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "defaults": {"exclude": true},
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """,
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [
                            {"/": "/products/*", "?": {"preview": "?*"}, "exclude": true},
                            {"/": "/products/*"}
                          ]
                        }]
                      }
                    }
                    """
                ]
            )
        )

        let misspelledKeyCatchAll = Rule(
            "AASA129",
            .error,
            "misspelled key makes a catch-all",
            summary: "Apple ignores unknown keys (M18): with its pattern key misspelled (\"path\" for \"/\"), the "
                + "component matches every URL, so the app opens links it was never meant to.",
            fix: "Use the documented keys: /, ?, #, exclude, comment, caseSensitive, percentEncoded.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"path": "/products/*"}]
                        }]
                      }
                    }
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """
                ]
            )
        )
    }

    /// The rules declared here.
    static let lint = LintRules()
}
