import IPACheckAASA
package import IPACheckReport

/// The catalogue of every rule the AASA engine raises, for `ipacheck rules`, the README table and SARIF.
///
/// Each rule is declared once, in an extension beside the code that raises it.
package enum AASARules {
    /// Every AASA rule, ordered by ID.
    package static var all: [Rule] {
        sets.flatMap(\.all).sorted { $0.id < $1.id }
    }

    /// The sets the AASA rules are declared in: the document's own, parsing's and linting's.
    package static let sets: [any RuleSet] = [rules, document, lint, lintValues, lintEntries]

    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .hostFiles }

        /// The set, its rules as declared below.
        init() {}

        /// The content of the host's file.
        var linkPath: LinkPathPlace { .hostFile }

        let emptyFile = Rule(
            "AASA001",
            .error,
            "empty AASA file",
            summary: "The file has no content, so the domain associates with no app.",
            fix: "Serve the JSON document itself at /.well-known/apple-app-site-association.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    "",
                    "\u{FEFF}\n",
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

        let invalidUTF8 = Rule(
            "AASA002",
            .error,
            "AASA file is not UTF-8",
            summary: "JSON must be UTF-8; Apple cannot read a file with invalid byte sequences.",
            fix: "Save the file as UTF-8 (without a byte order mark)."
        )

        let invalidJSON = Rule(
            "AASA003",
            .error,
            "AASA file is not valid JSON",
            summary: "Apple parses the file as strict JSON: trailing commas, comments, single quotes, unquoted keys or "
                + "junk after the document make the whole file unusable.",
            fix: "Fix the syntax at the reported position; validate with a strict JSON parser (python3 -m json.tool).",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [
                          {"/": "/products/*"},
                          {"/": "/orders/*"},
                        ]
                        """
                    ),
                    """
                    {
                      // universal links
                      "applinks": {
                        "details": [{
                          "appIDs": ["A1B2C3D4E5.com.acme.shop"],
                          "components": [{"/": "/products/*"}]
                        }]
                      }
                    }
                    """,
                    """
                    {
                      'applinks': {
                        'details': [{'appIDs': ['A1B2C3D4E5.com.acme.shop'], 'components': [{'/': '/*'}]}]
                      }
                    }
                    """,
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

        let rootNotObject = Rule(
            "AASA004",
            .error,
            "AASA root is not a JSON object",
            summary: "The document must be an object with service keys such as \"applinks\" and \"webcredentials\".",
            fix: "Wrap the content in { \"applinks\": { \"details\": [ … ] } }.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    [
                      {"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.shop"], "components": [{"/": "/*"}]}]}}
                    ]
                    """
                ],
                nonTriggering: [
                    """
                    {
                      "applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.shop"], "components": [{"/": "/*"}]}]}
                    }
                    """
                ]
            )
        )

        let tooDeep = Rule(
            "AASA005",
            .error,
            "AASA JSON nested too deeply",
            summary: "No real AASA document nests this deep; the file is refused to protect the reader.",
            fix: "Flatten the document; AASA files need at most six levels.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    {
                      "applinks": {
                        "details":
                          [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
                          [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
                          ]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
                          ]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
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

        let tooLarge = Rule(
            "AASA006",
            .error,
            "AASA file far too large to read",
            summary: "The file exceeds the reader's hard cap, many times Apple's 128 KB limit.",
            fix: "Serve a file under 128 KB; use wildcards and substitution variables instead of listing every path."
        )

        let malformedCMS = Rule(
            "AASA007",
            .error,
            "malformed signed (CMS) AASA file",
            summary: "The file starts like a DER SignedData structure but it is truncated or not SignedData with "
                + "embedded content, so no JSON payload can be extracted.",
            fix: "Serve the plain JSON file with Content-Type application/json; signing is obsolete since iOS 9."
        )
    }

    /// The rules declared here.
    static let rules = Rules()
}
