import IPACheckAASA
package import IPACheckReport

extension AASARules {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct DocumentRules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .hostFiles }

        /// The set, its rules as declared below.
        init() {}

        /// The content of the host's file.
        package var linkPath: LinkPathPlace { .hostFile }

        let byteOrderMark = Rule(
            "AASA008",
            .warning,
            "AASA file starts with a byte order mark",
            summary: "A UTF-8 BOM is not part of JSON (RFC 8259 forbids emitting it). ipacheck skips it, as Apple's "
                + "Foundation-based reader is believed to, but other validators and some CDNs reject the file.",
            fix: "Save the file as UTF-8 without BOM.",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    """
                    \u{FEFF}{
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

        let duplicateKey = Rule(
            "AASA009",
            .warning,
            "duplicate JSON key",
            summary: "The same key appears twice in one object; Apple's parser keeps only one value (the last), so "
                + "the other is silently lost.",
            fix: "Merge the two values under one key (for details, one entry per app).",
            examples: RuleExamples(
                .aasaDocument,
                triggering: [
                    AASAExample.detail(
                        """
                        "components": [{"/": "/orders/*"}],
                        "components": [{"/": "/products/*"}]
                        """
                    )
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

        package let overSizeLimit = Rule(
            "AASA010",
            .error,
            "AASA file over 128 KB",
            summary: "Since iOS 9.3.1 Apple ignores AASA files whose uncompressed size exceeds 128 KB (131072 bytes); "
                + "the limit is documented only in archived pages but still cited.",
            fix: "Shrink the file: use wildcards, substitution variables and exclude rules instead of listing paths."
        )

        let signedFile = Rule(
            "AASA011",
            .warning,
            "signed AASA file (obsolete)",
            summary: "CMS signing was needed only for iOS 8; a signed file breaks silently when its certificate "
                + "expires (QA1916). The signer and its expiry are reported.",
            fix: "Serve the plain JSON with Content-Type application/json over HTTPS."
        )

        /// A signed file whose signature fails or whose signing certificate has expired.
        let brokenSignature = Rule(
            "AASA012",
            .error,
            "signed AASA file with a broken signature or expired certificate",
            summary: "The file is CMS-signed, and its signature does not verify or its signing certificate has "
                + "expired; QA1916 lists this among the causes of universal links that stop working.",
            fix: "Serve the plain JSON (no signature) with Content-Type application/json over HTTPS."
        )
    }

    /// The rules declared here.
    package static let document = DocumentRules()
}
