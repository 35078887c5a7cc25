import IPACheckAASA
import IPACheckReport

/// The applinks service: its keys, apps, defaults and substitution variables.
extension LintContext {
    mutating func lintAppLinks(_ applinks: AASAAppLinks) {
        let known: Set<String> = ["apps", "details", "defaults", "substitutionVariables"]
        for member in applinks.source.members ?? [] where !known.contains(member.key) {
            let hint = Self.closest(member.key, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
            add(
                AASARules.lintValues.unknownKey,
                "key \"\(member.key)\" in applinks is ignored\(hint)",
                at: "applinks.\(member.key)"
            )
        }
        if let apps = applinks.source["apps"] {
            if apps.arrayValue?.isEmpty != true {
                add(
                    AASARules.lint.legacyAppsNotEmpty,
                    "applinks.apps must be an empty array, found \(apps.compactText)",
                    at: "applinks.apps"
                )
            }
        }
        lintDefaults(applinks.source["defaults"], at: "applinks.defaults")
        lintVariables(applinks)

        switch applinks.source["details"] {
        case nil:
            add(
                AASARules.lintEntries.detailWithoutRules,
                "applinks has no details, so no app gets universal links",
                at: "applinks"
            )
        case .array(let entries)?:
            for (index, entry) in entries.enumerated() where entry.members == nil {
                add(
                    AASARules.lintValues.wrongType,
                    "applinks.details[\(index)] is \(entry.typeName), not an object; it is ignored",
                    at: "applinks.details[\(index)]"
                )
            }
        case .object(let members)?:
            if members.count > 1 {
                add(
                    AASARules.lintValues.legacyDetailsDictionary,
                    "applinks.details is a dictionary keyed by app ID (the oldest format); a JSON object has no "
                        + "order, so which app wins an overlapping URL is undefined",
                    at: "applinks.details"
                )
            } else {
                add(
                    AASARules.lintEntries.singleAppDetailsDictionary,
                    "applinks.details is a dictionary keyed by app ID (the oldest format); with one app it works",
                    at: "applinks.details"
                )
            }
            for member in members where member.value.members == nil {
                add(
                    AASARules.lintValues.wrongType,
                    "details for \(member.key) is \(member.value.typeName), not an object",
                    at: "applinks.details"
                )
            }
        case let other?:
            add(
                AASARules.lintValues.wrongType,
                "applinks.details must be an array, found \(other.typeName)",
                at: "applinks.details"
            )
        }

        var firstEntry: [String: String] = [:]
        for detail in applinks.details {
            lintDetail(detail, applinks: applinks)
            for appID in detail.appIDs {
                if let earlier = firstEntry[appID] {
                    add(
                        AASARules.lint.repeatedAppID,
                        "\(detail.location) lists \(appID) again; iOS uses only the first entry for an app "
                            + "(\(earlier)), so these rules never apply to it",
                        at: detail.location
                    )
                } else {
                    firstEntry[appID] = detail.location
                }
            }
        }
    }

    mutating func lintVariables(_ applinks: AASAAppLinks) {
        guard let value = applinks.source["substitutionVariables"] else { return }
        guard let members = value.members else {
            add(
                AASARules.lintValues.wrongType,
                "substitutionVariables must be an object, found \(value.typeName)",
                at: "applinks.substitutionVariables"
            )
            return
        }
        for member in members {
            let location = "applinks.substitutionVariables.\(member.key)"
            if member.key.contains(where: { "$()".contains($0) }) || member.key.isEmpty {
                add(
                    AASARules.lintValues.badSubstitutionVariable,
                    "variable name \"\(member.key)\" is empty or contains $, ( or ), which Apple does not allow",
                    at: location
                )
            }
            if PatternCompiler.builtinNames.contains(member.key) {
                add(
                    AASARules.lintValues.badSubstitutionVariable,
                    "custom variable \"\(member.key)\" has the name of a predefined one; which definition Apple uses "
                        + "is not documented (ipacheck uses the custom one)",
                    at: location
                )
            }
            guard let values = member.value.arrayValue else {
                add(
                    AASARules.lintValues.wrongType,
                    "variable \"\(member.key)\" must be an array of strings, found \(member.value.typeName)",
                    at: location
                )
                continue
            }
            if values.isEmpty {
                add(
                    AASARules.lintValues.badSubstitutionVariable,
                    "variable \"\(member.key)\" has no values, so patterns using it never match",
                    at: location
                )
            }
            for (index, element) in values.enumerated() {
                guard let text = element.stringValue else {
                    add(
                        AASARules.lintValues.wrongType,
                        "value \(index) of variable \"\(member.key)\" is \(element.typeName), not a string",
                        at: location
                    )
                    continue
                }
                if text.contains("$(") {
                    add(
                        AASARules.lintValues.badSubstitutionVariable,
                        "value \"\(text)\" of variable \"\(member.key)\" references another variable, which Apple does "
                            + "not allow (it is matched literally)",
                        at: location
                    )
                }
            }
        }
    }
}
