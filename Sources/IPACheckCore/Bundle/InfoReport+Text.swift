public import IPACheckReport

extension InfoReport {
    /// The bundle tree for people: one block per bundle, nested bundles indented under their parent.
    public func text(style: TextStyle = .plain) -> String {
        var out = ""
        var depthOf: [String: Int] = [:]
        for bundle in bundles {
            let depth = bundle.parent.flatMap { depthOf[$0] }.map { $0 + 1 } ?? 0
            depthOf[bundle.path] = depth
            let indent = String(repeating: "    ", count: depth)
            let shownPath = bundle.parent.map { parent in String(bundle.path.dropFirst(parent.count + 1)) }
            var title = style.bold(shownPath ?? bundle.path) + "  [\(bundle.kind.rawValue)]"
            title += "  " + (bundle.bundleID ?? "(no bundle ID)")
            if let version = bundle.version ?? bundle.build {
                title += "  \(version)"
                if let build = bundle.build, bundle.version != nil { title += " (\(build))" }
            }
            out += indent + title + "\n"
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
            out += indent + "  " + facts.joined(separator: " · ") + "\n"
            out += indent + "  " + signingLine(bundle.signing, style: style) + "\n"
        }
        if !findings.isEmpty {
            out += "\n"
            for finding in findings {
                out += style.severity(finding.severity) + " \(finding.rule) \(finding.message)\n"
            }
        }
        return out
    }

    private func signingLine(_ signing: SigningSummary, style: TextStyle) -> String {
        if let problem = signing.problem { return style.red("signature unreadable: \(problem)") }
        guard signing.signed else { return style.yellow("unsigned") }
        var parts: [String] = [signing.adHoc ? "ad hoc signature" : "signed"]
        if let team = signing.teamID { parts.append("team \(team)") }
        if let identifier = signing.identifier { parts.append("identifier \(identifier)") }
        if !signing.hashTypes.isEmpty { parts.append(signing.hashTypes.joined(separator: "+")) }
        var entitlements: [String] = []
        if signing.xmlEntitlements { entitlements.append("XML") }
        if signing.derEntitlements { entitlements.append("DER") }
        parts.append(entitlements.isEmpty ? "no entitlements" : "entitlements " + entitlements.joined(separator: "+"))
        parts.append(signing.provisioningProfile != nil ? "embedded profile" : "no profile")
        if signing.encrypted { parts.append("FairPlay-encrypted") }
        return parts.joined(separator: " · ")
    }
}
