import Foundation
import IPACheckAASA
package import IPACheckReport
package import IPACheckSigning
import Yams

/// The project's `.ipacheck.json` (or `.ipacheck.yml`): what the gate must find, what it may ignore (with a reason), and App Flip and
/// Firebase settings pinned next to the code.
///
/// ```json
/// {
///   "expectedDomains": ["applinks:example.com", "webcredentials:example.com"],
///   "suppress": [{"rule": "LINK005", "domain": "example.com", "reason": "CDN refresh pending, ticket 42"}],
///   "appFlip": {"appFlipURL": "https://example.com/appflip", "clientID": "..."},
///   "firebase": {
///     "emailActions": ["signIn", "resetPassword"], "linkDomain": "links.example.com",
///     "continueURLs": ["https://example.com/account/done"]
///   },
///   "failOn": "warning"
/// }
/// ```
package struct GateConfiguration: Sendable {
    /// One suppression: findings of `rule` (optionally only for a domain or bundle) are dropped, with a reason.
    package struct Suppression: Sendable, Hashable {
        /// The rule ID to suppress.
        package let rule: String
        /// Only findings about this domain (host), if given.
        package let domain: String?
        /// Only findings about this bundle (path or folder name), if given.
        package let bundle: String?
        /// Why: required, so a suppression documents itself.
        package let reason: String

        /// Whether this suppression covers `finding`.
        package func covers(_ finding: Finding) -> Bool {
            guard finding.rule == rule else { return false }
            if let domain, finding.domain?.lowercased() != domain.lowercased() { return false }
            if let bundle {
                guard let path = finding.bundle, path == bundle || path.hasSuffix("/" + bundle) else { return false }
            }
            return true
        }
    }

    /// Associated-domains entries (`applinks:example.com`) some bundle must claim.
    package var expectedDomains: [String] = []
    /// Findings to drop, each with a reason.
    package var suppressions: [Suppression] = []
    /// The App Flip config, when pinned here.
    package var appFlip: AppFlipConfig?
    /// Firebase link settings.
    package var firebase = FirebaseLinkSettings()
    /// The gate threshold, when pinned here (the command line wins).
    package var failOn: Severity?
    /// What the build is for, when pinned here (`--distribution` wins).
    package var distribution: Distribution?

    /// An empty configuration.
    package init() {}

    /// The keys an object may have, by place in the file; anything else is a typo refused rather than ignored.
    static let schema: [String: [String]] = [
        "": ["expectedDomains", "suppress", "appFlip", "firebase", "failOn", "distribution"],
        "suppress[]": ["rule", "domain", "bundle", "reason"],
        "firebase": ["emailLinkSignIn", "emailActions", "linkDomain", "continueURLs"],
        "appFlip": AppFlipConfig.keys,
    ]

    /// The file names `ipacheck check` looks for in the current folder, in this order.
    package static let defaultFileNames = [".ipacheck.json", ".ipacheck.yml", ".ipacheck.yaml"]

    /// The largest configuration file read.
    static let maximumSize = 1024 * 1024

    /// Reads a configuration file: YAML when its name ends in `.yml` or `.yaml`, strict JSON otherwise.
    ///
    /// Syntax errors, unknown keys (at every level), wrong types, unknown rule IDs and suppressions without a
    /// reason are refused with the line and column where they are.
    ///
    /// - Throws: ``InputError`` naming the file, the place and what is wrong.
    package static func load(path: String) throws(InputError) -> GateConfiguration {
        let bytes = try InputFile.read(path, limit: maximumSize, what: "a config file")
        let isYAML = path.hasSuffix(".yml") || path.hasSuffix(".yaml")
        let tree = try ConfigTree.parse(bytes, yaml: isYAML, file: path)
        guard case .object = tree.value else {
            let expected = isYAML ? "a YAML mapping" : "a JSON object"
            throw InputError("bad-config", file: path, "is not \(expected): the top level is \(tree.kindName)")
        }
        try tree.checkKeys(schema, file: path)
        let file: ConfigFile
        do {
            file = try JSONDecoder().decode(ConfigFile.self, from: try JSONEncoder().encode(tree.json))
        } catch let error as DecodingError {
            throw describe(error, tree: tree, file: path)
        } catch {
            throw InputError("bad-config", file: path, "\(error)")
        }
        var config = GateConfiguration()
        config.expectedDomains = file.expectedDomains ?? []
        // Only what check can raise can be suppressed: its checks' rules (`ipacheck rules` lists every rule).
        let known = Set(GateChecks.rules.map(\.id))
        let entries = tree["suppress"].flatMap { node -> [ConfigTree]? in
            if case .array(let elements) = node.value { return elements }
            return nil
        }
        for (index, entry) in (file.suppress ?? []).enumerated() {
            let place = entries.flatMap { index < $0.count ? $0[index]["rule"]?.position : nil } ?? "suppress[\(index)]"
            guard known.contains(entry.rule) else {
                throw InputError(
                    "bad-config",
                    file: path,
                    "\(place): suppress[\(index)] names rule \(entry.rule), which ipacheck check does not raise (see ipacheck rules)"
                )
            }
            guard !entry.reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw InputError(
                    "bad-config",
                    file: path,
                    "\(place): suppress[\(index)] needs a rule and a non-empty reason"
                )
            }
            config.suppressions.append(
                Suppression(rule: entry.rule, domain: entry.domain, bundle: entry.bundle, reason: entry.reason)
            )
        }
        if let appFlip = tree["appFlip"] {
            do {
                config.appFlip = try AppFlipConfig(tree: appFlip, file: path)
            } catch {
                throw InputError(
                    "bad-config",
                    file: path,
                    "\(appFlip.position): appFlip\(error.key.map { ".\($0)" } ?? ""): \(error.reason)"
                )
            }
        }
        if let firebase = file.firebase, let node = tree["firebase"] {
            config.firebase = try firebaseSettings(firebase, node: node, file: path)
        }
        config.failOn = file.failOn
        config.distribution = file.distribution
        return config
    }

    /// The file's schema, decoded after the strict checks.
    private struct ConfigFile: Decodable {
        struct SuppressionEntry: Decodable {
            let rule: String
            let domain: String?
            let bundle: String?
            let reason: String
        }

        struct FirebaseEntry: Decodable {
            let emailLinkSignIn: Bool?
            let emailActions: [String]?
            let linkDomain: String?
            let continueURLs: [String]?
        }

        let expectedDomains: [String]?
        let suppress: [SuppressionEntry]?
        let firebase: FirebaseEntry?
        let failOn: Severity?
        let distribution: Distribution?
    }

    /// The `firebase` object's values, checked: known action names, a bare link domain, continue URLs that are
    /// links.
    ///
    /// - Throws: ``InputError`` naming the value's place and key path (`firebase.emailActions[1]`) and what is wrong.
    private static func firebaseSettings(
        _ entry: ConfigFile.FirebaseEntry,
        node: ConfigTree,
        file: String
    ) throws(InputError) -> FirebaseLinkSettings {
        func place(_ key: String, _ index: Int? = nil) -> String {
            guard let member = node[key] else { return node.position }
            guard let index, case .array(let elements) = member.value, index < elements.count else {
                return member.position
            }
            return elements[index].position
        }
        var actions: [FirebaseEmailAction] = []
        for (index, name) in (entry.emailActions ?? []).enumerated() {
            guard let action = FirebaseEmailAction(rawValue: name) else {
                throw InputError(
                    "bad-config",
                    file: file,
                    "\(place("emailActions", index)): firebase.emailActions[\(index)] is \(name), which is not an "
                        + "email action (the actions are \(FirebaseEmailAction.names))"
                )
            }
            if !actions.contains(action) { actions.append(action) }
        }
        if entry.emailLinkSignIn == false, actions.contains(.signIn) {
            throw InputError(
                "bad-config",
                file: file,
                "\(place("emailLinkSignIn")): firebase.emailLinkSignIn is false, but firebase.emailActions lists signIn"
            )
        }
        if let domain = entry.linkDomain,
            domain.isEmpty || domain.contains(where: { "/:?#@".contains($0) || $0.isWhitespace })
        {
            throw InputError(
                "bad-config",
                file: file,
                "\(place("linkDomain")): firebase.linkDomain must be a host name (links.example.com), not \(domain)"
            )
        }
        for (index, text) in (entry.continueURLs ?? []).enumerated() {
            do {
                try LinkURL.requireUniversalLink(text)
            } catch {
                throw InputError(
                    "bad-config",
                    file: file,
                    "\(place("continueURLs", index)): firebase.continueURLs[\(index)] must be an http or https URL "
                        + "with a host: \(error)"
                )
            }
        }
        return FirebaseLinkSettings(
            emailLinkSignIn: entry.emailLinkSignIn ?? false,
            linkDomain: entry.linkDomain,
            emailActions: actions,
            continueURLs: entry.continueURLs ?? []
        )
    }

    /// A decoding error as one line: the place (`line 4, column 7`), the key path and what was expected.
    private static func describe(_ error: DecodingError, tree: ConfigTree, file: String) -> InputError {
        func locate(_ path: [any CodingKey]) -> (String, String) {
            var node: ConfigTree? = tree
            var name = ""
            for key in path {
                if let index = key.intValue {
                    name += "[\(index)]"
                    if case .array(let elements)? = node?.value, index < elements.count { node = elements[index] }
                } else {
                    name += name.isEmpty ? key.stringValue : ".\(key.stringValue)"
                    node = node?[key.stringValue]
                }
            }
            return (node?.position ?? "line 1, column 1", name.isEmpty ? "the top level" : name)
        }
        switch error {
        case .typeMismatch(let type, let context):
            let (place, name) = locate(context.codingPath)
            let what = context.codingPath.last.flatMap { expectedByKey[$0.stringValue] } ?? expected(type)
            return InputError("bad-config", file: file, "\(place): \(name) must be \(what)")
        case .valueNotFound(_, let context), .keyNotFound(_, let context):
            if case .keyNotFound(let key, _) = error {
                let (place, name) = locate(context.codingPath)
                let what =
                    context.codingPath.first?.stringValue == "suppress"
                    ? "a rule and a non-empty reason" : key.stringValue
                return InputError("bad-config", file: file, "\(place): \(name) needs \(what)")
            }
            let (place, name) = locate(context.codingPath)
            return InputError("bad-config", file: file, "\(place): \(name) must not be null")
        case .dataCorrupted(let context):
            let (place, name) = locate(context.codingPath)
            let allowed =
                switch context.codingPath.last?.stringValue {
                case "failOn": "error, warning or note"
                case "distribution": "app-store, ad-hoc, enterprise or development"
                default: "a valid value"
                }
            return InputError("bad-config", file: file, "\(place): \(name) must be \(allowed)")
        @unknown default:
            return InputError("bad-config", file: file, "\(error)")
        }
    }

    /// What each key holds, for type errors.
    private static let expectedByKey = [
        "expectedDomains": "an array of strings", "suppress": "an array of objects", "firebase": "an object",
        "emailLinkSignIn": "true or false", "linkDomain": "a string", "emailActions": "an array of strings",
        "continueURLs": "an array of strings", "rule": "a string", "domain": "a string",
        "bundle": "a string", "reason": "a string", "failOn": "a string", "distribution": "a string",
    ]

    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [String].Type: "an array of strings"
        case is [Any].Type: "an array"
        default: "\(type)".hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
