import Foundation
import IPACheckAASA
import IPACheckFetching
import IPACheckLinks
import IPACheckReport
import IPACheckSigning
import IPACheckSites

extension LinkModel {
    /// How far a tap on a link gets with one claim, in the order iOS checks: each later stage needs the earlier.
    enum Stage: Int, Comparable {
        case build, entry, file, rules, opens

        static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What one claim makes of the URL.
    struct Evaluation {
        let claim: Claim
        let target: AASAFetchTarget
        let entryBlockers: [Finding]
        let fileBlockers: [Finding]
        let deviceCopy: DeviceCopy?
        let answer: AASAMatchExplanation?
        let originAnswer: AASAMatchResult.OriginAnswer?
        let stage: Stage
    }

    /// The path a tap on `url` takes with this build installed, and where it breaks: the link opens only where
    /// the bundle claims the host, iOS uses the entry for this build, nothing the gate reports as an error stands
    /// on the path (the build, the entry, the profile's grant, the mode, the host's file), and the copy devices read
    /// sends the URL to the app.
    package func explain(_ written: String) -> LinkExplanation {
        var steps: [LinkExplanation.Step] = []
        var url = written
        func breaks(_ conclusion: String, findings: [Finding] = [], evaluation: Evaluation? = nil) -> LinkExplanation {
            var shown = steps
            if let evaluation {
                let outside = causes(for: evaluation, host: LinkURL(url).host ?? "", opens: false)
                if outside.causes?.isEmpty == false { shown.append(outside) }
            }
            return LinkExplanation(
                url: url,
                verdict: .breaks,
                bundle: evaluation?.claim.bundle,
                appID: evaluation?.claim.appID,
                steps: shown,
                copies: evaluation.map { copies($0) } ?? [],
                rule: evaluation?.answer?.result.rule,
                findings: findings,
                conclusion: conclusion
            )
        }
        if let refused = LinkExplanation.refusing(written) { return refused }
        guard let tapped = try? TappedURL(url) else { return breaks("not a URL iOS could open as a universal link") }
        url = tapped.normalized
        let link = tapped.link
        let host = tapped.host
        var urlStep = LinkExplanation.Step(
            name: "URL",
            status: .pass,
            summary: "\(link.scheme ?? "https") link to \(host), path \(link.path.isEmpty ? "/" : link.path)"
        )
        urlStep.details = urlDetails(tapped)
        steps.append(urlStep)

        let claiming = resolvedClaims(for: host)
        guard !claiming.isEmpty else {
            // Entitlements that could not be read claim nothing anyone knows of: not a "no claim".
            let unread = findings.filter { Self.entitlementsUnread.contains($0.rule) }
            var step = LinkExplanation.Step(
                name: "claim",
                status: unread.isEmpty ? .fail : .notChecked,
                summary: unread.isEmpty
                    ? "no bundle's signed entitlements contain applinks:\(host) or a *. entry covering it"
                    : "unknown: the signed entitlements of "
                        + Set(unread.compactMap(\.bundle)).sorted().joined(separator: ", ")
                        + " could not be read"
            )
            step.details = unread.isEmpty ? unclaimedDetails(host) : unread.map(describe)
            steps.append(step)
            let buildBlockers = self.buildBlockers
            if !unread.isEmpty, let first = buildBlockers.first {
                steps.append(buildStep(buildBlockers))
                return breaks("breaks at the build: " + describe(first), findings: buildBlockers)
            }
            return breaks("breaks at the claim: no bundle claims applinks:\(host)")
        }
        var claimStep = LinkExplanation.Step(
            name: "claim",
            status: .pass,
            summary: "\(claiming.count) entr\(claiming.count == 1 ? "y claims" : "ies claim") \(host)"
        )
        claimStep.details = claiming.map {
            "\($0.bundle) claims \($0.domain.entry) as \($0.appID ?? "(no application-identifier)")"
        }
        claimStep.claims = claiming.map(describe)
        steps.append(claimStep)

        let evaluations = claiming.compactMap { evaluate($0, url: url) }
        guard let decisive = evaluations.max(by: { $0.stage < $1.stage }) else {
            var step = LinkExplanation.Step(
                name: "entry",
                status: .fail,
                summary: "iOS ignores every entry claiming \(host) for this build"
            )
            step.details = claiming.compactMap { claim in claim.ignored.map { "\(claim.domain.entry): \($0)" } }
            step.claims = claiming.map(describe)
            steps.append(step)
            return breaks("breaks at the entitlement: every entry claiming \(host) is ignored by iOS for this build")
        }
        let buildBlockers = self.buildBlockers
        let bearing = (decisive.entryBlockers + buildBlockers + decisive.fileBlockers).sorted()

        // The build: anything that stops it installing or running as distributed.
        if !buildBlockers.isEmpty {
            steps.append(buildStep(buildBlockers))
            return breaks(
                "breaks at the build: " + (buildBlockers.first.map(describe) ?? ""),
                findings: bearing,
                evaluation: decisive
            )
        }
        if let reason = buildNotChecked {
            steps.append(.init(name: "build", status: .notChecked, summary: reason))
        } else {
            steps.append(
                .init(
                    name: "build",
                    status: .pass,
                    summary: installsOn.map { "installs on \($0)" }
                        ?? "no error in the archive, signature, seal or profile stops a device installing it"
                )
            )
        }

        // The entry: its mode, the profile's grant, its errors.
        var entryStep = LinkExplanation.Step(
            name: "entry",
            status: decisive.entryBlockers.isEmpty ? (decisive.claim.domain.mode == nil ? .pass : .info) : .fail,
            summary: decisive.entryBlockers.isEmpty
                ? "\(decisive.claim.domain.entry) is used for this build"
                    + (decisive.claim.domain.mode.map { ", on devices in \($0.rawValue) mode only" } ?? "")
                : "\(decisive.claim.domain.entry) does not work for this build"
        )
        entryStep.details =
            claiming.compactMap { claim in claim.ignored.map { "\(claim.domain.entry): iOS ignores it (\($0))" } }
            + decisive.entryBlockers.map(describe)
        entryStep.claims = [describe(decisive.claim)]
        if !decisive.entryBlockers.isEmpty {
            entryStep.findings = decisive.entryBlockers
            steps.append(entryStep)
            return breaks(
                "breaks at the entitlement: " + (decisive.entryBlockers.first.map(describe) ?? ""),
                findings: bearing,
                evaluation: decisive
            )
        }
        steps.append(entryStep)

        // The host's file: not fetched at all (no network) leaves the link undecided, not broken.
        if let reason = filesUnavailable {
            steps.append(.init(name: "AASA", status: .notChecked, summary: "not checked: \(reason)"))
            return LinkExplanation(
                url: url,
                verdict: .undecided,
                bundle: decisive.claim.bundle,
                appID: decisive.claim.appID,
                steps: steps,
                copies: [],
                rule: nil,
                findings: bearing,
                conclusion: "cannot be decided: the AASA of \(decisive.target.fetchHost) was not fetched (\(reason)); "
                    + "nothing before it on the path breaks the link"
            )
        }

        // The host's file: every copy looked at, and the one devices read.
        let looked = copies(decisive)
        let judged = decisive.deviceCopy?.judged
        var fileStep = LinkExplanation.Step(
            name: "AASA",
            status: judged == nil || !decisive.fileBlockers.isEmpty ? .fail : .pass,
            summary: judged.map { "devices read \($0.name)" } ?? missingCopy(decisive, host: host)
        )
        fileStep.details = looked.map(line) + decisive.fileBlockers.map(describe)
        fileStep.copies = looked
        fileStep.devicesRead = decisive.deviceCopy?.source
        if let source = decisive.deviceCopy?.source { fileStep.details.append("devices read \(source)") }
        if judged == nil || !decisive.fileBlockers.isEmpty {
            fileStep.findings = decisive.fileBlockers.isEmpty ? nil : decisive.fileBlockers
            steps.append(fileStep)
            let reason = decisive.fileBlockers.first.map(describe) ?? missingCopy(decisive, host: host)
            return breaks("breaks at the AASA: \(reason)", findings: bearing, evaluation: decisive)
        }
        steps.append(fileStep)

        // The rules of the copy devices read.
        let answer = decisive.answer
        var ruleStep = LinkExplanation.Step(
            name: "rules",
            status: answer?.result.verdict == .match ? .pass : .fail,
            summary: answer?.result.why ?? "no rule for \(decisive.claim.appID ?? "the app") matches"
        )
        ruleStep.details = (answer?.textLines.dropFirst()).map(Array.init) ?? []
        if let origin = decisive.originAnswer {
            ruleStep.details.append(
                "the origin's file answers \(origin.verdict.rawValue) (\(origin.why)): devices follow it once "
                    + "Apple's CDN refreshes"
            )
        }
        if let answer, let judged {
            ruleStep.decision = LinkExplanation.Decision(
                appID: answer.result.appID,
                document: judged.name,
                verdict: answer.result.verdict,
                rule: answer.result.rule,
                why: answer.result.why,
                trace: answer.steps,
                origin: decisive.originAnswer
            )
        }
        steps.append(ruleStep)
        guard let answer, answer.result.verdict == .match, decisive.stage == .opens else {
            let why = answer?.result.why ?? "no rule for \(decisive.claim.appID ?? "the app") matches"
            return breaks("breaks at the AASA rules: \(why)", findings: bearing, evaluation: decisive)
        }
        steps.append(causes(for: decisive, host: host, opens: true))
        return LinkExplanation(
            url: url,
            verdict: .opens,
            bundle: decisive.claim.bundle,
            appID: decisive.claim.appID,
            steps: steps,
            copies: looked,
            rule: answer.result.rule,
            findings: bearing,
            conclusion: "opens \(decisive.claim.bundle) (\(answer.result.why))"
                + (buildNotChecked == nil ? "" : ", as far as the entitlements file tells: the build was not checked")
        )
    }

    /// The step that stops every link at the build: what keeps a device from installing or running it.
    private func buildStep(_ blockers: [Finding]) -> LinkExplanation.Step {
        var step = LinkExplanation.Step(
            name: "build",
            status: .fail,
            summary: "no device will install or run this build"
        )
        step.details = blockers.map(describe)
        step.findings = blockers
        return step
    }

    /// How far `url` gets with one claim; `nil` when iOS ignores the entry for this build.
    private func evaluate(_ claim: Claim, url: String) -> Evaluation? {
        guard let target = claim.target, claim.ignored == nil else { return nil }
        let entryBlockers = findings.filter { blocks($0, claim: claim) && !Self.isAboutTheFile($0) }
        let fileBlockers = findings.filter { blocks($0, claim: claim) && Self.isAboutTheFile($0) }
        let device = deviceCopy(target)
        var answer: AASAMatchExplanation?
        var originAnswer: AASAMatchResult.OriginAnswer?
        if let appID = claim.appID, let judged = device?.judged {
            answer = judged.document.matcher(for: appID, domain: target.host).explain(url)
            if judged.copy == .cdn, let origin = documents.judged(target), origin.copy == .origin {
                let result = origin.document.matcher(for: appID, domain: target.host).evaluate(url)
                if result.verdict != answer?.result.verdict {
                    originAnswer = AASAMatchResult.OriginAnswer(verdict: result.verdict, why: result.why)
                }
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

    private func missingCopy(_ evaluation: Evaluation, host: String) -> String {
        if case .missing(let reason, _)? = evaluation.deviceCopy { return reason }
        return "\(host)'s AASA was not read"
    }

    /// What the URL step says besides its summary: how the text became the URL a device receives, and what no
    /// source settles about it (docs/ios-model.md#url).
    private func urlDetails(_ tapped: TappedURL) -> [String] {
        var details: [String] = []
        if tapped.normalized != tapped.original {
            details.append("judged as a device receives it: \(tapped.normalized)")
            details += tapped.changes
        }
        if tapped.link.scheme == "http" {
            details.append(
                "http links are universal links too (Apple: \"universal links are standard HTTP or HTTPS links\"); "
                    + "the AASA file itself is always read over https"
            )
        }
        if let port = tapped.port {
            details.append(
                "the URL names port \(port): an applinks entry cannot name a port (TN3155), and what iOS does with a "
                    + "tapped URL on another port is not documented (unknown)"
            )
        }
        return details
    }

    private func unclaimedDetails(_ host: String) -> [String] {
        let applinks = claims.filter { $0.domain.service == .applinks }
        var details: [String] = []
        if claims.contains(where: { $0.domain.wildcard && $0.domain.host == host }) {
            details.append("*.\(host) covers subdomains only, never \(host) itself (add applinks:\(host))")
        }
        details.append(
            applinks.isEmpty
                ? unclaimedBecause ?? "the build claims no applinks domains"
                : "applinks entries: " + applinks.map(\.domain.entry).joined(separator: ", ")
        )
        return details
    }

    private func describe(_ claim: Claim) -> LinkExplanation.Claim {
        LinkExplanation.Claim(
            bundle: claim.bundle,
            appID: claim.appID,
            entry: claim.domain.entry,
            host: claim.domain.host,
            wildcard: claim.domain.wildcard,
            mode: claim.domain.mode?.rawValue,
            ignored: claim.ignored
        )
    }

    /// One copy, one line for people.
    private func line(_ copy: LinkExplanation.Copy) -> String {
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
        if !copy.usable { line += " (no usable copy)" }
        if copy.stale { line += " (answers otherwise than the origin's file)" }
        if let refresh = copy.expectedRefresh { line += " · the CDN's cache expires at \(refresh)" }
        if let note = copy.refreshNote { line += " · \(note)" }
        return line
    }

    /// The copies of the claim's host the run looked at.
    func copies(_ evaluation: Evaluation) -> [LinkExplanation.Copy] {
        guard let report = site(evaluation.target) else { return [] }
        let deviceCopy = evaluation.deviceCopy?.judged?.copy
        let site = documents.site(for: evaluation.target)
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
                    lastModified: isFile ? nil : origin.lastModified,
                    bytes: origin.bodyBytes,
                    failureReason: nil,
                    failureDetails: nil,
                    problem: origin.failure.map { "\($0.kind.summary): \($0.detail)" },
                    usable: site?.origin != nil,
                    devicesRead: deviceCopy == .origin,
                    stale: false,
                    maxAgeSeconds: nil,
                    ageSeconds: nil,
                    expectedRefresh: nil,
                    refreshNote: nil
                )
            )
        }
        if let cdn = report.cdn {
            let stale = evaluation.originAnswer != nil || isStale(evaluation)
            let missing = site?.cdn == nil
            var expectedRefresh: String?
            var refreshNote: String?
            if stale || missing {
                if let fresh = cdn.freshForSeconds {
                    expectedRefresh = ISO8601DateFormatter().string(from: now.addingTimeInterval(Double(fresh)))
                } else {
                    refreshNote =
                        "Apple's CDN sent no Cache-Control max-age, so when its edge asks again cannot be told"
                }
            }
            copies.append(
                LinkExplanation.Copy(
                    copy: "cdn",
                    host: report.fetchHost,
                    location: cdn.url,
                    status: cdn.status,
                    contentType: nil,
                    bytes: cdn.bodyBytes,
                    failureReason: cdn.failureReason?.raw,
                    failureDetails: cdn.failureDetails,
                    problem: cdn.failure.map { "\($0.kind.summary): \($0.detail)" },
                    usable: !missing,
                    devicesRead: deviceCopy == .cdn || (evaluation.target.usesCDN && deviceCopy == nil),
                    stale: stale,
                    maxAgeSeconds: cdn.maxAgeSeconds,
                    ageSeconds: cdn.ageSeconds,
                    expectedRefresh: expectedRefresh,
                    refreshNote: refreshNote
                )
            )
        }
        return copies
    }

    /// Whether Apple's CDN copy treats the claim's app otherwise than the origin's file (listing or rules).
    private func isStale(_ evaluation: Evaluation) -> Bool {
        guard let appID = evaluation.claim.appID, let site = documents.site(for: evaluation.target),
            let origin = site.origin, let cdn = site.cdn
        else { return false }
        return origin.effectiveRules(for: appID) != cdn.effectiveRules(for: appID)
            || origin.appIDs(for: .applinks).contains(appID) != cdn.appIDs(for: .applinks).contains(appID)
    }

    private func describe(_ finding: Finding) -> String {
        "\(finding.rule) \(finding.message)"
    }
}
