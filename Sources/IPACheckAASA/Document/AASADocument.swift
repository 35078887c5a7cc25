package import Foundation
import IPACheckCMS
package import IPACheckReport

/// A parsed apple-app-site-association file: the JSON as written plus the model Apple's swcd builds from it.
///
/// Parsing is lenient where Apple is lenient (wrong types and unknown keys are ignored, as swcd does; ``AASALinter``
/// reports them) and strict where Apple is strict (the JSON syntax itself).
package struct AASADocument: Sendable {
    /// The size limits applied while reading.
    package enum Limits {
        /// Apple's documented limit (iOS 9.3.1+): more than this many bytes is an error finding.
        package static let appleByteLimit = 131_072
        /// Beyond this the file is not read at all.
        package static let hardByteCap = 8 * 1024 * 1024
        /// Deepest JSON nesting accepted (real files need about 6).
        package static let maximumDepth = 64
    }

    /// The JSON document (the CMS payload for signed files, without any BOM).
    package let root: AASAJSON
    /// The size of the file as given, envelope included.
    package let byteCount: Int
    /// The CMS envelope, when the file was signed (iOS 8 style).
    package let signedEnvelope: AASASignedEnvelope?
    /// The `applinks` object, when present and an object.
    package let applinks: AASAAppLinks?
    /// The `apps` lists of `webcredentials`, `appclips` and `activitycontinuation` (string elements only).
    package let serviceApps: [AASAService: [String]]

    /// Parses an AASA file: plain JSON or CMS-signed, with findings about how it is encoded.
    ///
    /// Throws when Apple could not use the file at all (bad JSON, non-object root, broken CMS, far too large).
    /// The findings cover what Apple tolerates or what limits the file breaks (BOM, duplicate keys, 128 KB,
    /// signing); structural problems are ``AASALinter``'s job. `now` is when a signed file's certificate is judged.
    package static func parse(
        _ bytes: [UInt8],
        now: Date = Date()
    ) throws(AASAParseError) -> (document: AASADocument, findings: [Finding]) {
        guard bytes.count <= Limits.hardByteCap else {
            throw AASAParseError(
                .tooLarge,
                "the file has \(bytes.count) bytes, over the \(Limits.hardByteCap)-byte reading cap"
            )
        }
        var findings: [Finding] = []
        var json = bytes
        var envelope: AASASignedEnvelope?
        if AASASignedEnvelope.looksSigned(bytes) {
            let extracted = try AASASignedEnvelope.extract(from: bytes, now: now)
            envelope = extracted
            json = extracted.payload
            findings += signingFindings(extracted)
        }
        if json.starts(with: [0xEF, 0xBB, 0xBF]) {
            json.removeFirst(3)
            findings.append(
                AASARules.document.byteOrderMark.finding("the JSON starts with a UTF-8 byte order mark (EF BB BF)")
            )
        }
        if bytes.count > Limits.appleByteLimit {
            findings.append(
                AASARules.document.overSizeLimit.finding(
                    "the file has \(bytes.count) bytes, over Apple's limit of \(Limits.appleByteLimit) bytes (128 KB)"
                )
            )
        }
        var parser = StrictJSONParser(bytes: json, maximumDepth: Limits.maximumDepth)
        let root = try parser.parseDocument()
        for duplicate in parser.duplicates {
            findings.append(
                AASARules.document.duplicateKey.finding(
                    "key \"\(duplicate.key)\" appears more than once in \(duplicate.objectPath); "
                        + "only the last value is used",
                    location: "\(duplicate.objectPath) (\(duplicate.position))"
                )
            )
        }
        guard case .object = root else {
            throw AASAParseError(.rootNotObject, "the top-level JSON value is \(root.typeName), not an object")
        }
        return (AASADocument(root: root, byteCount: bytes.count, signedEnvelope: envelope), findings)
    }

    /// What a signed file's envelope says: always the obsolete-signing warning naming the signer and its expiry,
    /// and an error when the signature fails or the signing certificate has expired.
    private static func signingFindings(_ envelope: AASASignedEnvelope) -> [Finding] {
        guard let verification = envelope.verification else {
            return [
                AASARules.document.signedFile.finding(
                    "the file is CMS-signed (iOS 8 style) but names no signer; the JSON payload was read"
                )
            ]
        }
        let signer = verification.signer
        let name = signer?.subjectCommonName ?? signer?.subject ?? "an unknown certificate"
        let expiry = signer.map { " (valid until \(Self.day($0.notValidAfter)))" } ?? ""
        var findings = [
            AASARules.document.signedFile.finding(
                "the file is CMS-signed (iOS 8 style) by \(name)\(expiry); the \(envelope.payload.count)-byte JSON "
                    + "payload was read"
            )
        ]
        if !verification.signatureVerifies || verification.messageDigestMatches == false {
            findings.append(
                AASARules.document.brokenSignature.finding("the CMS signature over the file does not verify (\(name))")
            )
        } else if verification.signerValidAtNow == false, let signer {
            findings.append(
                AASARules.document.brokenSignature.finding(
                    "the signing certificate \(name) expired on \(Self.day(signer.notValidAfter))"
                )
            )
        }
        return findings
    }

    private static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// Builds the model from an already parsed JSON object, for callers that already hold the JSON.
    package init(root: AASAJSON, byteCount: Int = 0, signedEnvelope: AASASignedEnvelope? = nil) {
        self.root = root
        self.byteCount = byteCount
        self.signedEnvelope = signedEnvelope
        if case .object? = root["applinks"] {
            applinks = Self.readAppLinks(root["applinks"] ?? .null)
        } else {
            applinks = nil
        }
        var services: [AASAService: [String]] = [:]
        for service in AASAService.allCases where service != .applinks {
            if let apps = root[service.rawValue]?["apps"]?.arrayValue {
                services[service] = apps.compactMap(\.stringValue)
            }
        }
        serviceApps = services
    }

    /// The app IDs a service lists, in file order without repeats.
    ///
    /// For `applinks` these are the effective IDs of the details entries (M20), for the other services the
    /// string elements of their `apps` array.
    package func appIDs(for service: AASAService) -> [String] {
        var seen = Set<String>()
        let all: [String]
        if service == .applinks {
            all = applinks?.details.flatMap(\.appIDs) ?? []
        } else {
            all = serviceApps[service] ?? []
        }
        return all.filter { seen.insert($0).inserted }
    }

    /// The services the file has a usable section for, in ``AASAService`` order.
    package var services: [AASAService] {
        AASAService.allCases.filter { $0 == .applinks ? applinks != nil : serviceApps[$0] != nil }
    }

    /// The details entry whose rules apply to `appID`: the first one listing it (M22), if any.
    package func detail(for appID: String) -> AASADetail? {
        applinks?.details.first { $0.appIDs.contains(appID) }
    }

    // MARK: - Model building (mirrors swcd's leniency)

    private static func readAppLinks(_ object: AASAJSON) -> AASAAppLinks {
        var variables: [String: [String]] = [:]
        for member in object["substitutionVariables"]?.members ?? [] {
            if let values = member.value.arrayValue {
                variables[member.key] = values.compactMap(\.stringValue)
            }
        }
        var details: [AASADetail] = []
        var isDictionary = false
        switch object["details"] {
        case .array(let entries)?:
            for (index, entry) in entries.enumerated() where entry.members != nil {
                details.append(readDetail(entry, index: index, location: "applinks.details[\(index)]", keyedAppID: nil))
            }
        case .object(let members)?:
            isDictionary = true
            for (index, member) in members.enumerated() where member.value.members != nil {
                details.append(
                    readDetail(
                        member.value,
                        index: index,
                        location: "applinks.details[\"\(member.key)\"]",
                        keyedAppID: member.key
                    )
                )
            }
        default: break
        }
        return AASAAppLinks(
            details: details,
            detailsIsDictionary: isDictionary,
            defaults: object["defaults"].map(AASAFields.init(object:)) ?? AASAFields(),
            substitutionVariables: variables,
            source: object
        )
    }

    private static func readDetail(_ entry: AASAJSON, index: Int, location: String, keyedAppID: String?) -> AASADetail {
        let appIDs: [String]
        if let keyedAppID {
            appIDs = [keyedAppID]
        } else if let list = entry["appIDs"]?.arrayValue {
            appIDs = list.compactMap(\.stringValue)  // M20: appIDs wins, even when empty
        } else if let single = entry["appID"]?.stringValue {
            appIDs = [single]
        } else {
            appIDs = []
        }
        var rules: [AASAPathRule] = []
        let source: AASADetail.RuleSource
        if let components = entry["components"]?.arrayValue {
            source = .components  // M21: components wins, even when empty
            for (ruleIndex, component) in components.enumerated() {
                guard let members = component.members else { continue }
                let unknown = members.map(\.key).filter { !knownComponentKeys.contains($0) }
                rules.append(
                    AASAPathRule(
                        index: ruleIndex,
                        kind: .component,
                        fields: AASAFields(object: component),
                        source: component,
                        unknownKeys: unknown
                    )
                )
            }
        } else if let paths = entry["paths"]?.arrayValue {
            source = .paths
            for (ruleIndex, path) in paths.enumerated() {
                guard let text = path.stringValue else { continue }
                let excluded = text.hasPrefix("NOT ")
                let pattern = excluded ? String(text.dropFirst(4)) : text
                rules.append(
                    AASAPathRule(
                        index: ruleIndex,
                        kind: .legacyPath,
                        fields: AASAFields(path: pattern, exclude: excluded),
                        source: path,
                        unknownKeys: []
                    )
                )
            }
        } else {
            source = .none
        }
        return AASADetail(
            index: index,
            location: location,
            appIDs: appIDs,
            defaults: entry["defaults"].map(AASAFields.init(object:)) ?? AASAFields(),
            ruleSource: source,
            rules: rules,
            source: entry
        )
    }

    /// The component keys Apple documents; anything else is ignored (M18).
    static let knownComponentKeys: Set<String> = [
        "/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded",
    ]
}

extension AASARules {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct DocumentRules: RuleSet {
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
