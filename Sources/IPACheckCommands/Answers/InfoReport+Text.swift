import IPACheckBundle
package import IPACheckReport

extension InfoReport {
    /// The bundle tree as a report section: JSON `bundles`, and for people one block per bundle, nested bundles
    /// indented under their parent.
    package func section() throws -> ReportSection {
        var lines: [StyledLine] = []
        var depthOf: [String: Int] = [:]
        for bundle in bundles {
            let depth = bundle.parent.flatMap { depthOf[$0] }.map { $0 + 1 } ?? 0
            depthOf[bundle.path] = depth
            let indent = String(repeating: "    ", count: depth)
            let shownPath = bundle.parent.map { parent in String(bundle.path.dropFirst(parent.count + 1)) }
            var title = StyledLine.text(indent)
            title.append(shownPath ?? bundle.path, .bold)
            var rest = "  [\(bundle.kind.rawValue)]  " + (bundle.bundleID ?? "(no bundle ID)")
            if let version = bundle.version ?? bundle.build {
                rest += "  \(version)"
                if let build = bundle.build, bundle.version != nil { rest += " (\(build))" }
            }
            title.append(rest)
            lines.append(title)
            var facts: [String] = []
            if let platform = bundle.platform { facts.append("platform \(platform)") }
            if let minimum = bundle.minimumOSVersion { facts.append("minimum OS \(minimum)") }
            if let executable = bundle.executable {
                let name = executable.split(separator: "/").last.map(String.init) ?? executable
                let archs = bundle.architectures.isEmpty ? "" : " (\(bundle.architectures.joined(separator: ", ")))"
                facts.append("executable \(name)\(archs)")
            } else {
                facts.append("no executable")
            }
            lines.append(.text(indent + "  " + facts.joined(separator: " · ")))
            var signing = StyledLine.text(indent + "  ")
            signing.append(contentsOf: signingLine(bundle.signing))
            lines.append(signing)
        }
        return try ReportSection(key: "bundles", value: bundles, lines: lines)
    }

    private func signingLine(_ signing: SigningSummary) -> StyledLine {
        if let problem = signing.problem { return .text("signature unreadable: \(problem)", .red) }
        guard signing.signed else { return .text("unsigned", .yellow) }
        var parts: [String] = [signing.adHoc ? "ad hoc signature" : "signed"]
        if let team = signing.teamID { parts.append("team \(team)") }
        if let identifier = signing.identifier { parts.append("identifier \(identifier)") }
        if !signing.hashTypes.isEmpty { parts.append(signing.hashTypes.joined(separator: "+")) }
        var entitlements: [String] = []
        if signing.xmlEntitlements { entitlements.append("XML") }
        if signing.derEntitlements { entitlements.append("DER") }
        parts.append(entitlements.isEmpty ? "no entitlements" : "entitlements " + entitlements.joined(separator: "+"))
        if let distribution = signing.distribution {
            parts.append(distribution)
        } else {
            parts.append(signing.provisioningProfile != nil ? "embedded profile" : "no profile")
            if signing.encrypted { parts.append("FairPlay-encrypted") }
        }
        return .text(parts.joined(separator: " · "))
    }
}
