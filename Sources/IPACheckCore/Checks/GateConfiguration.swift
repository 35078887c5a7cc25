import Foundation
public import IPACheckReport
import Yams

/// The project's `.ipacheck.json` (or `.ipacheck.yml`): what the gate must find, what it may ignore (with a reason), and App Flip and
/// Firebase settings pinned next to the code.
///
/// ```json
/// {
///   "expectedDomains": ["applinks:example.com", "webcredentials:example.com"],
///   "suppress": [{"rule": "LINK005", "domain": "example.com", "reason": "CDN refresh pending, ticket 42"}],
///   "appFlip": {"appFlipURL": "https://example.com/appflip", "clientID": "..."},
///   "firebase": {"emailLinkSignIn": true, "linkDomain": "links.example.com"},
///   "failOn": "warning"
/// }
/// ```
public struct GateConfiguration: Sendable {
    /// One suppression: findings of `rule` (optionally only for a domain or bundle) are dropped, with a reason.
    public struct Suppression: Sendable, Hashable {
        /// The rule ID to suppress.
        public let rule: String
        /// Only findings about this domain (host), if given.
        public let domain: String?
        /// Only findings about this bundle (path or folder name), if given.
        public let bundle: String?
        /// Why: required, so a suppression documents itself.
        public let reason: String

        /// Whether this suppression covers `finding`.
        public func covers(_ finding: Finding) -> Bool {
            guard finding.rule == rule else { return false }
            if let domain, finding.domain?.lowercased() != domain.lowercased() { return false }
            if let bundle {
                guard let path = finding.bundle, path == bundle || path.hasSuffix("/" + bundle) else { return false }
            }
            return true
        }
    }

    /// Associated-domains entries (`applinks:example.com`) some bundle must claim.
    public var expectedDomains: [String] = []
    /// Findings to drop, each with a reason.
    public var suppressions: [Suppression] = []
    /// The App Flip config, when pinned here.
    public var appFlip: AppFlipConfig?
    /// Firebase link settings.
    public var firebase = FirebaseLinkSettings()
    /// The gate threshold, when pinned here (the command line wins).
    public var failOn: Severity?

    /// An empty configuration.
    public init() {}

    /// The keys the file may have; anything else is a typo we refuse rather than ignore.
    static let knownKeys: Set<String> = ["expectedDomains", "suppress", "appFlip", "firebase", "failOn"]

    /// The file names `ipacheck check` looks for in the current folder, in this order.
    public static let defaultFileNames = [".ipacheck.json", ".ipacheck.yml", ".ipacheck.yaml"]

    /// Reads a configuration file: YAML when its name ends in `.yml` or `.yaml`, JSON otherwise.
    ///
    /// - Throws: ``InputError`` naming the file and the key that is wrong.
    public static func load(path: String) throws(InputError) -> GateConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError("unreadable", file: path, "cannot be read")
        }
        let isYAML = path.hasSuffix(".yml") || path.hasSuffix(".yaml")
        let root: [String: Any]
        if isYAML {
            let text = String(decoding: data, as: UTF8.self)
            let loaded: Any?
            do {
                loaded = try Yams.load(yaml: text)
            } catch {
                throw InputError("bad-config", file: path, "is not valid YAML: \(error)")
            }
            guard let mapping = loaded.flatMap(stringKeyed) as? [String: Any] else {
                throw InputError("bad-config", file: path, "is not a YAML mapping with string keys")
            }
            root = mapping
        } else {
            guard let object = try? JSONSerialization.jsonObject(with: data), let mapping = object as? [String: Any]
            else {
                throw InputError("bad-config", file: path, "is not a JSON object")
            }
            root = mapping
        }
        if let unknown = root.keys.sorted().first(where: { !knownKeys.contains($0) }) {
            let known = knownKeys.sorted().joined(separator: ", ")
            throw InputError("bad-config", file: path, "unknown key \(unknown) (known: \(known))")
        }
        var config = GateConfiguration()
        if let value = root["expectedDomains"] {
            guard let list = value as? [String] else {
                throw InputError("bad-config", file: path, "expectedDomains must be an array of strings")
            }
            config.expectedDomains = list
        }
        if let value = root["suppress"] {
            guard let list = value as? [[String: Any]] else {
                throw InputError("bad-config", file: path, "suppress must be an array of objects")
            }
            config.suppressions = try list.enumerated().map { index, item throws(InputError) in
                guard let rule = item["rule"] as? String, let reason = item["reason"] as? String,
                    !reason.trimmingCharacters(in: .whitespaces).isEmpty
                else {
                    throw InputError("bad-config", file: path, "suppress[\(index)] needs a rule and a non-empty reason")
                }
                return Suppression(
                    rule: rule,
                    domain: item["domain"] as? String,
                    bundle: item["bundle"] as? String,
                    reason: reason
                )
            }
        }
        if let value = root["appFlip"] {
            guard JSONSerialization.isValidJSONObject(value),
                let bytes = try? JSONSerialization.data(withJSONObject: value)
            else {
                throw InputError("bad-config", file: path, "appFlip must be an object")
            }
            do {
                config.appFlip = try AppFlipConfig.parse(Array(bytes), file: path)
            } catch {
                throw InputError("bad-config", file: path, "appFlip: \(error.description)")
            }
        }
        if let value = root["firebase"] {
            guard let object = value as? [String: Any] else {
                throw InputError("bad-config", file: path, "firebase must be an object")
            }
            config.firebase = FirebaseLinkSettings(
                emailLinkSignIn: object["emailLinkSignIn"] as? Bool ?? false,
                linkDomain: object["linkDomain"] as? String
            )
        }
        if let value = root["failOn"] {
            guard let text = value as? String, let severity = Severity(rawValue: text) else {
                throw InputError("bad-config", file: path, "failOn must be error, warning or note")
            }
            config.failOn = severity
        }
        return config
    }

    /// YAML mappings come back keyed by `AnyHashable`; the JSON reading below wants `String` keys throughout.
    private static func stringKeyed(_ value: Any) -> Any? {
        switch value {
        case let mapping as [AnyHashable: Any]:
            var result: [String: Any] = [:]
            for (key, item) in mapping {
                guard let name = key.base as? String, let converted = stringKeyed(item) else { return nil }
                result[name] = converted
            }
            return result
        case let sequence as [Any]:
            let converted = sequence.compactMap(stringKeyed)
            return converted.count == sequence.count ? converted : nil
        default:
            return value
        }
    }
}
