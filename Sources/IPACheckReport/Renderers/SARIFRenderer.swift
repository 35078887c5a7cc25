import Crypto
import Foundation
import IPACheckBinary

/// The report as a SARIF 2.1.0 log, for GitHub code scanning (`github/codeql-action/upload-sarif`) and other
/// SARIF viewers.
///
/// One run; `tool.driver.rules` lists the rules that were carried out (never one that was not); each finding is a
/// result (a suppressed one with `suppressions[].justification`) whose physical location
/// is the ipa (its path as given, percent-encoded as a URI reference, with no `region`: findings have no line)
/// and whose logical locations are the bundle (`Payload/App.app`, kind `module`) and the associated domain
/// (`applinks:example.com`, kind `resource`). `partialFingerprints["ipacheckFinding/v1"]` is a SHA-256 over
/// rule, bundle, domain, URL, location and message, so code scanning keeps one alert per problem across runs
/// (codeql-action computes its own line hash only for results with a line).
///
/// `invocations[0].executionSuccessful` is `false` when an input could not be read, with one error notification
/// per such input, so uploading the log never closes alerts for a build that was not checked. Rules that were not
/// carried out are named in note notifications with the reason.
package struct SARIFRenderer: ReportRendering {
    /// The schema URI written as `$schema`: OASIS's SARIF 2.1.0 schema (errata 01).
    package static let schemaURI =
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    /// The `partialFingerprints` key; the version suffix changes only if the hashed fields ever change.
    package static let fingerprintKey = "ipacheckFinding/v1"

    /// Creates the renderer.
    package init() {}

    /// The SARIF log as pretty-printed JSON with sorted keys, ending with a newline.
    package func render(_ report: Report) throws -> String {
        try JSONRenderer.encode(log(for: report))
    }

    /// The stable identity of a finding, for `partialFingerprints`.
    ///
    /// It is the SHA-256 (hex) of its rule, bundle, domain, URL, location and message, each followed by a NUL
    /// byte (absent fields as empty strings). Severity and the input path are left out on purpose, so
    /// renaming `App-1.2.ipa` to `App-1.3.ipa` does not reopen every alert.
    package static func fingerprint(of finding: Finding) -> String {
        let fields = [
            finding.rule, finding.bundle ?? "", finding.domain ?? "", finding.url ?? "", finding.location ?? "",
            finding.message,
        ]
        var bytes: [UInt8] = []
        for field in fields {
            bytes += Array(field.utf8)
            bytes.append(0)
        }
        return Hex.encode(SHA256.hash(data: bytes))
    }

    /// A path as a URI reference (RFC 3986): unreserved characters and `/` stay, every other byte of its UTF-8
    /// is percent-encoded, so spaces, `%`, `#`, `?`, `:` (which would read as a scheme) and non-ASCII are safe.
    package static func uriReference(forPath path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let isUnreserved =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E || byte == 0x2F
            if isUnreserved {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// A rule title as a SARIF rule `name`: its words in PascalCase (`mixed legacy and modern formats` →
    /// `MixedLegacyAndModernFormats`).
    package static func ruleName(forTitle title: String) -> String {
        title.split { !($0.isLetter || $0.isNumber) }
            .map { word in word.prefix(1).uppercased() + word.dropFirst() }
            .joined()
    }

    private func log(for report: Report) -> SARIFLog {
        let ranRules = report.rulesThatRan
        let ruleIndex = Dictionary(
            ranRules.enumerated().map { ($0.element.id, $0.offset) },
            uniquingKeysWith: { first, _ in first }
        )
        let artifactIndex = Dictionary(
            report.inputs.enumerated().map { ($0.element.path, $0.offset) },
            uniquingKeysWith: { first, _ in first }
        )
        let helpBase = report.tool.rulesUri ?? report.tool.informationUri
        let rules = ranRules.map { rule in
            ReportingDescriptor(
                id: rule.id,
                name: Self.ruleName(forTitle: rule.title),
                shortDescription: MultiformatMessage(text: rule.title),
                fullDescription: MultiformatMessage(text: rule.summary),
                help: MultiformatMessage(text: rule.summary + "\n\nFix: " + rule.fix),
                defaultConfiguration: ReportingConfiguration(level: rule.severity.rawValue),
                helpUri: helpBase.map { $0 + "#" + rule.id.lowercased() }
            )
        }
        let results = report.findings.map { entry in
            let finding = entry.finding
            var logical: [LogicalLocation] = []
            if let bundle = finding.bundle {
                let name = bundle.split(separator: "/").last.map(String.init) ?? bundle
                logical.append(LogicalLocation(name: name, fullyQualifiedName: bundle, kind: "module"))
            }
            if let domain = finding.domain {
                logical.append(LogicalLocation(name: domain, fullyQualifiedName: domain, kind: "resource"))
            }
            var properties = ["input": entry.input]
            properties["bundle"] = finding.bundle
            properties["domain"] = finding.domain
            properties["url"] = finding.url
            properties["location"] = finding.location
            properties["fix"] = finding.fix
            properties["affects"] = finding.affects?.joined(separator: ", ")
            let text = finding.fix.map { finding.message + "\nFix: " + $0 } ?? finding.message
            return SARIFResult(
                ruleId: finding.rule,
                ruleIndex: ruleIndex[finding.rule],
                level: finding.severity.rawValue,
                message: SARIFMessage(text: text),
                locations: [
                    SARIFLocation(
                        physicalLocation: PhysicalLocation(
                            artifactLocation: ArtifactLocation(
                                uri: Self.uriReference(forPath: entry.input),
                                index: artifactIndex[entry.input]
                            )
                        ),
                        logicalLocations: logical.isEmpty ? nil : logical
                    )
                ],
                partialFingerprints: [Self.fingerprintKey: Self.fingerprint(of: finding)],
                suppressions: entry.suppression.map {
                    [SARIFSuppression(kind: "external", status: "accepted", justification: $0.reason)]
                },
                properties: properties
            )
        }
        var notifications: [Notification] = []
        for input in report.inputs {
            if let error = input.error {
                notifications.append(
                    Notification(
                        level: "error",
                        message: SARIFMessage(text: "\(input.path) \(input.errorPhrase): \(error)"),
                        locations: [
                            SARIFLocation(
                                physicalLocation: PhysicalLocation(
                                    artifactLocation: ArtifactLocation(
                                        uri: Self.uriReference(forPath: input.path),
                                        index: artifactIndex[input.path]
                                    )
                                ),
                                logicalLocations: nil
                            )
                        ]
                    )
                )
            }
            for group in report.notChecked(input) {
                notifications.append(
                    Notification(
                        level: "note",
                        message: SARIFMessage(
                            text: "\(input.path): not checked (\(group.reason)): "
                                + group.rules.joined(separator: ", ")
                        ),
                        locations: nil
                    )
                )
            }
        }
        let run = SARIFRun(
            tool: SARIFTool(
                driver: ToolComponent(
                    name: report.tool.name,
                    version: report.tool.version,
                    informationUri: report.tool.informationUri,
                    rules: rules
                )
            ),
            artifacts: report.inputs.map {
                Artifact(location: ArtifactLocation(uri: Self.uriReference(forPath: $0.path), index: nil))
            },
            invocations: [
                Invocation(
                    executionSuccessful: report.verdict != .error,
                    toolExecutionNotifications: notifications.isEmpty ? nil : notifications
                )
            ],
            results: results,
            properties: RunProperties(
                failOn: report.gate.failOn.rawValue,
                verdict: report.verdict.rawValue,
                errors: report.summary.errors,
                warnings: report.summary.warnings,
                notes: report.summary.notes,
                suppressed: report.summary.suppressed
            )
        )
        return SARIFLog(schema: Self.schemaURI, version: "2.1.0", runs: [run])
    }
}

// The subset of the SARIF 2.1.0 object model ipacheck writes; names and nesting follow the schema exactly.

private struct SARIFLog: Encodable {
    let schema: String
    let version: String
    let runs: [SARIFRun]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, runs
    }
}

private struct SARIFRun: Encodable {
    let tool: SARIFTool
    let artifacts: [Artifact]
    let invocations: [Invocation]
    let results: [SARIFResult]
    let properties: RunProperties
}

private struct Invocation: Encodable {
    let executionSuccessful: Bool
    let toolExecutionNotifications: [Notification]?
}

private struct Notification: Encodable {
    let level: String
    let message: SARIFMessage
    let locations: [SARIFLocation]?
}

private struct SARIFSuppression: Encodable {
    let kind: String
    let status: String
    let justification: String
}

private struct RunProperties: Encodable {
    let failOn: String
    let verdict: String
    let errors: Int
    let warnings: Int
    let notes: Int
    let suppressed: Int
}

private struct SARIFTool: Encodable {
    let driver: ToolComponent
}

private struct ToolComponent: Encodable {
    let name: String
    let version: String
    let informationUri: String?
    let rules: [ReportingDescriptor]
}

private struct ReportingDescriptor: Encodable {
    let id: String
    let name: String
    let shortDescription: MultiformatMessage
    let fullDescription: MultiformatMessage
    let help: MultiformatMessage
    let defaultConfiguration: ReportingConfiguration
    let helpUri: String?
}

private struct MultiformatMessage: Encodable {
    let text: String
}

private struct ReportingConfiguration: Encodable {
    let level: String
}

private struct Artifact: Encodable {
    let location: ArtifactLocation
    let roles = ["analysisTarget"]
}

private struct SARIFResult: Encodable {
    let ruleId: String
    let ruleIndex: Int?
    let level: String
    let message: SARIFMessage
    let locations: [SARIFLocation]
    let partialFingerprints: [String: String]
    let suppressions: [SARIFSuppression]?
    let properties: [String: String]
}

private struct SARIFMessage: Encodable {
    let text: String
}

private struct SARIFLocation: Encodable {
    let physicalLocation: PhysicalLocation
    let logicalLocations: [LogicalLocation]?
}

private struct PhysicalLocation: Encodable {
    let artifactLocation: ArtifactLocation
}

private struct ArtifactLocation: Encodable {
    let uri: String
    let index: Int?
}

private struct LogicalLocation: Encodable {
    let name: String
    let fullyQualifiedName: String
    let kind: String
}
