package import Foundation
import IPACheckCMS

/// A parsed apple-app-site-association file: the JSON as written plus the model Apple's swcd builds from it.
///
/// Parsing is lenient where Apple is lenient (wrong types and unknown keys are ignored, as swcd does; the AASA
/// family's linter reports them) and strict where Apple is strict (the JSON syntax itself).
package struct AASADocument: Sendable {
    /// The size limits applied while reading.
    package enum Limits {
        /// Apple's documented limit (iOS 9.3.1+): more than this many bytes is an error finding.
        package static let appleByteLimit = 131_072
        /// Beyond this the file is not read at all.
        package static let hardByteCap = 8 * 1024 * 1024
        /// Deepest JSON nesting accepted (real files need about 6).
        package static let maximumDepth = 64
    }

    /// The JSON document (the CMS payload for signed files, without any BOM).
    package let root: AASAJSON
    /// The size of the file as given, envelope included.
    package let byteCount: Int
    /// The CMS envelope, when the file was signed (iOS 8 style).
    package let signedEnvelope: AASASignedEnvelope?
    /// How the JSON was written: a byte order mark, repeated keys.
    package let encoding: Encoding
    /// The `applinks` object, when present and an object.
    package let applinks: AASAAppLinks?
    /// The `apps` lists of `webcredentials`, `appclips` and `activitycontinuation` (string elements only).
    package let serviceApps: [AASAService: [String]]

    /// Parses an AASA file: plain JSON or CMS-signed, keeping how it was encoded (``encoding``).
    ///
    /// Throws when Apple could not use the file at all (bad JSON, non-object root, broken CMS, far too large).
    /// What Apple tolerates or which limits the file breaks (BOM, duplicate keys, 128 KB, signing) is kept as facts
    /// for the AASA rules to judge. `now` is when a signed file's certificate is judged.
    package static func parse(_ bytes: [UInt8], now: Date = Date()) throws(AASAParseError) -> AASADocument {
        guard bytes.count <= Limits.hardByteCap else {
            throw AASAParseError(
                .tooLarge,
                "the file has \(bytes.count) bytes, over the \(Limits.hardByteCap)-byte reading cap"
            )
        }
        var json = bytes
        var envelope: AASASignedEnvelope?
        if AASASignedEnvelope.looksSigned(bytes) {
            let extracted = try AASASignedEnvelope.extract(from: bytes, now: now)
            envelope = extracted
            json = extracted.payload
        }
        let startsWithByteOrderMark = json.starts(with: [0xEF, 0xBB, 0xBF])
        if startsWithByteOrderMark { json.removeFirst(3) }
        var parser = StrictJSONParser(bytes: json, maximumDepth: Limits.maximumDepth)
        let root: AASAJSON
        do {
            root = try parser.parseDocument()
        } catch  where error.code == .invalidUTF8 || error.code == .invalidJSON {
            guard let other = Self.otherFormat(json) else { throw error }
            let what =
                envelope == nil
                ? "the file is \(other)"
                : "its signed content is \(other) (a provisioning profile? `ipacheck profile` reads it)"
            throw AASAParseError(error.code, "\(error.message): \(what), not JSON", at: error.position)
        }
        guard case .object = root else {
            throw AASAParseError(.rootNotObject, "the top-level JSON value is \(root.typeName), not an object")
        }
        return AASADocument(
            root: root,
            byteCount: bytes.count,
            signedEnvelope: envelope,
            encoding: Encoding(startsWithByteOrderMark: startsWithByteOrderMark, duplicateKeys: parser.duplicates)
        )
    }

    /// How the file was written, beside what it says: what Apple reads past and the rules judge.
    package struct Encoding: Sendable, Hashable {
        /// Whether the JSON began with a UTF-8 byte order mark (skipped).
        package var startsWithByteOrderMark = false
        /// The member names written more than once in one object, in file order (the last value is kept).
        package var duplicateKeys: [DuplicateKey] = []
    }

    /// A member name that occurred more than once in one object.
    package struct DuplicateKey: Sendable, Hashable {
        /// The repeated name.
        package var key: String
        /// The JSON path of the object holding it (`applinks.details[0]`).
        package var objectPath: String
        /// Where its later occurrence is.
        package var position: AASASourcePosition
    }

    /// Builds the model from an already parsed JSON object, for callers that already hold the JSON.
    package init(
        root: AASAJSON,
        byteCount: Int = 0,
        signedEnvelope: AASASignedEnvelope? = nil,
        encoding: Encoding = Encoding()
    ) {
        self.root = root
        self.encoding = encoding
        self.byteCount = byteCount
        self.signedEnvelope = signedEnvelope
        if case .object? = root["applinks"] {
            applinks = Self.readAppLinks(root["applinks"] ?? .null)
        } else {
            applinks = nil
        }
        var services: [AASAService: [String]] = [:]
        for service in AASAService.allCases where service != .applinks {
            if let apps = root[service.rawValue]?["apps"]?.arrayValue {
                services[service] = apps.compactMap(\.stringValue)
            }
        }
        serviceApps = services
    }

    /// The app IDs a service lists, in file order without repeats.
    ///
    /// For `applinks` these are the effective IDs of the details entries (M20), for the other services the
    /// string elements of their `apps` array.
    package func appIDs(for service: AASAService) -> [String] {
        var seen = Set<String>()
        let all: [String]
        if service == .applinks {
            all = applinks?.details.flatMap(\.appIDs) ?? []
        } else {
            all = serviceApps[service] ?? []
        }
        return all.filter { seen.insert($0).inserted }
    }

    /// The services the file has a usable section for, in ``AASAService`` order.
    package var services: [AASAService] {
        AASAService.allCases.filter { $0 == .applinks ? applinks != nil : serviceApps[$0] != nil }
    }

    /// The details entry whose rules apply to `appID`: the first one listing it (M22), if any.
    package func detail(for appID: String) -> AASADetail? {
        applinks?.details.first { $0.appIDs.contains(appID) }
    }

    // MARK: - Model building (mirrors swcd's leniency)

    private static func readAppLinks(_ object: AASAJSON) -> AASAAppLinks {
        var variables: [String: [String]] = [:]
        for member in object["substitutionVariables"]?.members ?? [] {
            if let values = member.value.arrayValue {
                variables[member.key] = values.compactMap(\.stringValue)
            }
        }
        var details: [AASADetail] = []
        var isDictionary = false
        switch object["details"] {
        case .array(let entries)?:
            for (index, entry) in entries.enumerated() where entry.members != nil {
                details.append(readDetail(entry, index: index, location: "applinks.details[\(index)]", keyedAppID: nil))
            }
        case .object(let members)?:
            isDictionary = true
            for (index, member) in members.enumerated() where member.value.members != nil {
                details.append(
                    readDetail(
                        member.value,
                        index: index,
                        location: "applinks.details[\"\(member.key)\"]",
                        keyedAppID: member.key
                    )
                )
            }
        default: break
        }
        return AASAAppLinks(
            details: details,
            detailsIsDictionary: isDictionary,
            defaults: object["defaults"].map(AASAFields.init(object:)) ?? AASAFields(),
            substitutionVariables: variables,
            source: object
        )
    }

    private static func readDetail(_ entry: AASAJSON, index: Int, location: String, keyedAppID: String?) -> AASADetail {
        let appIDs: [String]
        if let keyedAppID {
            appIDs = [keyedAppID]
        } else if let list = entry["appIDs"]?.arrayValue {
            appIDs = list.compactMap(\.stringValue)  // M20: appIDs wins, even when empty
        } else if let single = entry["appID"]?.stringValue {
            appIDs = [single]
        } else {
            appIDs = []
        }
        var rules: [AASAPathRule] = []
        let source: AASADetail.RuleSource
        if let components = entry["components"]?.arrayValue {
            source = .components  // M21: components wins, even when empty
            for (ruleIndex, component) in components.enumerated() {
                guard let members = component.members else { continue }
                let unknown = members.map(\.key).filter { !knownComponentKeys.contains($0) }
                rules.append(
                    AASAPathRule(
                        index: ruleIndex,
                        kind: .component,
                        fields: AASAFields(object: component),
                        source: component,
                        unknownKeys: unknown
                    )
                )
            }
        } else if let paths = entry["paths"]?.arrayValue {
            source = .paths
            for (ruleIndex, path) in paths.enumerated() {
                guard let text = path.stringValue else { continue }
                let excluded = text.hasPrefix("NOT ")
                let pattern = excluded ? String(text.dropFirst(4)) : text
                rules.append(
                    AASAPathRule(
                        index: ruleIndex,
                        kind: .legacyPath,
                        fields: AASAFields(path: pattern, exclude: excluded),
                        source: path,
                        unknownKeys: []
                    )
                )
            }
        } else {
            source = .none
        }
        return AASADetail(
            index: index,
            location: location,
            appIDs: appIDs,
            defaults: entry["defaults"].map(AASAFields.init(object:)) ?? AASAFields(),
            ruleSource: source,
            rules: rules,
            source: entry
        )
    }

    /// The component keys Apple documents; anything else is ignored (M18).
    package static let knownComponentKeys: Set<String> = [
        "/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded",
    ]

    /// What a file that is not JSON is, told by its first bytes, when it is something people mistake for an AASA
    /// file (a build, a property list, a page a server answered with); nil otherwise.
    static func otherFormat(_ bytes: [UInt8]) -> String? {
        let head = Array(bytes.prefix(4))
        if head == [0x50, 0x4B, 0x03, 0x04] { return "a zip archive (an ipa? `ipacheck check` reads builds)" }
        let machO: [[UInt8]] = [
            [0xCF, 0xFA, 0xED, 0xFE], [0xCE, 0xFA, 0xED, 0xFE], [0xCA, 0xFE, 0xBA, 0xBE], [0xFE, 0xED, 0xFA, 0xCF],
        ]
        if machO.contains(head) { return "a Mach-O binary" }
        let text = String(decoding: bytes.prefix(256).drop { $0 <= 0x20 }, as: UTF8.self).lowercased()
        if text.hasPrefix("bplist") || text.hasPrefix("<plist") || (text.hasPrefix("<?xml") && text.contains("<plist"))
        {
            return "a property list"
        }
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.contains("<html") {
            return "an HTML page"
        }
        return nil
    }
}
