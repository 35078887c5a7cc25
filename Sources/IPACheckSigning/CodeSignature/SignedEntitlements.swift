package import IPACheckBinary
package import IPACheckPlist
package import IPACheckReport

/// The entitlements one slice's signature carries: the XML blob, the DER blob, and which one iOS obeys.
package struct SignedEntitlements: Hashable, Sendable {

    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: RuleSet {
        /// The set, its rules as declared below.
        package init() {}

        /// SIG020: the XML and DER entitlements say different things.
        package let xmlDERDisagree = Rule(
            "SIG020",
            .error,
            "XML and DER entitlements differ",
            summary:
                "The signature's XML entitlements and DER entitlements are not the same dictionary. iOS 15 and later "
                + "obey the DER form, so the app runs with entitlements other than the ones you read in the XML.",
            fix: "Re-sign with a current codesign, which writes both forms from one entitlements file."
        )

        /// SIG021: an entitlements blob cannot be decoded.
        package let malformed = Rule(
            "SIG021",
            .error,
            "entitlements blob unreadable",
            summary: "The XML or DER entitlements blob of the signature is not a valid plist / DER dictionary.",
            fix: "Re-sign the binary with a well-formed entitlements file."
        )

        /// SIG022: slices of a fat binary carry different entitlements.
        package let slicesDisagree = Rule(
            "SIG022",
            .error,
            "architectures carry different entitlements",
            summary:
                "The slices of a universal binary are signed with different entitlements, so the app's capabilities "
                + "depend on the device's architecture.",
            fix: "Sign every architecture with the same entitlements file (re-run codesign on the universal binary)."
        )

        /// SIG023: XML entitlements without the DER form.
        ///
        /// An error wherever the signature is the one devices run: Apple re-signs only App Store and TestFlight
        /// builds (docs/ios-model.md#changes I61), so in a gate for the App Store it is not raised.
        package let noDER = Rule(
            "SIG023",
            .error,
            "no DER entitlements",
            summary:
                "The signature has XML entitlements but no DER entitlements blob; iOS 15 and later require the DER form "
                + "and refuse to launch such apps (ad hoc, enterprise and development builds run the signature as "
                + "exported; Apple re-signs only App Store and TestFlight builds).",
            fix: "Re-sign with Xcode 13 / codesign from macOS 11.3 or later, which adds DER entitlements."
        )

        /// SIG024: the entitlements are not a dictionary.
        package let notDictionary = Rule(
            "SIG024",
            .error,
            "entitlements are not a dictionary",
            summary: "The entitlements blob decodes, but its top level is not a dictionary.",
            fix: "Re-sign with an entitlements plist whose root is a <dict>."
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// The XML blob decoded, if present and readable.
    package let xml: PlistValue?
    /// The DER blob decoded, if present and readable.
    package let der: PlistValue?
    /// Whether the slice has an XML entitlements blob.
    package let hasXMLBlob: Bool
    /// Whether the slice has a DER entitlements blob.
    package let hasDERBlob: Bool
    /// Problems found reading or comparing the two.
    package let findings: [Finding]

    /// Whether XML and DER agree (`nil` unless both are present and readable).
    package var agree: Bool? {
        guard let xml, let der else { return nil }
        return xml == der
    }

    /// What iOS obeys: the DER entitlements where present (iOS 15+), else the XML ones.
    package var effective: PlistValue? { der ?? xml }

    /// Reads the entitlements of one slice's signature; `context` names the slice in findings (`arm64`).
    package static func read(_ signature: CodeSignature, context: String, bundle: String? = nil) -> SignedEntitlements {
        var findings: [Finding] = []
        var xml: PlistValue?
        var der: PlistValue?
        if let blob = signature.xmlEntitlements {
            do {
                xml = try PlistParser.parse(blob.payload)
            } catch {
                findings.append(
                    SignedEntitlements.rules.malformed.finding(
                        "The XML entitlements: \(error.reason).",
                        bundle: bundle,
                        affects: [context]
                    )
                )
            }
        }
        if let blob = signature.derEntitlements {
            do {
                der = try DEREntitlements.decode(blob.payload)
            } catch {
                findings.append(
                    SignedEntitlements.rules.malformed.finding(
                        "The \(error.description).",
                        bundle: bundle,
                        affects: [context]
                    )
                )
            }
        }
        for (name, value) in [("XML", xml), ("DER", der)] {
            if let value, value.dictionaryValue == nil {
                findings.append(
                    SignedEntitlements.rules.notDictionary.finding(
                        "The \(name) entitlements are \(value.typeNameWithArticle).",
                        bundle: bundle,
                        affects: [context]
                    )
                )
            }
        }
        if let xml, let der, xml != der {
            findings.append(
                SignedEntitlements.rules.xmlDERDisagree.finding(
                    "The XML and DER entitlements differ (\(differences(xml, der))).",
                    bundle: bundle,
                    affects: [context]
                )
            )
        }
        if signature.xmlEntitlements != nil, signature.derEntitlements == nil {
            findings.append(
                SignedEntitlements.rules.noDER.finding(
                    "The signature has XML entitlements only.",
                    bundle: bundle,
                    affects: [context]
                )
            )
        }
        return SignedEntitlements(
            xml: xml,
            der: der,
            hasXMLBlob: signature.xmlEntitlements != nil,
            hasDERBlob: signature.derEntitlements != nil,
            findings: findings
        )
    }

    /// Compares the effective entitlements of every slice (`(architecture, entitlements)` pairs) and reports
    /// the slices that differ from the first.
    package static func compareSlices(_ slices: [(String, SignedEntitlements)], bundle: String? = nil) -> [Finding] {
        guard let (firstArch, first) = slices.first else { return [] }
        var findings: [Finding] = []
        for (arch, entitlements) in slices.dropFirst() where entitlements.effective != first.effective {
            let detail: String
            if let left = first.effective, let right = entitlements.effective {
                detail = differences(left, right)
            } else {
                detail = "one has none"
            }
            findings.append(
                SignedEntitlements.rules.slicesDisagree.finding(
                    "The \(arch) slice's entitlements differ from the \(firstArch) slice's (\(detail)).",
                    bundle: bundle
                )
            )
        }
        return findings
    }

    /// The top-level keys whose values differ, for messages (`keys differ: get-task-allow`).
    static func differences(_ left: PlistValue, _ right: PlistValue) -> String {
        guard let lhs = left.dictionaryValue, let rhs = right.dictionaryValue else { return "different types" }
        let keys = Set(lhs.keys).union(rhs.keys).filter { lhs[$0] != rhs[$0] }.sorted()
        return "keys differ: " + keys.joined(separator: ", ")
    }
}
