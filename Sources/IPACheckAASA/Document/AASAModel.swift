/// The services an AASA file can name at its top level.
public enum AASAService: String, Sendable, Hashable, Codable, CaseIterable {
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
public struct AASAFields: Sendable, Hashable, Codable {
    /// The `/` pattern.
    public var path: String?
    /// The `?` pattern: a whole-query string or a dictionary of query items.
    public var query: AASAQueryPattern?
    /// The `#` pattern.
    public var fragment: String?
    /// `exclude`.
    public var exclude: Bool?
    /// `caseSensitive`.
    public var caseSensitive: Bool?
    /// `percentEncoded`.
    public var percentEncoded: Bool?

    /// Creates fields; everything unspecified by default.
    public init(
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
    public func overlaid(on fallback: AASAFields) -> AASAFields {
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
    init(object: AASAJSON) {
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
public enum AASAQueryPattern: Sendable, Hashable, Codable {
    /// A string: matched against the entire raw query (M8).
    case whole(String)
    /// A dictionary: each named item must match in every occurrence; a missing item counts as empty (M9–M11).
    case items([Item])
    /// A dictionary with a non-string value: Apple ignores the whole dictionary, so any query matches (M12).
    case ignored

    /// One `"name": "pattern"` query predicate.
    public struct Item: Sendable, Hashable, Codable {
        /// The query item name.
        public var name: String
        /// The pattern its value must match.
        public var pattern: String

        /// Creates an item predicate.
        public init(name: String, pattern: String) {
            self.name = name
            self.pattern = pattern
        }
    }
}

/// One rule of a details entry: a modern `components` element or a legacy `paths` string.
public struct AASARule: Sendable, Hashable {
    /// Which list the rule comes from.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// An element of `components` (iOS 13+).
        case component
        /// A string of `paths` (iOS 9–12); `NOT ` makes it an exclude.
        case legacyPath
    }

    /// Index in `components` or `paths`.
    public var index: Int
    /// Which list it comes from.
    public var kind: Kind
    /// The keys the rule itself specifies (for a legacy path: `/` and `exclude`).
    public var fields: AASAFields
    /// The rule as written: the component object, or the path string.
    public var source: AASAJSON
    /// Component keys Apple does not know and ignores (M18), in source order.
    public var unknownKeys: [String]

    /// The rule as compact JSON, for explanations (`{"/": "/buy/*", "exclude": true}` or `"NOT /api/*"`).
    public var text: String { source.compactText }
}

/// One element of `applinks.details` (or one member of the legacy details dictionary).
public struct AASADetail: Sendable, Hashable {
    /// Where the rules come from (M21).
    public enum RuleSource: String, Sendable, Hashable, Codable {
        /// `components` is an array (even an empty one); `paths` is ignored.
        case components
        /// No `components` array; `paths` is an array.
        case paths
        /// Neither: this entry has no rules.
        case none
    }

    /// Index in the details array, or in the legacy details dictionary's source order.
    public var index: Int
    /// JSON path of the entry (`applinks.details[2]`).
    public var location: String
    /// The app IDs the entry applies to: `appIDs` when it is an array (even empty), else `appID` (M20).
    public var appIDs: [String]
    /// The entry's `defaults`.
    public var defaults: AASAFields
    /// Which list the rules come from.
    public var ruleSource: RuleSource
    /// The rules, in evaluation order.
    public var rules: [AASARule]
    /// The entry as written (for the legacy dictionary form: the value object).
    public var source: AASAJSON
}

/// The `applinks` object.
public struct AASAAppLinks: Sendable, Hashable {
    /// The details entries, in file order.
    public var details: [AASADetail]
    /// Whether `details` is the oldest form: a dictionary keyed by app ID (no defined order).
    public var detailsIsDictionary: Bool
    /// `applinks.defaults` (M16).
    public var defaults: AASAFields
    /// Custom `substitutionVariables` (string elements only), by name.
    public var substitutionVariables: [String: [String]]
    /// The object as written.
    public var source: AASAJSON
}
