/// The services an AASA file can name at its top level.
package enum AASAService: String, Sendable, Hashable, Codable, CaseIterable {
    /// Universal links: `applinks.details` with path/query/fragment rules.
    case applinks
    /// Shared web credentials, passkeys and Password AutoFill: a flat `apps` list.
    case webcredentials
    /// App Clips: a flat `apps` list of App Clip app IDs.
    case appclips
    /// Handoff: a flat `apps` list.
    case activitycontinuation
}

/// The pattern keys of a component or of a `defaults` object, exactly as the file specifies them.
///
/// `nil` means "not specified here" (absent, or of a type Apple ignores), so the next level of the defaults
/// hierarchy (M16) decides.
package struct AASAFields: Sendable, Hashable, Codable {
    /// The `/` pattern.
    package var path: String?
    /// The `?` pattern: a whole-query string or a dictionary of query items.
    package var query: AASAQueryPattern?
    /// The `#` pattern.
    package var fragment: String?
    /// `exclude`.
    package var exclude: Bool?
    /// `caseSensitive`.
    package var caseSensitive: Bool?
    /// `percentEncoded`.
    package var percentEncoded: Bool?

    /// Creates fields; everything unspecified by default.
    package init(
        path: String? = nil,
        query: AASAQueryPattern? = nil,
        fragment: String? = nil,
        exclude: Bool? = nil,
        caseSensitive: Bool? = nil,
        percentEncoded: Bool? = nil
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }

    /// These fields with every unspecified key taken from `fallback` (how swcd merges defaults, M16).
    package func overlaid(on fallback: AASAFields) -> AASAFields {
        AASAFields(
            path: path ?? fallback.path,
            query: query ?? fallback.query,
            fragment: fragment ?? fallback.fragment,
            exclude: exclude ?? fallback.exclude,
            caseSensitive: caseSensitive ?? fallback.caseSensitive,
            percentEncoded: percentEncoded ?? fallback.percentEncoded
        )
    }

    /// Reads the known keys of a component or defaults object, ignoring wrong types as Apple does.
    package init(object: AASAJSON) {
        path = object["/"]?.stringValue
        fragment = object["#"]?.stringValue
        exclude = object["exclude"]?.boolValue
        caseSensitive = object["caseSensitive"]?.boolValue
        percentEncoded = object["percentEncoded"]?.boolValue
        switch object["?"] {
        case .string(let pattern)?: query = .whole(pattern)
        case .object(let members)?:
            var items: [AASAQueryPattern.Item] = []
            for member in members {
                guard let pattern = member.value.stringValue else {
                    items = []
                    query = .ignored  // M12: one non-string value voids the whole dictionary
                    return
                }
                items.append(.init(name: member.key, pattern: pattern))
            }
            query = .items(items)
        default: query = nil
        }
    }
}

/// What a `?` key says about the query.
package enum AASAQueryPattern: Sendable, Hashable, Codable {
    /// A string: matched against the entire raw query (M8).
    case whole(String)
    /// A dictionary: each named item must match in every occurrence; a missing item counts as empty (M9–M11).
    case items([Item])
    /// A dictionary with a non-string value: Apple ignores the whole dictionary, so any query matches (M12).
    case ignored

    /// One `"name": "pattern"` query predicate.
    package struct Item: Sendable, Hashable, Codable {
        /// The query item name.
        package var name: String
        /// The pattern its value must match.
        package var pattern: String

        /// Creates an item predicate.
        package init(name: String, pattern: String) {
            self.name = name
            self.pattern = pattern
        }
    }
}

/// One path rule of a details entry: a modern `components` element or a legacy `paths` string (not to be confused
/// with `AASARules`, the AASA family's diagnostic rules).
package struct AASAPathRule: Sendable, Hashable {
    /// Which list the rule comes from.
    package enum Kind: String, Sendable, Hashable, Codable {
        /// An element of `components` (iOS 13+).
        case component
        /// A string of `paths` (iOS 9–12); `NOT ` makes it an exclude.
        case legacyPath
    }

    /// Index in `components` or `paths`.
    package var index: Int
    /// Which list it comes from.
    package var kind: Kind
    /// The keys the rule itself specifies (for a legacy path: `/` and `exclude`).
    package var fields: AASAFields
    /// The rule as written: the component object, or the path string.
    package var source: AASAJSON
    /// Component keys Apple does not know and ignores (M18), in source order.
    package var unknownKeys: [String]

    /// The rule as compact JSON, for explanations (`{"/": "/buy/*", "exclude": true}` or `"NOT /api/*"`).
    package var text: String { source.compactText }
}

/// One element of `applinks.details` (or one member of the legacy details dictionary).
package struct AASADetail: Sendable, Hashable {
    /// Where the rules come from (M21).
    package enum RuleSource: String, Sendable, Hashable, Codable {
        /// `components` is an array (even an empty one); `paths` is ignored.
        case components
        /// No `components` array; `paths` is an array.
        case paths
        /// Neither: this entry has no rules.
        case none
    }

    /// Index in the details array, or in the legacy details dictionary's source order.
    package var index: Int
    /// JSON path of the entry (`applinks.details[2]`).
    package var location: String
    /// The app IDs the entry applies to: `appIDs` when it is an array (even empty), else `appID` (M20).
    package var appIDs: [String]
    /// The entry's `defaults`.
    package var defaults: AASAFields
    /// Which list the rules come from.
    package var ruleSource: RuleSource
    /// The rules, in evaluation order.
    package var rules: [AASAPathRule]
    /// The entry as written (for the legacy dictionary form: the value object).
    package var source: AASAJSON
}

/// The `applinks` object.
package struct AASAAppLinks: Sendable, Hashable {
    /// The details entries, in file order.
    package var details: [AASADetail]
    /// Whether `details` is the oldest form: a dictionary keyed by app ID (no defined order).
    package var detailsIsDictionary: Bool
    /// `applinks.defaults` (M16).
    package var defaults: AASAFields
    /// Custom `substitutionVariables` (string elements only), by name.
    package var substitutionVariables: [String: [String]]
    /// The object as written.
    package var source: AASAJSON
}
