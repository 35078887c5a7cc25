import IPACheckAASA
import IPACheckReport

/// The rule flow: first match wins, so a rule after a broader one is never reached.
extension LintContext {
    mutating func lintFlow(_ detail: AASADetail, applinks: AASAAppLinks) {
        let effective = detail.rules.map { AASAEffectiveRule(rule: $0, detail: detail, appLinks: applinks) }
        let shadowing = effective.map(RuleShadowing.init)
        let listName = detail.ruleSource == .components ? "components" : "paths"
        func location(_ index: Int) -> String { "\(detail.location).\(listName)[\(detail.rules[index].index)]" }
        var unreachable = Set<Int>()
        var firstOccurrence: [RuleShadowing.DuplicateKey: Int] = [:]
        var pathBytesSoFar = 0
        for (index, rule) in effective.enumerated() {
            let matchSet = shadowing[index].duplicateKey
            if let earlier = firstOccurrence[matchSet], !unreachable.contains(earlier) {
                add(
                    AASARules.lint.duplicateRule,
                    "\(detail.rules[index].text) repeats \(listName)[\(detail.rules[earlier].index)] and never decides "
                        + "anything",
                    at: location(index)
                )
                unreachable.insert(index)
                continue
            }
            firstOccurrence[matchSet] = firstOccurrence[matchSet] ?? index
            if rule.matchesEverything, rule.exclude {
                add(
                    AASARules.lint.excludesEverything,
                    "\(detail.rules[index].text) excludes every URL; no later rule of \(detail.location) can fire",
                    at: location(index)
                )
            }
            // Pairwise coverage only among the first rules and paths, so hostile files with huge lists or long
            // paths stay linear.
            pathBytesSoFar += shadowing[index].pathBytes
            let inWindow = index < Self.coverageWindow && pathBytesSoFar <= Self.coverageTextWindow
            let earlierRules = inWindow ? index : 0
            for earlier in 0..<earlierRules where !unreachable.contains(earlier) {
                let previous = effective[earlier]
                if shadowing[earlier].covers(shadowing[index]) {
                    let reason = previous.matchesEverything ? "the catch-all" : "the broader rule"
                    add(
                        AASARules.lint.unreachableRule,
                        "\(detail.rules[index].text) can never fire: \(reason) \(detail.rules[earlier].text) at "
                            + "\(listName)[\(detail.rules[earlier].index)] matches every URL it would (first match wins)",
                        at: location(index)
                    )
                    unreachable.insert(index)
                    break
                }
            }
        }
        // Excludes with no accepting rule after them cannot change the outcome for this app.
        var acceptingLater = false
        for index in effective.indices.reversed() {
            let rule = effective[index]
            if !rule.exclude {
                if !unreachable.contains(index) { acceptingLater = true }
                continue
            }
            if !acceptingLater, !unreachable.contains(index), !rule.matchesEverything {
                add(
                    AASARules.lintValues.trailingExclude,
                    "\(detail.rules[index].text) comes after every rule that could accept a URL, so it never changes "
                        + "the outcome (an unmatched URL opens in the browser anyway)",
                    at: location(index)
                )
            }
        }
    }
}
