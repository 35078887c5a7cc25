import IPACheckAASA
import IPACheckReport

extension AASARules {
    /// The lint rules about values: app IDs, substitution variables, types and keys (AASA111–AASA120); ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    struct LintValueRules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .hostFiles }

        /// The set, its rules as declared below.
        init() {}

        /// The content of the host's file.
        var linkPath: LinkPathPlace { .hostFile }

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
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/products/*"},
                          {"/": "/admin/*", "exclude": true}
                        ]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/admin/*", "exclude": true},
                          {"/": "/products/*"}
                        ]
                        """
                    )
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
                    AASAExample.detail(
                        appIDs: #"["com.acme.shop"]"#,
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    ),
                    AASAExample.detail(
                        appIDs: #"["a1b2c3d4e5.com.acme.shop"]"#,
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    ),
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

        let placeholderAppID = Rule(
            "AASA113",
            .warning,
            "placeholder app ID",
            summary: "The app ID looks like a template value (FAKETEAMID, ABCDE12345, com.example…), not a real app.",
            fix: "Replace it with the app's real application-identifier.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        appIDs: #"["ABCDE12345.com.example.app"]"#,
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
                    AASAExample.detail(
                        """
                        "components": [{"/": "/$(locale)/products/*"}]
                        """
                    )
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
                    AASAExample.detail(
                        """
                        "components": [{"/": "/$(lang/products/*"}]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/$(lang)/products/*"}]
                        """
                    )
                ]
            )
        )

        let nonStringQueryValue = Rule(
            "AASA116",
            .error,
            "non-string query predicate",
            summary:
                "One non-string value (true, 5, null, array, object) makes Apple ignore the whole \"?\" dictionary, "
                + "so the rule matches any query (docs/matching.md#m12).",
            fix: "Quote the value: \"flag\": \"true\", or use \"?*\" to require any value.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/search", "?": {"q": "?*", "beta": true}}]
                        """
                    )
                ],
                nonTriggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/search", "?": {"q": "?*", "beta": "true"}}]
                        """
                    )
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
                    AASAExample.detail(
                        """
                        "components": [{"/": "/products/*", "caseSensitive": "false"}]
                        """
                    ),
                    AASAExample.detail(
                        appIDs: #""A1B2C3D4E5.com.acme.shop""#,
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    ),
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
                    AASAExample.detail(
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    )
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
                    AASAExample.detail(
                        appIDs: #"["A1B2C3D4E5.com.acme.shop", "A1B2C3D4E5.com.acme.shop.beta"]"#,
                        """
                        "components": [{"/": "/products/*"}]
                        """
                    )
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
    }

    /// The rules declared here.
    static let lintValues = LintValueRules()
}
