import IPACheckAASA
import IPACheckReport

/// Defaults and the rules' patterns: components, paths, queries, variables.
extension LintContext {
    mutating func lintDefaults(_ value: AASAJSON?, at location: String) {
        guard let value else { return }
        guard value.members != nil else {
            add(AASARules.lintValues.wrongType, "\(location) must be an object, found \(value.typeName)", at: location)
            return
        }
        lintFieldTypes(value, at: location)
        let unknown = (value.members ?? []).map(\.key).filter { !AASADocument.knownComponentKeys.contains($0) }
        for key in unknown {
            let hint = Self.closest(key, in: AASADocument.knownComponentKeys).map { "; did you mean \"\($0)\"?" } ?? ""
            add(AASARules.lint.unknownComponentKey, "key \"\(key)\" in \(location) is ignored\(hint)", at: location)
        }
        if value["exclude"]?.boolValue == true {
            add(
                AASARules.lintEntries.excludeBroaderThanItLooks,
                "\(location) sets exclude: true, so every component that does not set exclude: false blocks",
                at: location
            )
        }
        for pattern in Self.patterns(of: AASAFields(object: value)) { lintPattern(pattern, at: location) }
    }

    mutating func lintFieldTypes(_ object: AASAJSON, at location: String) {
        let expectations: [(String, String, (AASAJSON) -> Bool)] = [
            ("/", "a string", { $0.stringValue != nil }),
            ("#", "a string", { $0.stringValue != nil }),
            ("?", "a string or an object", { $0.stringValue != nil || $0.members != nil }),
            ("exclude", "a boolean", { $0.boolValue != nil }),
            ("caseSensitive", "a boolean", { $0.boolValue != nil }),
            ("percentEncoded", "a boolean", { $0.boolValue != nil }),
            ("comment", "a string", { $0.stringValue != nil }),
        ]
        for (key, expected, isValid) in expectations {
            guard let value = object[key], !isValid(value) else { continue }
            add(
                AASARules.lintValues.wrongType,
                "\"\(key)\" in \(location) must be \(expected), found \(value.typeName) \(value.compactText); "
                    + "Apple ignores it, as if it were absent",
                at: location
            )
        }
        if let members = object["?"]?.members {
            let bad = members.filter { $0.value.stringValue == nil }
            if !bad.isEmpty {
                add(
                    AASARules.lintValues.nonStringQueryValue,
                    "query item(s) " + bad.map { "\"\($0.key)\": \($0.value.compactText)" }.joined(separator: ", ")
                        + " in \(location) are not strings, so Apple ignores the whole \"?\" dictionary and the rule "
                        + "matches any query (docs/matching.md#m12)",
                    at: location
                )
            }
        }
    }

    static func patterns(of fields: AASAFields) -> [String] {
        var result = [fields.path, fields.fragment].compactMap { $0 }
        switch fields.query {
        case .whole(let pattern)?: result.append(pattern)
        case .items(let items)?: result += items.map(\.pattern)
        case .ignored?, nil: break
        }
        return result
    }

    mutating func lintPattern(_ pattern: String, at location: String) {
        for name in PatternCompiler.variableReferences(in: pattern) where !definedVariables.contains(name) {
            add(
                AASARules.lintValues.undefinedVariable,
                "pattern \"\(pattern)\" uses $(\(name)), which is neither predefined nor in substitutionVariables; "
                    + "ipacheck treats the rule as never matching",
                at: location
            )
        }
        if PatternCompiler.hasUnterminatedVariable(pattern) {
            add(
                AASARules.lintValues.unterminatedVariable,
                "pattern \"\(pattern)\" has \"$(\" without a closing \")\"; it is matched literally",
                at: location
            )
        }
    }

    mutating func lintRule(_ rule: AASAPathRule, detail: AASADetail, applinks: AASAAppLinks) {
        let location = "\(detail.location).\(rule.kind == .component ? "components" : "paths")[\(rule.index)]"
        for pattern in Self.patterns(of: rule.fields) { lintPattern(pattern, at: location) }
        if let path = rule.fields.path {
            if let mark = path.firstIndex(of: "?"), path[mark...].contains("=") {
                add(
                    AASARules.lint.questionMarkInPath,
                    "path pattern \"\(path)\" contains \"?\", which matches any one character, not a query"
                        + (rule.kind == .component
                            ? "; put the query in the \"?\" key" : "; legacy paths cannot match queries"),
                    at: location
                )
            }
            if path.contains("#") {
                add(
                    AASARules.lint.hashInPath,
                    "path pattern \"\(path)\" contains \"#\", but a URL path never does (# starts the fragment); "
                        + "this rule can never match a hash-router URL",
                    at: location,
                    fix: rule.kind == .component
                        ? "Match the route with the \"#\" key, e.g. {\"/\": \"/\", \"#\": \"/settings*\"}."
                        : "Switch to components and match the route with the \"#\" key (iOS 13+)."
                )
            }
        }
        guard rule.kind == .component else { return }
        lintFieldTypes(rule.source, at: location)
        if !rule.unknownKeys.isEmpty {
            let effective = AASAEffectiveRule(rule: rule, detail: detail, appLinks: applinks)
            let hints = rule.unknownKeys.map { key in
                "\"\(key)\""
                    + (Self.closest(key, in: AASADocument.knownComponentKeys).map { " (did you mean \"\($0)\"?)" } ?? "")
            }
            let catchAll = effective.matchesEverything
            add(
                catchAll ? AASARules.lintEntries.misspelledKeyCatchAll : AASARules.lint.unknownComponentKey,
                "component key(s) \(hints.joined(separator: ", ")) are ignored by Apple (docs/matching.md#m18)"
                    + (catchAll ? ", so this component matches every URL" : ""),
                at: location
            )
        }
        if case .items(let items)? = rule.fields.query {
            for item in items where AASAEffectiveRule.isAllStars(item.pattern) {
                if rule.fields.exclude == true {
                    add(
                        AASARules.lintEntries.excludeBroaderThanItLooks,
                        "exclude rule's query item \"\(item.name)\": \"\(item.pattern)\" also holds when the item is "
                            + "absent (docs/matching.md#m3, #m10), so the rule excludes URLs without it too; use \"?*\" to require it",
                        at: location
                    )
                } else {
                    add(
                        AASARules.lintEntries.starQueryItem,
                        "query item \"\(item.name)\": \"\(item.pattern)\" also matches URLs without \(item.name) "
                            + "(docs/matching.md#m10), so it does not require the item; use \"?*\" to require a value",
                        at: location
                    )
                }
            }
        }
    }
}
