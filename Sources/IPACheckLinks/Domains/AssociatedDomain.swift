import Foundation

/// One string of `com.apple.developer.associated-domains`, `service:host[?mode=…]`, parsed the way iOS reads
/// it, with every reason iOS would reject or ignore it kept as data, never dropped (Apple's associated-domains entitlement page and TN3155).
///
/// Encodes as domains.schema.json's associated-domain object: `entry`, `service`, `host`, `wildcard`, `mode`.
package struct AssociatedDomain: Hashable, Sendable {
    /// The service before the colon.
    package enum Service: Hashable, Sendable {
        /// Universal links.
        case applinks
        /// Shared web credentials, passkeys, Password AutoFill.
        case webcredentials
        /// App Clip invocations.
        case appclips
        /// Handoff.
        case activitycontinuation
        /// AuthenticationServices / extensible single sign-on.
        case authsrv
        /// Anything else, as written (iOS ignores the entry).
        case unknown(String)

        /// The services Apple documents.
        package static let known: [Service] = [.applinks, .webcredentials, .appclips, .activitycontinuation, .authsrv]

        /// The service's name as written in entitlements.
        package var name: String {
            switch self {
            case .applinks: "applinks"
            case .webcredentials: "webcredentials"
            case .appclips: "appclips"
            case .activitycontinuation: "activitycontinuation"
            case .authsrv: "authsrv"
            case .unknown(let name): name
            }
        }

        init(name: String) {
            self = Self.known.first { $0.name == name } ?? .unknown(name)
        }
    }

    /// An alternate mode (`?mode=…`), which routes the lookup around Apple's CDN.
    package enum Mode: String, Hashable, Sendable, Codable, CaseIterable {
        /// Only devices in developer mode, and only development-signed apps.
        case developer
        /// Only devices under an MDM profile that allows the domain.
        case managed
        /// Both.
        case developerAndManaged = "developer+managed"

        /// Whether the mode requires developer mode (and so a development-signed app).
        package var requiresDevelopmentSigning: Bool { self != .managed }
    }

    /// Something about an entry (or the list) iOS rejects, ignores or treats differently than its author likely
    /// meant; the associated-domains rules judge each kind.
    package struct Problem: Hashable, Sendable {
        /// What is wrong, as one kind the rules know.
        package let kind: Kind
        /// What is wrong with this entry, in one sentence.
        package let message: String
        /// Advice for this entry, when the rule's generic fix does not fit it.
        package var fix: String? = nil

        /// The kinds of problem an entry or the list can have.
        package enum Kind: String, Hashable, Sendable, CaseIterable {
            case notAnArray, empty, unknownService, scheme, path, trailingSlash, port, query, unknownMode
            case misplacedWildcard, appClipWildcard, unexpandedVariable, emptyHost, uppercase, internationalized
            case invalidHost, notFullyQualified, duplicate, tooMany, wildcardWithoutApex, whitespace
            /// An entitlements file's entry holding a build setting Xcode substitutes when it signs.
            case pendingBuildSetting

            /// Whether iOS ignores an entry with this problem (Apple's entitlement page, TN3155).
            ///
            /// iOS cannot read the service, host or mode as written; the other kinds are advice, the entry works.
            package var ignoresEntry: Bool {
                switch self {
                case .notAnArray, .unknownService, .scheme, .path, .trailingSlash, .port, .query, .unknownMode,
                    .misplacedWildcard, .appClipWildcard, .unexpandedVariable, .emptyHost, .invalidHost, .whitespace:
                    true
                case .empty, .uppercase, .internationalized, .notFullyQualified, .duplicate, .tooMany,
                    .wildcardWithoutApex, .pendingBuildSetting:
                    false
                }
            }
        }
    }

    /// The string exactly as written in the entitlement.
    package var entry: String
    /// The service.
    package var service: Service
    /// The host, lower-cased, IDN labels as A-labels (punycode), without a leading `*.`.
    ///
    /// It is what remains after removing any scheme, port, path or query, so a report can still name the
    /// domain. It is also where the
    /// AASA file is fetched from: for `*.example.com`, Apple reads `example.com`'s file (TN3155).
    package var host: String
    /// Whether the entry starts with `*.` (subdomains only, never the apex itself).
    package var wildcard: Bool
    /// The alternate mode, if any (and known).
    package var mode: Mode?
    /// What is wrong with the entry; empty for a clean entry.
    package var problems: [Problem]
    /// The entry's position in the signed `com.apple.developer.associated-domains` array, counting every element
    /// (non-strings too), as ``AssociatedDomains/from(entitlements:bundle:settingsPending:)`` read it; `nil` for an
    /// entry parsed on its own.
    package var index: Int?

    /// Whether iOS would use the entry at all: no problem iOS ignores it for, and no Xcode build setting in it (an
    /// entitlements file's setting is unknown until Xcode signs; a signed one was never substituted).
    package var isUsable: Bool {
        !Self.holdsBuildSetting(entry) && !problems.contains { $0.kind.ignoresEntry }
    }

    /// Whether `text` holds an Xcode build setting reference (`$(NAME)` or `${NAME}`).
    package static func holdsBuildSetting(_ text: String) -> Bool {
        text.contains("$(") || text.contains("${")
    }

    /// Parses one entitlement string.
    package static func parse(entry: String) -> AssociatedDomain {
        var parser = EntryParser(entry: entry)
        return parser.run()
    }
}

extension AssociatedDomain: Encodable {
    private enum CodingKeys: String, CodingKey {
        case entry, service, host, wildcard, mode
    }

    /// Encodes the schema's keys; `mode` is `null` when absent.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entry, forKey: .entry)
        try container.encode(service.name, forKey: .service)
        try container.encode(host, forKey: .host)
        try container.encode(wildcard, forKey: .wildcard)
        if let mode {
            try container.encode(mode.rawValue, forKey: .mode)
        } else {
            try container.encodeNil(forKey: .mode)
        }
    }
}

/// The step-by-step reading of one entry; each step records its problem and strips what it found, so later
/// steps still see a host.
private struct EntryParser {
    let entry: String
    var problems: [AssociatedDomain.Problem] = []

    init(entry: String) {
        self.entry = entry
    }

    mutating func report(_ kind: AssociatedDomain.Problem.Kind, _ message: String) {
        problems.append(AssociatedDomain.Problem(kind: kind, message: message))
    }

    mutating func run() -> AssociatedDomain {
        var text = Substring(entry)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.count != text.count {
            report(.whitespace, "'\(entry)' has leading or trailing whitespace")
            text = Substring(trimmed)
        }
        if text.contains("$(") {
            report(
                .unexpandedVariable,
                "'\(entry)' contains an unexpanded build setting `$(…)`: the build never substituted it, so iOS "
                    + "reads it literally, as a domain no one can serve, and ignores the entry"
            )
        }

        // Service.
        var service = AssociatedDomain.Service.unknown("")
        if let colon = text.firstIndex(of: ":"), !text[text.index(after: colon)...].hasPrefix("//") {
            let name = String(text[..<colon])
            service = AssociatedDomain.Service(name: name)
            text = text[text.index(after: colon)...]
            if case .unknown = service {
                let lower = name.lowercased()
                if AssociatedDomain.Service.known.contains(where: { $0.name == lower }) {
                    report(
                        .unknownService,
                        "'\(entry)': service '\(name)' must be written in lower case ('\(lower)')"
                    )
                } else {
                    let known = AssociatedDomain.Service.known.map(\.name).joined(separator: ", ")
                    report(
                        .unknownService,
                        "'\(entry)': '\(name)' is not a service iOS knows (\(known)); the entry is ignored"
                    )
                }
            }
        } else {
            report(
                .unknownService,
                "'\(entry)' has no `service:` prefix (applinks:, webcredentials:, …); the entry is ignored"
            )
        }

        // Scheme: `applinks:https://host` (or a bare URL, which the service step left whole).
        if let range = text.range(of: "://") {
            report(
                .scheme,
                "'\(entry)' contains the scheme '\(text[..<range.lowerBound])://'; write only the domain"
            )
            text = text[range.upperBound...]
        }

        // Fragment and query.
        var mode: AssociatedDomain.Mode?
        if let hash = text.firstIndex(of: "#") {
            report(
                .path,
                "'\(entry)' contains a fragment ('\(text[hash...])'); write only the domain"
            )
            text = text[..<hash]
        }
        if let question = text.firstIndex(of: "?") {
            mode = readQuery(text[text.index(after: question)...])
            text = text[..<question]
        }

        // Path.
        if let slash = text.firstIndex(of: "/") {
            let path = text[slash...]
            if path == "/" {
                report(.trailingSlash, "'\(entry)' ends with '/'; remove the trailing slash")
            } else {
                report(
                    .path,
                    "'\(entry)' contains the path '\(path)'; write only the domain"
                )
            }
            text = text[..<slash]
        }

        // Port.
        if let colon = text.lastIndex(of: ":") {
            let port = text[text.index(after: colon)...]
            report(
                .port,
                port.allSatisfy(\.isASCII) && port.allSatisfy(\.isNumber) && !port.isEmpty
                    ? "'\(entry)' contains the port \(port); iOS never opens the app for it (TN3155)"
                    : "'\(entry)' contains ':' after the service; a domain has no port or second colon"
            )
            text = text[..<colon]
        }

        // Wildcard.
        var wildcard = false
        if text.hasPrefix("*.") {
            wildcard = true
            text = text.dropFirst(2)
            if service == .appclips {
                report(
                    .appClipWildcard,
                    "'\(entry)': App Clip domains cannot use a wildcard; list each domain"
                )
            }
        }
        if text.contains("*") {
            report(
                .misplacedWildcard,
                "'\(entry)': '*' is allowed only as a leading '*.'; this entry matches nothing"
            )
        }

        let host = normalizeHost(text)
        return AssociatedDomain(
            entry: entry,
            service: service,
            host: host,
            wildcard: wildcard,
            mode: mode,
            problems: problems,
            index: nil
        )
    }

    /// Reads `mode=…`; anything else is reported.
    private mutating func readQuery(_ query: Substring) -> AssociatedDomain.Mode? {
        var mode: AssociatedDomain.Mode?
        let items = query.split(separator: "&", omittingEmptySubsequences: false)
        for item in items {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == "mode" {
                if let known = AssociatedDomain.Mode(rawValue: String(parts[1])) {
                    mode = known
                } else {
                    report(
                        .unknownMode,
                        "'\(entry)': mode '\(parts[1])' is not developer, managed or developer+managed"
                    )
                }
            } else {
                report(
                    .query,
                    "'\(entry)': the query '\(item)' is not allowed; only '?mode=…' is"
                )
            }
        }
        return mode
    }

    /// Lower-cases, converts IDN labels to A-labels and checks DNS syntax.
    private mutating func normalizeHost(_ raw: Substring) -> String {
        guard !raw.isEmpty else {
            report(.emptyHost, "'\(entry)' names no domain")
            return ""
        }
        if raw.unicodeScalars.contains(where: { $0.isASCII && $0.properties.isUppercase }) {
            report(
                .uppercase,
                "'\(entry)': the domain contains upper-case letters; domains compare in lower case"
            )
        }
        guard let ascii = Punycode.toASCII(host: String(raw)) else {
            report(
                .invalidHost,
                "'\(entry)': '\(raw)' cannot be converted to an ASCII domain"
            )
            return raw.lowercased()
        }
        if !raw.unicodeScalars.allSatisfy(\.isASCII) {
            report(
                .internationalized,
                "'\(entry)': the internationalized domain '\(raw)' is '\(ascii)' in DNS; compare and fetch that form"
            )
        }
        checkSyntax(ascii)
        return ascii
    }

    private mutating func checkSyntax(_ host: String) {
        if host.hasSuffix(".") {
            report(.invalidHost, "'\(entry)': the domain ends with '.'; remove it")
            return
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        if host.utf8.count > 253 {
            report(.invalidHost, "'\(entry)': the domain is longer than 253 characters")
            return
        }
        for label in labels {
            // A '*' out of place is ENT010's finding already: one cause, one finding.
            if label.contains("*") { return }
            if label.isEmpty || label.utf8.count > 63 || label.hasPrefix("-") || label.hasSuffix("-")
                || !label.allSatisfy(allowed.contains)
            {
                report(
                    .invalidHost,
                    "'\(entry)': '\(label)' is not a valid DNS label "
                        + "(letters, digits, inner hyphens, 1–63 characters)"
                )
                return
            }
        }
        if labels.count == 4, labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) {
            report(
                .invalidHost,
                "'\(entry)': '\(host)' is an IP address; associated domains need a domain name with a TLS certificate"
            )
            return
        }
        if labels.count == 1 {
            report(
                .notFullyQualified,
                "'\(entry)': '\(host)' is not a fully qualified domain name (no dot); a placeholder or a local name?"
            )
        } else if Self.placeholderMarkers.contains(where: host.contains) {
            report(.notFullyQualified, "'\(entry)': '\(host)' looks like a placeholder")
        }
    }

    /// Fragments of template placeholders seen in sample projects (`applinks:your-domain-here`).
    static let placeholderMarkers = ["your-domain", "yourdomain", "your_domain"]
}
