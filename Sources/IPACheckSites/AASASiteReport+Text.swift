import IPACheckFetching
import IPACheckLinks
package import IPACheckReport

extension AASASiteReport {
    /// The host's observations for people: what the origin served, to whom, and what Apple's CDN holds (the
    /// findings are the report's own).
    package var lines: [StyledLine] {
        var title = StyledLine.text(host, .bold)
        if fetchHost != host { title.append("  (served by \(fetchHost))") }
        if let mode { title.append("  [mode \(mode.rawValue): devices fetch from the origin, not the CDN]") }
        var lines = [title]
        if let origin, origin.location == .offlineFile {
            var line = StyledLine.text("  file    \(origin.url)  ")
            if let failure = origin.failure {
                line.append("\(failure.kind.summary): \(failure.detail)", .red)
            } else {
                line.append("read · \(origin.bodyBytes ?? 0) bytes")
            }
            lines.append(line)
        } else if let origin {
            var line = StyledLine.text("  origin  \(origin.url)  ")
            if let status = origin.status {
                var text = "HTTP \(status)"
                if let type = origin.contentType { text += " · \(type)" }
                if let bytes = origin.bodyBytes { text += " · \(bytes) bytes" }
                if let target = origin.redirectLocation { text += " · redirects to \(target)" }
                line.append(text)
            } else if let failure = origin.failure {
                line.append("\(failure.kind.summary): \(failure.detail)", .red)
            }
            lines.append(line)
        }
        for agent in userAgents {
            let answer =
                agent.status.map { "HTTP \($0)" } ?? agent.failure.map { "\($0.kind.summary): \($0.detail)" }
                ?? "no answer"
            lines.append(.text("  as \(Self.shortened(agent.userAgent))  \(answer)"))
        }
        if let cdn {
            var line = StyledLine.text("  CDN     ")
            if let status = cdn.status {
                line.append("HTTP \(status)")
                if let reason = cdn.failureReason {
                    line.append(" · ")
                    line.append(reason.raw, .red)
                }
                if let age = cdn.ageSeconds { line.append(" · age \(age) s") }
                if let fresh = cdn.freshForSeconds { line.append(" · fresh for \(fresh) s") }
            } else if let failure = cdn.failure {
                line.append("\(failure.kind.summary): \(failure.detail)", .red)
            }
            lines.append(line)
        } else if origin?.location == .offlineFile {
            lines.append(.text("  CDN     not asked (offline)", .dim))
        } else {
            lines.append(.text("  CDN     not asked", .dim))
        }
        for difference in cdnDifferences ?? [] {
            var line = StyledLine.text("  ")
            line.append("CDN ≠ origin", .yellow)
            line.append(" \(difference.service) \(difference.appID): \(difference.detail)")
            lines.append(line)
        }
        return lines
    }

    /// A user agent cut to about `limit` characters at a word's end, with `…` when cut, so no word is split.
    static func shortened(_ agent: String, limit: Int = 40) -> String {
        guard agent.count > limit else { return agent }
        var kept = ""
        for word in agent.split(separator: " ") {
            let next = kept.isEmpty ? String(word) : kept + " " + word
            if next.count > limit { break }
            kept = next
        }
        return (kept.isEmpty ? String(agent.prefix(limit)) : kept) + " …"
    }
}
