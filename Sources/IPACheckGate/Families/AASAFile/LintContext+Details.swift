import IPACheckAASA
import IPACheckReport

/// The details entries: app IDs and each entry's rules.
extension LintContext {
    mutating func lintDetail(_ detail: AASADetail, applinks: AASAAppLinks) {
        let location = detail.location
        let entry = detail.source
        let known: Set<String> = [
            "appID", "appIDs", "components", "paths", "defaults", "comment", "relativeOrder",
        ]
        for member in entry.members ?? [] where !known.contains(member.key) {
            let hint = Self.closest(member.key, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
            add(
                AASARules.lintValues.unknownKey,
                "key \"\(member.key)\" in \(location) is ignored\(hint)",
                at: "\(location).\(member.key)"
            )
        }
        lintAppIDKeys(detail)
        lintDefaults(entry["defaults"], at: "\(location).defaults")

        let hasComponents = entry["components"] != nil
        let hasPaths = entry["paths"] != nil
        if hasComponents, hasPaths {
            let dead = detail.ruleSource == .components ? "paths" : "components"
            add(
                AASARules.lint.mixedPathsAndComponents,
                "\(location) has both \"paths\" and \"components\"; iOS 13+ uses only components, so \(dead == "paths" ? "the paths are ignored" : "nothing from components applies")",
                at: location
            )
        }
        if let components = entry["components"], components.arrayValue == nil {
            add(
                AASARules.lintValues.wrongType,
                "\(location).components must be an array, found \(components.typeName)",
                at: "\(location).components"
            )
        }
        if let paths = entry["paths"] {
            if let elements = paths.arrayValue {
                for (index, element) in elements.enumerated() where element.stringValue == nil {
                    add(
                        AASARules.lintValues.wrongType,
                        "\(location).paths[\(index)] is \(element.typeName), not a string; it is ignored",
                        at: "\(location).paths[\(index)]"
                    )
                }
            } else {
                add(
                    AASARules.lintValues.wrongType,
                    "\(location).paths must be an array of strings, found \(paths.typeName)",
                    at: "\(location).paths"
                )
            }
        }
        if detail.ruleSource == .components, let elements = entry["components"]?.arrayValue {
            for (index, element) in elements.enumerated() where element.members == nil {
                add(
                    AASARules.lintValues.wrongType,
                    "\(location).components[\(index)] is \(element.typeName), not an object; it is ignored",
                    at: "\(location).components[\(index)]"
                )
            }
        }
        if detail.rules.isEmpty {
            let what: String
            switch detail.ruleSource {
            case .components:
                what = "an empty components array (no URL matches, and paths are ignored: docs/matching.md#m21)"
            case .paths: what = "no usable paths"
            case .none: what = "neither components nor paths"
            }
            add(
                AASARules.lintEntries.detailWithoutRules,
                "\(location) has \(what), so its apps get no universal links",
                at: location
            )
        }
        for rule in detail.rules {
            lintRule(rule, detail: detail, applinks: applinks)
        }
        lintFlow(detail, applinks: applinks)
    }

    mutating func lintAppIDKeys(_ detail: AASADetail) {
        let location = detail.location
        let entry = detail.source
        if applinksIsDictionary(detail) {
            lintAppID(detail.appIDs.first ?? "", at: location)
            return
        }
        let single = entry["appID"]
        let list = entry["appIDs"]
        if let single, single.stringValue == nil {
            add(
                AASARules.lintValues.wrongType,
                "\(location).appID must be a string, found \(single.typeName)",
                at: "\(location).appID"
            )
        }
        if let list {
            if let elements = list.arrayValue {
                for (index, element) in elements.enumerated() where element.stringValue == nil {
                    add(
                        AASARules.lintValues.wrongType,
                        "\(location).appIDs[\(index)] is \(element.typeName), not a string",
                        at: "\(location).appIDs[\(index)]"
                    )
                }
            } else {
                add(
                    AASARules.lintValues.wrongType,
                    "\(location).appIDs must be an array, found \(list.typeName)\(single?.stringValue != nil ? "; appID is used instead" : "")",
                    at: "\(location).appIDs"
                )
            }
        }
        if let singleID = single?.stringValue, list?.arrayValue != nil {
            let covered = detail.appIDs.contains(singleID)
            add(
                covered ? AASARules.lint.appIDBesideAppIDs : AASARules.lintEntries.appIDLostBesideAppIDs,
                "\(location) has both appID and appIDs; appIDs wins (docs/matching.md#m20)"
                    + (covered ? "" : ", so \(singleID) gets nothing from this entry"),
                at: location
            )
        }
        if detail.appIDs.isEmpty {
            add(
                AASARules.lintEntries.detailWithoutAppIDs,
                "\(location) names no app ID, so its rules apply to no app",
                at: location
            )
        }
        for (index, appID) in detail.appIDs.enumerated() {
            lintAppID(appID, at: list?.arrayValue != nil ? "\(location).appIDs[\(index)]" : "\(location).appID")
        }
    }

    func applinksIsDictionary(_ detail: AASADetail) -> Bool {
        document.applinks?.detailsIsDictionary == true
    }

    mutating func lintAppID(_ appID: String, at location: String) {
        switch AppIDCheck.check(appID, knownPrefixes: knownPrefixes) {
        case .valid: break
        case .malformed(let reason):
            add(AASARules.lintValues.malformedAppID, "app ID \"\(appID)\" is malformed: \(reason)", at: location)
        case .placeholder(let reason):
            add(
                AASARules.lintValues.placeholderAppID,
                "app ID \"\(appID)\" looks like a placeholder: \(reason)",
                at: location
            )
        }
    }
}
