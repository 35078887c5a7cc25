public import IPACheckReport

/// Finds what is wrong or fragile in an AASA document, offline: the structural and semantic problems that make
/// universal links, web credentials or App Clips silently not work (`ipacheck lint`).
public enum AASALinter {
    /// Lints a parsed document.
    ///
    /// Findings are sorted (worst first) and carry JSON locations.
    public static func lint(_ document: AASADocument, domain: String? = nil) -> [Finding] {
        var context = LintContext(document: document, domain: domain)
        context.lintTopLevel()
        return context.findings.findings.sorted()
    }

    /// Parses and lints a file: the parse findings (BOM, size, signing, duplicate keys) plus the lint findings.
    public static func lint(
        bytes: [UInt8],
        domain: String? = nil
    ) throws(AASAParseError) -> (document: AASADocument, findings: [Finding]) {
        let (document, found) = try AASADocument.parse(bytes)
        let withDomain = found.map { finding -> Finding in
            var finding = finding
            finding.domain = domain
            return finding
        }
        var parseFindings = FindingList()
        parseFindings.append(contentsOf: withDomain)
        return (document, (parseFindings.findings + lint(document, domain: domain)).sorted())
    }
}

private struct LintContext {
    let document: AASADocument
    let domain: String?
    /// The distinct well-formed App ID prefixes of the file (at most 100), to suggest fixes for typos.
    let knownPrefixes: [String]
    /// The names a pattern may use: the predefined variables and the file's own (built once; building it per pattern
    /// made a file with many variables and many rules quadratic).
    let definedVariables: Set<String>
    var findings = FindingList()

    init(document: AASADocument, domain: String?) {
        self.document = document
        self.domain = domain
        var prefixes: [String] = []
        var seen = Set<String>()
        for appID in AASAService.allCases.flatMap({ document.appIDs(for: $0) }) where prefixes.count < 100 {
            let prefix = String(appID.prefix { $0 != "." })
            if prefix.count == 10, seen.insert(prefix).inserted { prefixes.append(prefix) }
        }
        knownPrefixes = prefixes
        var defined = PatternCompiler.builtinNames
        if let variables = document.applinks?.substitutionVariables { defined.formUnion(variables.keys) }
        definedVariables = defined
    }

    mutating func add(_ rule: Rule, _ message: String, at location: String, fix: String? = nil) {
        findings.append(rule.finding(message, domain: domain, location: location, fix: fix))
    }

    // MARK: - Top level and flat services

    mutating func lintTopLevel() {
        let services = Set(AASAService.allCases.map(\.rawValue))
        for member in document.root.members ?? [] where !services.contains(member.key) {
            let hint = Self.closest(member.key, in: services).map { "; did you mean \"\($0)\"?" } ?? ""
            add(
                hint.isEmpty ? AASARules.ignoredExtraKey : AASARules.unknownKey,
                "unknown top-level key \"\(member.key)\" is ignored\(hint)",
                at: member.key
            )
        }
        if document.services.isEmpty {
            add(
                AASARules.wrongType,
                "the file has no usable applinks, webcredentials, appclips or activitycontinuation section",
                at: "(root)"
            )
        }
        for service in AASAService.allCases where service != .applinks {
            guard let value = document.root[service.rawValue] else { continue }
            lintFlatService(service, value)
        }
        if let value = document.root["applinks"] {
            if value.members == nil {
                add(AASARules.wrongType, "applinks must be an object, found \(value.typeName)", at: "applinks")
            } else if let applinks = document.applinks {
                lintAppLinks(applinks)
            }
        }
    }

    mutating func lintFlatService(_ service: AASAService, _ value: AASAJSON) {
        let name = service.rawValue
        guard value.members != nil else {
            add(
                AASARules.wrongType,
                "\(name) must be an object with an \"apps\" array, found \(value.typeName)",
                at: name
            )
            return
        }
        for member in value.members ?? [] where member.key != "apps" {
            add(AASARules.ignoredExtraKey, "key \"\(member.key)\" in \(name) is ignored", at: "\(name).\(member.key)")
        }
        guard let apps = value["apps"] else {
            add(AASARules.wrongType, "\(name) has no \"apps\" array, so it lists no app", at: name)
            return
        }
        guard let elements = apps.arrayValue else {
            add(
                AASARules.wrongType,
                "\(name).apps must be an array of app IDs, found \(apps.typeName)",
                at: "\(name).apps"
            )
            return
        }
        if elements.isEmpty {
            add(AASARules.emptyAppsArray, "\(name).apps is empty, so the section lists no app", at: "\(name).apps")
        }
        for (index, element) in elements.enumerated() {
            let location = "\(name).apps[\(index)]"
            if let appID = element.stringValue {
                lintAppID(appID, at: location)
            } else {
                add(
                    AASARules.wrongType,
                    "\(location) is \(element.typeName), not an app ID string; it is ignored",
                    at: location
                )
            }
        }
    }

    // MARK: - applinks

    mutating func lintAppLinks(_ applinks: AASAAppLinks) {
        let known: Set<String> = ["apps", "details", "defaults", "substitutionVariables"]
        for member in applinks.source.members ?? [] where !known.contains(member.key) {
            let hint = Self.closest(member.key, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
            add(
                AASARules.unknownKey,
                "key \"\(member.key)\" in applinks is ignored\(hint)",
                at: "applinks.\(member.key)"
            )
        }
        if let apps = applinks.source["apps"] {
            if apps.arrayValue?.isEmpty != true {
                add(
                    AASARules.legacyAppsNotEmpty,
                    "applinks.apps must be an empty array, found \(apps.compactText)",
                    at: "applinks.apps"
                )
            }
        }
        lintDefaults(applinks.source["defaults"], at: "applinks.defaults")
        lintVariables(applinks)

        switch applinks.source["details"] {
        case nil:
            add(AASARules.detailWithoutRules, "applinks has no details, so no app gets universal links", at: "applinks")
        case .array(let entries)?:
            for (index, entry) in entries.enumerated() where entry.members == nil {
                add(
                    AASARules.wrongType,
                    "applinks.details[\(index)] is \(entry.typeName), not an object; it is ignored",
                    at: "applinks.details[\(index)]"
                )
            }
        case .object(let members)?:
            if members.count > 1 {
                add(
                    AASARules.legacyDetailsDictionary,
                    "applinks.details is a dictionary keyed by app ID (the oldest format); a JSON object has no "
                        + "order, so which app wins an overlapping URL is undefined",
                    at: "applinks.details"
                )
            } else {
                add(
                    AASARules.singleAppDetailsDictionary,
                    "applinks.details is a dictionary keyed by app ID (the oldest format); with one app it works",
                    at: "applinks.details"
                )
            }
            for member in members where member.value.members == nil {
                add(
                    AASARules.wrongType,
                    "details for \(member.key) is \(member.value.typeName), not an object",
                    at: "applinks.details"
                )
            }
        case let other?:
            add(
                AASARules.wrongType,
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
                        AASARules.repeatedAppID,
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
                AASARules.wrongType,
                "substitutionVariables must be an object, found \(value.typeName)",
                at: "applinks.substitutionVariables"
            )
            return
        }
        for member in members {
            let location = "applinks.substitutionVariables.\(member.key)"
            if member.key.contains(where: { "$()".contains($0) }) || member.key.isEmpty {
                add(
                    AASARules.badSubstitutionVariable,
                    "variable name \"\(member.key)\" is empty or contains $, ( or ), which Apple does not allow",
                    at: location
                )
            }
            if PatternCompiler.builtinNames.contains(member.key) {
                add(
                    AASARules.badSubstitutionVariable,
                    "custom variable \"\(member.key)\" has the name of a predefined one; which definition Apple uses "
                        + "is not documented (ipacheck uses the custom one)",
                    at: location
                )
            }
            guard let values = member.value.arrayValue else {
                add(
                    AASARules.wrongType,
                    "variable \"\(member.key)\" must be an array of strings, found \(member.value.typeName)",
                    at: location
                )
                continue
            }
            if values.isEmpty {
                add(
                    AASARules.badSubstitutionVariable,
                    "variable \"\(member.key)\" has no values, so patterns using it never match",
                    at: location
                )
            }
            for (index, element) in values.enumerated() {
                guard let text = element.stringValue else {
                    add(
                        AASARules.wrongType,
                        "value \(index) of variable \"\(member.key)\" is \(element.typeName), not a string",
                        at: location
                    )
                    continue
                }
                if text.contains("$(") {
                    add(
                        AASARules.badSubstitutionVariable,
                        "value \"\(text)\" of variable \"\(member.key)\" references another variable, which Apple does "
                            + "not allow (it is matched literally)",
                        at: location
                    )
                }
            }
        }
    }

    // MARK: - Details entries

    mutating func lintDetail(_ detail: AASADetail, applinks: AASAAppLinks) {
        let location = detail.location
        let entry = detail.source
        let known: Set<String> = [
            "appID", "appIDs", "components", "paths", "defaults", "comment", "relativeOrder",
        ]
        for member in entry.members ?? [] where !known.contains(member.key) {
            let hint = Self.closest(member.key, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
            add(
                AASARules.unknownKey,
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
                AASARules.mixedPathsAndComponents,
                "\(location) has both \"paths\" and \"components\"; iOS 13+ uses only components, so \(dead == "paths" ? "the paths are ignored" : "nothing from components applies")",
                at: location
            )
        }
        if let components = entry["components"], components.arrayValue == nil {
            add(
                AASARules.wrongType,
                "\(location).components must be an array, found \(components.typeName)",
                at: "\(location).components"
            )
        }
        if let paths = entry["paths"] {
            if let elements = paths.arrayValue {
                for (index, element) in elements.enumerated() where element.stringValue == nil {
                    add(
                        AASARules.wrongType,
                        "\(location).paths[\(index)] is \(element.typeName), not a string; it is ignored",
                        at: "\(location).paths[\(index)]"
                    )
                }
            } else {
                add(
                    AASARules.wrongType,
                    "\(location).paths must be an array of strings, found \(paths.typeName)",
                    at: "\(location).paths"
                )
            }
        }
        if detail.ruleSource == .components, let elements = entry["components"]?.arrayValue {
            for (index, element) in elements.enumerated() where element.members == nil {
                add(
                    AASARules.wrongType,
                    "\(location).components[\(index)] is \(element.typeName), not an object; it is ignored",
                    at: "\(location).components[\(index)]"
                )
            }
        }
        if detail.rules.isEmpty {
            let what: String
            switch detail.ruleSource {
            case .components: what = "an empty components array (M21: no URL matches, and paths are ignored)"
            case .paths: what = "no usable paths"
            case .none: what = "neither components nor paths"
            }
            add(
                AASARules.detailWithoutRules,
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
                AASARules.wrongType,
                "\(location).appID must be a string, found \(single.typeName)",
                at: "\(location).appID"
            )
        }
        if let list {
            if let elements = list.arrayValue {
                for (index, element) in elements.enumerated() where element.stringValue == nil {
                    add(
                        AASARules.wrongType,
                        "\(location).appIDs[\(index)] is \(element.typeName), not a string",
                        at: "\(location).appIDs[\(index)]"
                    )
                }
            } else {
                add(
                    AASARules.wrongType,
                    "\(location).appIDs must be an array, found \(list.typeName)\(single?.stringValue != nil ? "; appID is used instead" : "")",
                    at: "\(location).appIDs"
                )
            }
        }
        if let singleID = single?.stringValue, list?.arrayValue != nil {
            let covered = detail.appIDs.contains(singleID)
            add(
                covered ? AASARules.appIDBesideAppIDs : AASARules.appIDLostBesideAppIDs,
                "\(location) has both appID and appIDs; appIDs wins (M20)"
                    + (covered ? "" : ", so \(singleID) gets nothing from this entry"),
                at: location
            )
        }
        if detail.appIDs.isEmpty {
            add(
                AASARules.detailWithoutAppIDs,
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
            add(AASARules.malformedAppID, "app ID \"\(appID)\" is malformed: \(reason)", at: location)
        case .placeholder(let reason):
            add(AASARules.placeholderAppID, "app ID \"\(appID)\" looks like a placeholder: \(reason)", at: location)
        }
    }

    // MARK: - Defaults and rules

    mutating func lintDefaults(_ value: AASAJSON?, at location: String) {
        guard let value else { return }
        guard value.members != nil else {
            add(AASARules.wrongType, "\(location) must be an object, found \(value.typeName)", at: location)
            return
        }
        lintFieldTypes(value, at: location)
        let unknown = (value.members ?? []).map(\.key).filter { !AASADocument.knownComponentKeys.contains($0) }
        for key in unknown {
            let hint = Self.closest(key, in: AASADocument.knownComponentKeys).map { "; did you mean \"\($0)\"?" } ?? ""
            add(AASARules.unknownComponentKey, "key \"\(key)\" in \(location) is ignored\(hint)", at: location)
        }
        if value["exclude"]?.boolValue == true {
            add(
                AASARules.excludeBroaderThanItLooks,
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
                AASARules.wrongType,
                "\"\(key)\" in \(location) must be \(expected), found \(value.typeName) \(value.compactText); "
                    + "Apple ignores it, as if it were absent",
                at: location
            )
        }
        if let members = object["?"]?.members {
            let bad = members.filter { $0.value.stringValue == nil }
            if !bad.isEmpty {
                add(
                    AASARules.nonStringQueryValue,
                    "query item(s) " + bad.map { "\"\($0.key)\": \($0.value.compactText)" }.joined(separator: ", ")
                        + " in \(location) are not strings, so Apple ignores the whole \"?\" dictionary and the rule "
                        + "matches any query (M12)",
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
                AASARules.undefinedVariable,
                "pattern \"\(pattern)\" uses $(\(name)), which is neither predefined nor in substitutionVariables; "
                    + "ipacheck treats the rule as never matching",
                at: location
            )
        }
        if PatternCompiler.hasUnterminatedVariable(pattern) {
            add(
                AASARules.unterminatedVariable,
                "pattern \"\(pattern)\" has \"$(\" without a closing \")\"; it is matched literally",
                at: location
            )
        }
    }

    mutating func lintRule(_ rule: AASARule, detail: AASADetail, applinks: AASAAppLinks) {
        let location = "\(detail.location).\(rule.kind == .component ? "components" : "paths")[\(rule.index)]"
        for pattern in Self.patterns(of: rule.fields) { lintPattern(pattern, at: location) }
        if let path = rule.fields.path {
            if let mark = path.firstIndex(of: "?"), path[mark...].contains("=") {
                add(
                    AASARules.questionMarkInPath,
                    "path pattern \"\(path)\" contains \"?\", which matches any one character, not a query"
                        + (rule.kind == .component
                            ? "; put the query in the \"?\" key" : "; legacy paths cannot match queries"),
                    at: location
                )
            }
            if path.contains("#") {
                add(
                    AASARules.hashInPath,
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
                catchAll ? AASARules.misspelledKeyCatchAll : AASARules.unknownComponentKey,
                "component key(s) \(hints.joined(separator: ", ")) are ignored by Apple (M18)"
                    + (catchAll ? ", so this component matches every URL" : ""),
                at: location
            )
        }
        if case .items(let items)? = rule.fields.query {
            for item in items where AASAEffectiveRule.isAllStars(item.pattern) {
                if rule.fields.exclude == true {
                    add(
                        AASARules.excludeBroaderThanItLooks,
                        "exclude rule's query item \"\(item.name)\": \"\(item.pattern)\" also holds when the item is "
                            + "absent (M3, M10), so the rule excludes URLs without it too; use \"?*\" to require it",
                        at: location
                    )
                } else {
                    add(
                        AASARules.starQueryItem,
                        "query item \"\(item.name)\": \"\(item.pattern)\" also matches URLs without \(item.name) "
                            + "(M10), so it does not require the item; use \"?*\" to require a value",
                        at: location
                    )
                }
            }
        }
    }

    // MARK: - Rule flow (first match wins)

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
                    AASARules.duplicateRule,
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
                    AASARules.excludesEverything,
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
                        AASARules.unreachableRule,
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
                    AASARules.trailingExclude,
                    "\(detail.rules[index].text) comes after every rule that could accept a URL, so it never changes "
                        + "the outcome (an unmatched URL opens in the browser anyway)",
                    at: location(index)
                )
            }
        }
    }

    // MARK: - Helpers

    /// How many earlier rules each rule is compared with for coverage (real files have far fewer rules).
    static let coverageWindow = 500
    /// How many bytes of paths the coverage comparison reads, counted from the first rule: Apple's size limit for
    /// the whole file (aasa.md §1.3), so the rules of any file Apple reads are compared in full.
    static let coverageTextWindow = 131_072

    /// A known name that differs from `key` only by case, or by at most two edits.
    static func closest(_ key: String, in candidates: Set<String>) -> String? {
        if let sameLetters = candidates.first(where: { $0.lowercased() == key.lowercased() }) { return sameLetters }
        let aliases = ["path": "/", "paths": "/", "query": "?", "fragment": "#", "hash": "#", "excluded": "exclude"]
        if let alias = aliases[key.lowercased()], candidates.contains(alias) { return alias }
        guard key.count >= 4 else { return nil }
        return candidates.filter { $0.count >= 4 }.min { editDistance(key, $0) < editDistance(key, $1) }
            .flatMap { editDistance(key, $0) <= 2 ? $0 : nil }
    }

    static func editDistance(_ left: String, _ right: String) -> Int {
        let a = Array(left.lowercased())
        let b = Array(right.lowercased())
        guard a.count < 64, b.count < 64 else { return Int.max }
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension AASARules {
    static let mixedPathsAndComponents = Rule(
        "AASA101",
        .warning,
        "paths next to components",
        summary: "A details entry with a components array ignores its paths (M21); TN3155: \"Don't mix and match "
            + "these formats or universal links won't work.\"",
        fix: "Keep one format per entry: components (iOS 13+) or, only for iOS 12 and older, paths."
    )
    static let appIDBesideAppIDs = Rule(
        "AASA102",
        .warning,
        "appID next to appIDs",
        summary: "When appIDs is present (even empty), iOS ignores appID (M20).",
        fix: "Move the app ID into the appIDs array and delete appID."
    )
    static let legacyAppsNotEmpty = Rule(
        "AASA103",
        .warning,
        "applinks.apps is not an empty array",
        summary: "The legacy format requires \"apps\": [] in applinks; anything else is wrong (the archived guide).",
        fix: "Set \"apps\": [] or remove the key (iOS 13+ does not need it)."
    )
    static let unreachableRule = Rule(
        "AASA104",
        .warning,
        "rule can never fire",
        summary: "An earlier rule matches every URL this one would, and the first match wins (M1).",
        fix: "Move the specific rule before the broader one, or delete it."
    )
    static let duplicateRule = Rule(
        "AASA105",
        .warning,
        "duplicate rule",
        summary: "The rule has the same effect as an earlier one, so it never decides anything.",
        fix: "Delete the duplicate."
    )
    static let repeatedAppID = Rule(
        "AASA106",
        .warning,
        "app ID in more than one details entry",
        summary: "swcd keeps one entry per (service, app ID, domain): only the first details entry listing an app "
            + "applies to it (M22).",
        fix: "Merge the rules into the first entry that lists the app."
    )
    static let unknownComponentKey = Rule(
        "AASA107",
        .warning,
        "unknown key in a component or defaults",
        summary: "Apple silently ignores unknown keys (M18); a misspelled \"/\" (\"path\") or \"caseSensitive\" "
            + "(\"casesensitive\") turns the rule into a broader one, often a catch-all.",
        fix: "Use the documented keys: /, ?, #, exclude, comment, caseSensitive, percentEncoded."
    )
    static let excludesEverything = Rule(
        "AASA108",
        .error,
        "exclude that excludes too much",
        summary: "The exclude rule matches every URL (or more than intended: a query item pattern \"*\" also holds "
            + "when the item is absent, M3+M10), so links break.",
        fix: "Constrain the exclude, e.g. require a query item with \"?*\" instead of \"*\"."
    )
    static let questionMarkInPath = Rule(
        "AASA109",
        .warning,
        "query written into a path pattern",
        summary: "In a path pattern, ? matches any single character; the path never contains the query.",
        fix: "Match the query with the \"?\" key of a component."
    )
    static let hashInPath = Rule(
        "AASA110",
        .warning,
        "fragment (hash route) written into a path pattern",
        summary: "# starts the URL fragment, so a path pattern containing # never matches a hash-router URL (M13).",
        fix: "Match hash routes with the \"#\" key of a component."
    )
    static let trailingExclude = Rule(
        "AASA111",
        .warning,
        "exclude after every accepting rule",
        summary: "An exclude (or NOT path) after which no rule could accept a URL has no effect: with first match "
            + "wins, such URLs are not matched anyway.",
        fix: "Move the exclude before the broader rule it is meant to carve out of, or delete it."
    )
    static let malformedAppID = Rule(
        "AASA112",
        .error,
        "malformed app ID",
        summary: "An app ID is the 10-character App ID prefix (Team ID), a dot and the bundle ID; anything else never "
            + "equals the app's application-identifier.",
        fix: "Copy application-identifier from the signed app (ipacheck entitlements APP.ipa)."
    )
    static let placeholderAppID = Rule(
        "AASA113",
        .warning,
        "placeholder app ID",
        summary: "The app ID looks like a template value (FAKETEAMID, ABCDE12345, com.example…), not a real app.",
        fix: "Replace it with the app's real application-identifier."
    )
    static let undefinedVariable = Rule(
        "AASA114",
        .error,
        "undefined substitution variable",
        summary: "The pattern uses $(name) that is neither predefined (alpha, upper, lower, alnum, digit, xdigit, "
            + "region, lang) nor defined in substitutionVariables.",
        fix: "Define the variable in applinks.substitutionVariables or fix its name (names are case-sensitive)."
    )
    static let unterminatedVariable = Rule(
        "AASA115",
        .warning,
        "unterminated substitution variable",
        summary: "A pattern has \"$(\" without a closing \")\".",
        fix: "Close the variable reference: $(name)."
    )
    static let nonStringQueryValue = Rule(
        "AASA116",
        .error,
        "non-string query predicate",
        summary: "One non-string value (true, 5, null, array, object) makes Apple ignore the whole \"?\" dictionary, "
            + "so the rule matches any query (M12).",
        fix: "Quote the value: \"flag\": \"true\", or use \"?*\" to require any value."
    )
    static let wrongType = Rule(
        "AASA117",
        .error,
        "wrong JSON type",
        summary: "A key has a JSON type Apple does not accept; Apple ignores the value as if it were absent.",
        fix: "Use the documented type (strings for patterns and app IDs, booleans for flags, arrays for lists)."
    )
    static let unknownKey = Rule(
        "AASA118",
        .warning,
        "unknown key",
        summary: "Apple ignores keys it does not know; a misspelled service or key disables what it was meant to do.",
        fix: "Check the spelling against Apple's documentation; delete keys that are not used."
    )
    static let legacyDetailsDictionary = Rule(
        "AASA119",
        .warning,
        "details as a dictionary",
        summary: "The oldest format keys details by app ID; JSON objects have no order, so the evaluation order of "
            + "apps is undefined.",
        fix: "Use \"details\": [ {\"appIDs\": [...], \"components\": [...]} ]."
    )
    static let badSubstitutionVariable = Rule(
        "AASA120",
        .warning,
        "questionable substitution variable",
        summary: "Variable names cannot contain $, ( or ); values cannot reference variables; an empty list never "
            + "matches; redefining a predefined name is undocumented.",
        fix: "Follow applinks.SubstitutionVariables: plain names, non-empty string lists without $(…)."
    )
    static let detailWithoutRules = Rule(
        "AASA121",
        .warning,
        "details entry without rules",
        summary: "Without components or paths (or with an empty components array, M21) the entry matches no URL.",
        fix: "Add components (e.g. {\"/\": \"*\"} to match everything)."
    )
    static let detailWithoutAppIDs = Rule(
        "AASA122",
        .warning,
        "details entry without app IDs",
        summary: "An entry with an empty appIDs array (or no appID) applies to no app; appIDs [] even hides appID "
            + "(M20).",
        fix: "List the app IDs in appIDs."
    )
    static let emptyAppsArray = Rule(
        "AASA123",
        .note,
        "empty apps array",
        summary: "The service section lists no app, so it has no effect.",
        fix: "List the app IDs, or delete the section."
    )
    static let starQueryItem = Rule(
        "AASA124",
        .note,
        "query item \"*\" does not require the item",
        summary: "A missing query item counts as empty and \"*\" matches empty (M10), so {\"id\": \"*\"} accepts URLs "
            + "without id.",
        fix: "Use \"?*\" to require a non-empty value."
    )
    static let ignoredExtraKey = Rule(
        "AASA125",
        .note,
        "ignored extra key",
        summary: "A key that is no known service or field and resembles none: Apple ignores it, and nothing is lost.",
        fix: "Delete it to keep the file clear."
    )
    static let singleAppDetailsDictionary = Rule(
        "AASA126",
        .note,
        "details as a dictionary (one app)",
        summary: "The oldest format keys details by app ID; with a single app the missing order does not matter.",
        fix: "Use \"details\": [ {\"appIDs\": [...], \"components\": [...]} ] before adding a second app."
    )
    static let appIDLostBesideAppIDs = Rule(
        "AASA127",
        .error,
        "appID lost next to appIDs",
        summary: "When appIDs is present (even empty), iOS ignores appID (M20); here the appID is not in appIDs, so "
            + "that app gets nothing from the entry.",
        fix: "Move the app ID into the appIDs array and delete appID."
    )
    static let excludeBroaderThanItLooks = Rule(
        "AASA128",
        .warning,
        "exclude broader than it looks",
        summary: "The exclude covers more than its pattern suggests: exclude: true in defaults makes every component "
            + "exclude unless it says otherwise, and a query item \"*\" also holds when the item is absent (M3, M10).",
        fix: "Set exclude only on the components that should block; require a query item with \"?*\"."
    )
    static let misspelledKeyCatchAll = Rule(
        "AASA129",
        .error,
        "misspelled key makes a catch-all",
        summary: "Apple ignores unknown keys (M18): with its pattern key misspelled (\"path\" for \"/\"), the "
            + "component matches every URL, so the app opens links it was never meant to.",
        fix: "Use the documented keys: /, ?, #, exclude, comment, caseSensitive, percentEncoded."
    )
}
