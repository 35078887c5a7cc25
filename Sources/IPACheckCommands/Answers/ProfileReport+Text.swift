import Foundation
import IPACheckCMS
import IPACheckPlist
package import IPACheckReport
import IPACheckSigning

extension ProfileReport {
    /// The report's sections: JSON `profile` and `entitlements`; for people, the profile's facts then its
    /// entitlements, one per line.
    package func sections() throws -> [ReportSection] {
        var lines: [StyledLine] = []
        var title = StyledLine.text(summary.name ?? "(unnamed profile)", .bold)
        title.append("  [\(summary.type)]")
        lines.append(title)
        if let member = summary.embeddedAt { lines.append(.text("  embedded at " + member)) }
        var team =
            summary.teamIdentifiers.isEmpty ? "no team" : "team " + summary.teamIdentifiers.joined(separator: ", ")
        if let name = summary.teamName { team += " (\(name))" }
        lines.append(
            .text("  " + [team, "app ID " + (summary.applicationIdentifier ?? "none")].joined(separator: " · "))
        )
        var dates: [String] = []
        if !summary.platforms.isEmpty { dates.append("platforms " + summary.platforms.joined(separator: ", ")) }
        if let created = summary.creationDate { dates.append("created " + PlistValue.iso8601(created)) }
        if let expiry = summary.expirationDate { dates.append("expires " + PlistValue.iso8601(expiry)) }
        if summary.provisionsAllDevices {
            dates.append("all devices")
        } else if let count = summary.deviceCount {
            dates.append("\(count) device\(count == 1 ? "" : "s")")
        }
        if summary.xcodeManaged == true { dates.append("Xcode-managed") }
        lines.append(.text("  " + dates.joined(separator: " · ")))
        lines.append(signatureLine)
        for certificate in summary.certificates {
            var parts = ["  certificate \"\(certificate.subject)\""]
            if let until = certificate.notValidAfter { parts.append("valid until " + PlistValue.iso8601(until)) }
            if let fingerprint = certificate.sha256Fingerprint { parts.append("SHA-256 " + fingerprint) }
            lines.append(.text(parts.joined(separator: " · ")))
        }
        var entitlementLines: [StyledLine] = [.text("entitlements:", .bold)]
        for (key, value) in entitlements.sorted(by: { $0.key < $1.key }) {
            entitlementLines.append(.text("  \(key) = \(value.oneLine)"))
        }
        if entitlements.isEmpty { entitlementLines.append("  (none)") }
        return [
            try ReportSection(key: "profile", value: summary, lines: lines),
            try ReportSection(key: "entitlements", value: entitlements, lines: entitlementLines),
        ]
    }

    private var signatureLine: StyledLine {
        let signer = summary.signature.signer.map { " by \"\($0.subjectCommonName ?? $0.subject)\"" } ?? ""
        switch summary.signature.verdict {
        case .valid: return .text("  signature valid\(signer)", .green)
        case .unsigned: return .text("  not signed", .red)
        case .contentDigestMismatch: return .text("  signature broken: the content was changed\(signer)", .red)
        case .invalidSignature: return .text("  signature broken\(signer)", .red)
        case .unverifiable(let reason): return .text("  signature not verified: \(reason)", .yellow)
        }
    }
}
