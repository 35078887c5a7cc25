import IPACheckAASA
import IPACheckFetching
import IPACheckLinks
import IPACheckReport
import IPACheckSigning
import IPACheckSites

extension LinkModel {
    /// How far a tap on a link gets with one claim, in the order iOS checks: each later stage needs the earlier.
    private enum Stage: Int, Comparable {
        case build, entry, file, rules, opens

        static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What one claim makes of the URL.
    private struct Evaluation {
        let claim: Claim
        let target: AASAFetchTarget
        let entryBlockers: [Finding]
        let fileBlockers: [Finding]
        let deviceCopy: DeviceCopy?
        let answer: AASAMatchExplanation?
        let originAnswer: AASAMatchResult?
        let stage: Stage
    }

    /// The path a tap on `url` takes with this build installed, and where it breaks: the link opens only where
    /// the bundle claims the host, iOS uses the entry for this build, nothing the gate reports as an error stands
    /// on the path (the entry, the profile's grant, the mode, the distribution, the seal, the host's file), and the
    /// copy devices read sends the URL to the app.
    public func explain(_ url: String) -> LinkExplanation {
        var steps: [LinkExplanation.Step] = []
        func breaks(_ conclusion: String, findings: [Finding] = [], evaluation: Evaluation? = nil) -> LinkExplanation {
            LinkExplanation(
                url: url,
                verdict: .breaks,
                bundle: evaluation?.claim.bundle,
                appID: evaluation?.claim.appID,
                steps: steps,
                copies: evaluation.map(copies) ?? [],
                rule: evaluation?.answer?.result.rule,
                findings: findings,
                conclusion: conclusion
            )
        }
        let link: LinkURL
        do {
            link = try LinkURL.universalLink(url)
        } catch {
            steps.append(.init(name: "URL", status: .fail, details: [error.reason]))
            return breaks("✗ not a URL iOS could open as a universal link (\(error.reason))")
        }
        let host = link.host ?? ""
        guard link.scheme == "https" else {
            steps.append(.init(name: "URL", status: .fail, details: ["universal links are https only"]))
            return breaks("✗ breaks at the URL: \(link.scheme ?? "no") scheme; only https links open apps")
        }
        steps.append(
            .init(
                name: "URL",
                status: .pass,
                details: ["https link to \(host), path \(link.path.isEmpty ? "/" : link.path)"]
            )
        )

        let claiming = claims.filter { $0.domain.service == .applinks && $0.domain.covers(host: host) }
        guard !claiming.isEmpty else {
            steps.append(.init(name: "claim", status: .fail, details: unclaimedDetails(host)))
            return breaks("✗ breaks at the claim: no bundle claims applinks:\(host)")
        }
        steps.append(
            .init(
                name: "claim",
                status: .pass,
                details: claiming.map {
                    "\($0.bundle) claims \($0.domain.entry) as \($0.appID ?? "(no application-identifier)")"
                }
            )
        )

        let ignored = claiming.compactMap { claim in
            claim.ignored.map { "\(claim.domain.entry): iOS ignores it (\($0))" }
        }
        let evaluations = claiming.compactMap { evaluate($0, url: url) }
        guard let decisive = evaluations.max(by: { $0.stage < $1.stage }) else {
            steps.append(.init(name: "entry", status: .fail, details: ignored))
            return breaks("✗ breaks at the entitlement: every entry claiming \(host) is ignored by iOS for this build")
        }
        let buildBlockers = findings.filter(blocksEveryLink)
        let bearing = (decisive.entryBlockers + buildBlockers + decisive.fileBlockers).sorted()

        // The build: anything that stops it installing or running as distributed.
        if !buildBlockers.isEmpty {
            steps.append(.init(name: "build", status: .fail, details: buildBlockers.map(describe)))
            return breaks(
                "✗ breaks at the build: " + (buildBlockers.first.map(describe) ?? ""),
                findings: bearing,
                evaluation: decisive
            )
        }
        if let reason = buildNotChecked {
            steps.append(.init(name: "build", status: .notChecked, details: [reason]))
        } else {
            steps.append(
                .init(
                    name: "build",
                    status: .pass,
                    details: [
                        "no error in the archive, signature, seal, profile or distribution"
                            + (distribution.map { " (judged for \($0.rawValue))" } ?? "")
                    ]
                )
            )
        }

        // The entry: modes, the profile's grant, entry errors.
        var entryDetails = ignored
        if let mode = decisive.claim.domain.mode {
            entryDetails.append("\(decisive.claim.domain.entry): used only on devices in \(mode.rawValue) mode")
        }
        entryDetails += decisive.entryBlockers.map(describe)
        if !decisive.entryBlockers.isEmpty {
            steps.append(.init(name: "entry", status: .fail, details: entryDetails))
            return breaks(
                "✗ breaks at the entitlement: " + (decisive.entryBlockers.first.map(describe) ?? ""),
                findings: bearing,
                evaluation: decisive
            )
        }
        steps.append(
            .init(
                name: "entry",
                status: entryDetails.isEmpty ? .pass : .info,
                details: entryDetails.isEmpty ? ["\(decisive.claim.domain.entry) is used for this build"] : entryDetails
            )
        )

        // The host's file: every copy looked at, and the one devices read.
        var fileDetails = siteLines(decisive)
        fileDetails += decisive.fileBlockers.map(describe)
        guard let judged = decisive.deviceCopy?.judged else {
            let reason: String
            if case .missing(let why, _)? = decisive.deviceCopy {
                reason = why
            } else {
                reason = "\(host)'s AASA was not read"
            }
            steps.append(.init(name: "AASA", status: .fail, details: fileDetails))
            return breaks("✗ breaks at the AASA: \(reason)", findings: bearing, evaluation: decisive)
        }
        if !decisive.fileBlockers.isEmpty {
            steps.append(.init(name: "AASA", status: .fail, details: fileDetails))
            return breaks(
                "✗ breaks at the AASA: " + (decisive.fileBlockers.first.map(describe) ?? ""),
                findings: bearing,
                evaluation: decisive
            )
        }
        steps.append(.init(name: "AASA", status: .pass, details: fileDetails))

        // The rules of the copy devices read.
        var ruleDetails = ["\(decisive.claim.appID ?? "") against \(judged.name):"]
        ruleDetails += (decisive.answer?.textLines ?? []).map { "  " + $0 }
        if let origin = decisive.originAnswer, let answer = decisive.answer, origin.verdict != answer.result.verdict {
            ruleDetails.append(
                "the origin's file answers \(origin.verdict.rawValue) (\(origin.why)): devices follow it once Apple's CDN refreshes"
            )
        }
        guard let answer = decisive.answer, answer.result.verdict == .match, decisive.stage == .opens else {
            steps.append(.init(name: "rules", status: .fail, details: ruleDetails))
            let why = decisive.answer?.result.why ?? "no rule for \(decisive.claim.appID ?? "the app") matches"
            return breaks("✗ breaks at the AASA rules: \(why)", findings: bearing, evaluation: decisive)
        }
        steps.append(.init(name: "rules", status: .pass, details: ruleDetails))
        steps.append(.init(name: "reminders", status: .info, details: Self.reminders))
        return LinkExplanation(
            url: url,
            verdict: .opens,
            bundle: decisive.claim.bundle,
            appID: decisive.claim.appID,
            steps: steps,
            copies: copies(decisive),
            rule: answer.result.rule,
            findings: bearing,
            conclusion: "✓ opens \(decisive.claim.bundle) (\(answer.result.why))"
                + (buildNotChecked == nil ? "" : ", as far as the entitlements file tells: the build was not checked")
        )
    }

    /// How far `url` gets with one claim; `nil` when iOS ignores the entry for this build.
    private func evaluate(_ claim: Claim, url: String) -> Evaluation? {
        guard let target = claim.target, claim.ignored == nil else { return nil }
        let entryBlockers = findings.filter { blocks($0, claim: claim) && !Self.isAboutTheFile($0) }
        let fileBlockers = findings.filter { blocks($0, claim: claim) && Self.isAboutTheFile($0) }
        let device = deviceCopy(target)
        var answer: AASAMatchExplanation?
        var originAnswer: AASAMatchResult?
        if let appID = claim.appID, let judged = device?.judged {
            answer = judged.document.matcher(for: appID, domain: target.host).explain(url)
            if judged.copy == .cdn, let origin = documents.judged(target), origin.copy == .origin {
                originAnswer = origin.document.matcher(for: appID, domain: target.host).evaluate(url)
            }
        }
        let stage: Stage
        if findings.contains(where: blocksEveryLink) {
            stage = .build
        } else if !entryBlockers.isEmpty {
            stage = .entry
        } else if device?.judged == nil || !fileBlockers.isEmpty {
            stage = .file
        } else if answer?.result.verdict != .match {
            stage = .rules
        } else {
            stage = .opens
        }
        return Evaluation(
            claim: claim,
            target: target,
            entryBlockers: entryBlockers,
            fileBlockers: fileBlockers,
            deviceCopy: device,
            answer: answer,
            originAnswer: originAnswer,
            stage: stage
        )
    }

    private func unclaimedDetails(_ host: String) -> [String] {
        let applinks = claims.filter { $0.domain.service == .applinks }
        var details = ["no bundle's signed entitlements contain applinks:\(host) or a *. entry covering it"]
        if claims.contains(where: { $0.domain.wildcard && $0.domain.host == host }) {
            details.append("*.\(host) covers subdomains only, never \(host) itself (add applinks:\(host))")
        }
        details.append(
            applinks.isEmpty
                ? "the build claims no applinks domains"
                : "applinks entries: " + applinks.map(\.domain.entry).joined(separator: ", ")
        )
        return details
    }

    /// What was observed of the claim's host, one line per copy, then which copy devices read.
    private func siteLines(_ evaluation: Evaluation) -> [String] {
        var lines = copies(evaluation).map { copy in
            var line = "\(copy.host): "
            switch copy.copy {
            case "file": line += "file \(copy.location ?? "")"
            case "cdn": line += "Apple's CDN"
            default: line += "origin"
            }
            if let status = copy.status { line += " HTTP \(status)" }
            if let reason = copy.failureReason { line += " · \(reason)" }
            if let problem = copy.problem { line += " · \(problem)" }
            if copy.copy == "file", let bytes = copy.bytes { line += " · \(bytes) bytes read" }
            line += copy.usable ? "" : " (no usable copy)"
            return line
        }
        if let report = site(evaluation.target), report.cdn == nil {
            lines.append(
                "\(evaluation.target.fetchHost): Apple's CDN not asked ("
                    + (evaluation.target.mode != nil ? "devices in this mode read the origin" : "offline or --no-cdn")
                    + ")"
            )
        }
        if let device = evaluation.deviceCopy { lines.append("devices read: \(device.source)") }
        return lines
    }

    /// The copies of the claim's host the run looked at.
    private func copies(_ evaluation: Evaluation) -> [LinkExplanation.Copy] {
        guard let report = site(evaluation.target) else { return [] }
        let deviceCopy = evaluation.deviceCopy?.judged?.copy
        var copies: [LinkExplanation.Copy] = []
        if let origin = report.origin {
            let isFile = origin.location == .offlineFile
            copies.append(
                LinkExplanation.Copy(
                    copy: isFile ? "file" : "origin",
                    host: report.fetchHost,
                    location: origin.url,
                    status: isFile ? nil : origin.status,
                    contentType: isFile ? nil : origin.contentType,
                    bytes: origin.bodyBytes,
                    failureReason: nil,
                    problem: origin.failure.map { "\($0.kind.summary): \($0.detail)" },
                    usable: documents.site(for: evaluation.target)?.origin != nil,
                    devicesRead: deviceCopy == .origin
                )
            )
        }
        if let cdn = report.cdn {
            copies.append(
                LinkExplanation.Copy(
                    copy: "cdn",
                    host: report.fetchHost,
                    location: cdn.url,
                    status: cdn.status,
                    contentType: nil,
                    bytes: cdn.bodyBytes,
                    failureReason: cdn.failureReason?.raw,
                    problem: cdn.failure.map { "\($0.kind.summary): \($0.detail)" },
                    usable: documents.site(for: evaluation.target)?.cdn != nil,
                    devicesRead: deviceCopy == .cdn || (evaluation.target.usesCDN && deviceCopy == nil)
                )
            )
        }
        return copies
    }

    private func describe(_ finding: Finding) -> String {
        "\(finding.rule) \(finding.message)"
    }

    /// What makes a correctly configured link still open Safari (Apple's universal links documentation and
    /// TN3155).
    static let reminders = [
        "a URL typed or pasted into Safari's address bar never opens the app; tap it from another app or page",
        "a link to the same domain as the page showing it stays in Safari",
        "if the user once chose 'Open in Safari' for this domain, iOS remembers it until they choose the app again",
    ]
}
