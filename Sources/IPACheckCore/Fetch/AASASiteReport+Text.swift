public import IPACheckReport

extension AASASiteReport {
    /// The host's report for people: what the origin served, to whom, what Apple's CDN holds, and the findings.
    public func text(style: TextStyle = .plain) -> String {
        var out = style.bold(host)
        if fetchHost != host { out += "  (served by \(fetchHost))" }
        if let mode { out += "  [mode \(mode.rawValue): devices fetch from the origin, not the CDN]" }
        out += "\n"
        if let origin {
            var line = "  origin  \(origin.url)  "
            if let status = origin.status {
                line += "HTTP \(status)"
                if let type = origin.contentType { line += " · \(type)" }
                if let bytes = origin.bodyBytes { line += " · \(bytes) bytes" }
                if let target = origin.redirectLocation { line += " · redirects to \(target)" }
            } else if let failure = origin.failure {
                line += style.red("\(failure.kind.rawValue): \(failure.detail)")
            }
            out += line + "\n"
        }
        for agent in userAgents {
            let answer =
                agent.status.map { "HTTP \($0)" } ?? agent.failure.map { "\($0.kind.rawValue): \($0.detail)" }
                ?? "no answer"
            out += "  as \(agent.userAgent.prefix(40))  \(answer)\n"
        }
        if let cdn {
            var line = "  CDN     "
            if let status = cdn.status {
                line += "HTTP \(status)"
                if let reason = cdn.failureReason { line += " · " + style.red(reason.raw) }
                if let age = cdn.ageSeconds { line += " · age \(age) s" }
                if let fresh = cdn.freshForSeconds { line += " · fresh for \(fresh) s" }
            } else if let failure = cdn.failure {
                line += style.red("\(failure.kind.rawValue): \(failure.detail)")
            }
            out += line + "\n"
        }
        for difference in cdnDifferences ?? [] {
            out +=
                "  " + style.yellow("CDN ≠ origin")
                + " \(difference.service) \(difference.appID): \(difference.detail)\n"
        }
        for finding in findings {
            out += "  " + style.severity(finding.severity) + " \(finding.rule) \(finding.message)\n"
            if let fix = finding.fix { out += "      " + style.dim("fix: \(fix)") + "\n" }
        }
        if findings.isEmpty { out += "  " + style.green("served as Apple requires") + "\n" }
        return out
    }
}
