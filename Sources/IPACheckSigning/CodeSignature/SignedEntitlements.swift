package import IPACheckBinary
package import IPACheckPlist

/// The entitlements one slice's signature carries: the XML blob, the DER blob, and which one iOS obeys.
package struct SignedEntitlements: Hashable, Sendable {

    /// The XML blob decoded, if present and readable.
    package let xml: PlistValue?
    /// The DER blob decoded, if present and readable.
    package let der: PlistValue?
    /// Whether the slice has an XML entitlements blob.
    package let hasXMLBlob: Bool
    /// Whether the slice has a DER entitlements blob.
    package let hasDERBlob: Bool
    /// Problems found reading or comparing the two.
    package let problems: [SigningProblem]

    /// Whether XML and DER agree (`nil` unless both are present and readable).
    package var agree: Bool? {
        guard let xml, let der else { return nil }
        return xml == der
    }

    /// What iOS obeys: the DER entitlements where present (iOS 15+), else the XML ones.
    package var effective: PlistValue? { der ?? xml }

    /// Reads the entitlements of one slice's signature; `context` names the slice in findings (`arm64`).
    package static func read(_ signature: CodeSignature, context: String, bundle: String? = nil) -> SignedEntitlements {
        var findings: [SigningProblem] = []
        var xml: PlistValue?
        var der: PlistValue?
        if let blob = signature.xmlEntitlements {
            do {
                xml = try PlistParser.parse(blob.payload)
            } catch {
                findings.append(
                    SigningProblem(
                        .malformed,
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
                    SigningProblem(
                        .malformed,
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
                    SigningProblem(
                        .notDictionary,
                        "The \(name) entitlements are \(value.typeNameWithArticle).",
                        bundle: bundle,
                        affects: [context]
                    )
                )
            }
        }
        if let xml, let der, xml != der {
            findings.append(
                SigningProblem(
                    .xmlDERDisagree,
                    "The XML and DER entitlements differ (\(differences(xml, der))).",
                    bundle: bundle,
                    affects: [context]
                )
            )
        }
        if signature.xmlEntitlements != nil, signature.derEntitlements == nil {
            findings.append(
                SigningProblem(
                    .noDER,
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
            problems: findings
        )
    }

    /// Compares the effective entitlements of every slice (`(architecture, entitlements)` pairs) and reports
    /// the slices that differ from the first.
    package static func compareSlices(
        _ slices: [(String, SignedEntitlements)],
        bundle: String? = nil
    ) -> [SigningProblem] {
        guard let (firstArch, first) = slices.first else { return [] }
        var findings: [SigningProblem] = []
        for (arch, entitlements) in slices.dropFirst() where entitlements.effective != first.effective {
            let detail: String
            if let left = first.effective, let right = entitlements.effective {
                detail = differences(left, right)
            } else {
                detail = "one has none"
            }
            findings.append(
                SigningProblem(
                    .slicesDisagree,
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
