import Foundation
package import IPACheckAASA
package import IPACheckDevice
import IPACheckLinks
package import IPACheckReport
import IPACheckSites

/// Links for a tester to tap: for every bundle × applinks domain × rule of the copy devices read, a URL the rule
/// decides, and what a tap on it should do.
package struct LinkSheet: Encodable, Sendable {
    /// One URL to tap.
    package struct Link: Encodable, Sendable {
        /// What a tap should do.
        package enum Expected: String, Encodable, Sendable {
            /// Open the app.
            case opens
            /// Stay on the web (an exclude rule decides it, or the link breaks before the rules).
            case stays
        }

        /// The URL.
        package let url: String
        /// What a tap should do: what `ipacheck match --build` answers for it (`match` → opens, else stays).
        package let expected: Expected
        /// The app ID the rule is for.
        package let appID: String
        /// The bundle that claims the domain.
        package let bundle: String
        /// The entry that claims it (`applinks:example.com`).
        package let entry: String
        /// The rule that decides the URL.
        package let rule: AASAPathRuleReference
        /// What that rule of the copy devices read decides (an accepting rule opens, an exclude rule stays): the
        /// expectation once nothing before the rules stands in the way.
        package let rulesDecide: Expected
        /// Why, as `match` says it.
        package let why: String
        /// What a tap does on the device whose record was given (`links --device`): `opens` only where the files
        /// open it and the device's record of the claim breaks nothing.
        package var onThisDevice: Expected?
    }

    /// One applinks claim as the device whose record was given holds it (`links --device`).
    package struct DeviceClaim: Encodable, Sendable {
        package let bundle: String
        package let entry: String
        package let appID: String
        /// The device's entry of the claim.
        package let device: DeviceRecordFacts
        /// What the record says of it (docs/device.md, "Diagnoses").
        package let diagnoses: [DeviceDiagnosis]
        /// Whether links of the claim can open the app on this device (no diagnosis breaks them).
        package let linksOpen: Bool
    }

    /// A rule or domain no link could be made for, and why.
    package struct Skipped: Encodable, Sendable {
        /// The bundle.
        package let bundle: String
        /// The entry.
        package let entry: String
        /// The rule, when one rule was passed over.
        package let rule: AASAPathRuleReference?
        /// Why no link is given.
        package let reason: String
    }

    /// The links, by bundle, then entry, then rule.
    package var links: [Link]
    /// Each applinks claim as the device holds it, with `--device`.
    package var device: [DeviceClaim]?
    /// What was passed over.
    package let skipped: [Skipped]
    /// The gate's errors that stop every link of the build (it will not install or run as distributed): the links
    /// still say what the AASA files decide, and a tester is told why none may open.
    package let buildErrors: [Finding]
    /// Why there is no link at all, when there is more to say than that the build claims no applinks domain (its
    /// main app is unsigned, so it has no entitlements yet): what `domains`, `check` and `explain` say of it.
    package var noLinksBecause: String? = nil
}

extension LinkModel {
    /// The links a tester taps to try every rule of every applinks domain the build claims, each placed where no
    /// earlier rule decides it first; every expectation is ``matchAnswer(_:)``'s, so it is what `ipacheck match
    /// --build` and `explain` answer.
    package func linkSheet() -> LinkSheet {
        var links: [LinkSheet.Link] = []
        var skipped: [LinkSheet.Skipped] = []
        for claim in claims where claim.domain.service == .applinks {
            let entry = claim.domain.entry
            guard let target = claim.target, claim.ignored == nil, let appID = claim.appID else {
                let reason = claim.ignored ?? "the bundle is not signed with an application-identifier"
                skipped.append(
                    .init(bundle: claim.bundle, entry: entry, rule: nil, reason: "iOS ignores it: \(reason)")
                )
                continue
            }
            guard let judged = deviceCopy(target)?.judged else {
                let why: String
                if case .missing(let reason, _)? = deviceCopy(target) { why = reason } else { why = "not fetched" }
                skipped.append(
                    .init(bundle: claim.bundle, entry: entry, rule: nil, reason: "devices have no copy: \(why)")
                )
                continue
            }
            let matcher = judged.document.matcher(for: appID, domain: target.host)
            guard let detail = matcher.detailIndex else {
                skipped.append(
                    .init(
                        bundle: claim.bundle,
                        entry: entry,
                        rule: nil,
                        reason: "\(judged.name) does not list \(appID)"
                    )
                )
                continue
            }
            let host = claim.domain.wildcard ? "ipacheck-test." + claim.domain.host : claim.domain.host
            for (index, rule) in judged.document.effectiveRules(for: appID).enumerated() {
                let reference = AASAPathRuleReference(detail: detail, component: index)
                let wanted: AASAVerdict = rule.exclude ? .block : .match
                let decided = LinkSheet.candidates(for: rule, host: host).lazy.map { matcher.evaluate($0) }
                    .first { $0.rule == reference && $0.verdict == wanted }
                guard let result = decided else {
                    skipped.append(
                        .init(
                            bundle: claim.bundle,
                            entry: entry,
                            rule: reference,
                            reason: "no URL reaches this rule: an earlier rule decides every one tried"
                        )
                    )
                    continue
                }
                // The expectation is the one judgement every command renders (`match --build`, `explain`): a URL
                // another entry or bundle decides, or that breaks before the rules, is passed over, saying why.
                let explanation = explain(result.url)
                if let other = explanation.bundle, other != claim.bundle {
                    skipped.append(
                        .init(
                            bundle: claim.bundle,
                            entry: entry,
                            rule: reference,
                            reason: "\(other) decides this URL first (\(result.url))"
                        )
                    )
                    continue
                }
                if !(explanation.breakingStep == nil || explanation.breakingStep == "build"
                    || explanation.breakingStep == "rules")
                {
                    skipped.append(
                        .init(bundle: claim.bundle, entry: entry, rule: reference, reason: explanation.conclusion)
                    )
                    continue
                }
                let answer = matchAnswer(result.url).result
                links.append(
                    .init(
                        url: answer.url,
                        expected: answer.verdict == .match ? .opens : .stays,
                        appID: appID,
                        bundle: claim.bundle,
                        entry: entry,
                        rule: reference,
                        rulesDecide: rule.exclude ? .stays : .opens,
                        why: answer.why,
                        onThisDevice: nil
                    )
                )
            }
        }
        return LinkSheet(
            links: links,
            device: nil,
            skipped: skipped,
            buildErrors: findings.filter(blocksEveryLink),
            noLinksBecause: links.isEmpty && skipped.isEmpty ? unclaimedBecause : nil
        )
    }

    /// The link sheet with each applinks claim as `device`'s record holds it, and what each link does there.
    package func linkSheet(device: DeviceEvidence, build: DeviceComparedBuild) -> LinkSheet {
        var sheet = linkSheet()
        var held: [LinkSheet.DeviceClaim] = []
        for claim in claims where claim.domain.service == .applinks && claim.ignored == nil {
            guard let appID = claim.appID, let target = claim.target else { continue }
            let lists = deviceCopy(target)?.judged.map {
                $0.document.matcher(for: appID, domain: target.host).detailIndex != nil
            }
            let model = DeviceDiagnoses.Model(
                appID: appID,
                host: claim.domain.host,
                wildcard: claim.domain.wildcard,
                mode: claim.domain.mode?.rawValue,
                copyGrants: lists,
                cdnAgeSeconds: nil
            )
            let (entry, diagnoses) = DeviceDiagnoses.diagnose(model, device: device, build: build, now: now)
            held.append(
                .init(
                    bundle: claim.bundle,
                    entry: claim.domain.entry,
                    appID: appID,
                    device: DeviceRecordFacts(device, entry: entry),
                    diagnoses: diagnoses,
                    linksOpen: !diagnoses.contains(where: \.breaksLink)
                )
            )
        }
        sheet.device = held
        for index in sheet.links.indices {
            let link = sheet.links[index]
            let open = held.first { $0.bundle == link.bundle && $0.entry == link.entry }?.linksOpen ?? false
            sheet.links[index].onThisDevice = link.expected == .opens && open ? .opens : .stays
        }
        return sheet
    }
}

extension LinkSheet {
    /// What a `*` stands for in the URLs tried, in order: a word, nothing, a word with a digit.
    private static let fillers = ["ipacheck", "", "x1"]

    /// Values for Apple's predefined substitution variables (`$(alpha)` and the like).
    private static let predefined = ["alpha": "a", "upper": "A", "lower": "a", "alnum": "a1", "digit": "1"]

    /// URLs on `host` that the rule's patterns match, one per filler; the caller keeps the first the rule decides.
    static func candidates(for rule: AASAEffectiveRule, host: String) -> [String] {
        fillers.map { filler in
            var url = "https://\(host)/"
            url += rule.path.map { fill($0, with: filler, variables: rule.variables) } ?? "ipacheck"
            switch rule.query {
            case .whole(let pattern)?:
                url += "?" + fill(pattern, with: filler, variables: rule.variables)
            case .items(let items)?:
                url +=
                    "?"
                    + items.map { "\($0.name)=\(fill($0.pattern, with: filler, variables: rule.variables))" }
                    .joined(separator: "&")
            case .ignored?, nil:
                break
            }
            if let fragment = rule.fragment { url += "#" + fill(fragment, with: filler, variables: rule.variables) }
            return url
        }
    }

    /// A pattern made concrete: `*` becomes `filler`, `?` one letter, `$(name)` a value of the variable.
    private static func fill(_ pattern: String, with filler: String, variables: [String: [String]]) -> String {
        var out = ""
        var rest = Substring(pattern)
        while let first = rest.first {
            if rest.hasPrefix("$("), let close = rest.firstIndex(of: ")") {
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                let value = variables[name]?.first ?? predefined[name] ?? filler
                // A custom variable's value may itself hold wildcards; it holds no further variables.
                out += value.replacingOccurrences(of: "*", with: filler).replacingOccurrences(of: "?", with: "a")
                rest = rest[rest.index(after: close)...]
                continue
            }
            switch first {
            case "*": out += filler
            case "?": out += "a"
            default: out.append(first)
            }
            rest = rest.dropFirst()
        }
        return out
    }
}
