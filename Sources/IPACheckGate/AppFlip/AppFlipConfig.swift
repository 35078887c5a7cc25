import Foundation

/// What the user registered for App Flip in the Google Home Developer Console; none of it is inside the ipa.
///
/// Read from a small JSON file (camelCase keys, unknown keys rejected so typos surface):
///
/// ```json
/// {
///   "appFlipURL": "https://example.com/appflip",
///   "clientID": "my-oauth-client",
///   "scopes": ["devices"],
///   "googleApps": ["com.google.Chromecast", "com.google.OPA"],
///   "sandbox": false,
///   "redirectURIs": ["https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"]
/// }
/// ```
///
/// - `appFlipURL` (required): the universal link entered as App Flip "Universal Link"; Google appends the query.
/// - `clientID` (required): the OAuth client ID configured for App Flip.
/// - `scopes` (optional, default none): the scopes Google requests, one OAuth scope token each.
/// - `googleApps` (optional, default Google Home and Google Assistant): bundle IDs of the Google apps that start
///   the flip; one of ``GoogleApp/all``.
/// - `sandbox` (optional, default false): also check the `oauth-redirect-sandbox` redirect URIs.
/// - `redirectURIs` (optional): the App Flip redirect URIs your OAuth server allowlists, to check them.
public struct AppFlipConfig: Hashable, Sendable, Encodable {
    /// The App Flip universal link, without query (`https://example.com/appflip`).
    public var appFlipURL: String
    /// The OAuth client ID Google sends as `client_id`.
    public var clientID: String
    /// The scopes Google sends, space-separated, as `scope`.
    public var scopes: [String]
    /// The Google apps expected to start the flip.
    public var googleApps: [GoogleApp]
    /// Whether the sandbox redirect host is in use too.
    public var sandbox: Bool
    /// The redirect URIs the user's authorization server accepts, when given.
    public var redirectURIs: [String]?

    /// The Google apps used when the file names none: both production apps the documentation lists.
    public static let defaultGoogleApps: [GoogleApp] = [.googleHome, .googleAssistant]

    /// The largest config file accepted; real ones are a few hundred bytes.
    public static let maximumSize = 64 * 1024

    /// The keys the schema defines.
    public static let keys: [String] = ["appFlipURL", "clientID", "scopes", "googleApps", "sandbox", "redirectURIs"]

    /// Creates a config in code (tests, CLI flags).
    public init(
        appFlipURL: String,
        clientID: String,
        scopes: [String] = [],
        googleApps: [GoogleApp] = AppFlipConfig.defaultGoogleApps,
        sandbox: Bool = false,
        redirectURIs: [String]? = nil
    ) {
        self.appFlipURL = appFlipURL
        self.clientID = clientID
        self.scopes = scopes
        self.googleApps = googleApps
        self.sandbox = sandbox
        self.redirectURIs = redirectURIs
    }

    /// Parses the JSON config file's bytes; `file` names it in errors.
    ///
    /// - Throws: ``AppFlipError`` naming the file, the key and what is wrong (the CLI's exit 2).
    public static func parse(_ bytes: some Collection<UInt8>, file: String) throws(AppFlipError) -> AppFlipConfig {
        guard !bytes.isEmpty else { throw AppFlipError(.unreadable, context: file, reason: "empty file, not JSON") }
        guard bytes.count <= maximumSize else {
            throw AppFlipError(
                .unreadable,
                context: file,
                reason: "\(bytes.count) bytes is larger than the \(maximumSize)-byte limit for an App Flip config"
            )
        }
        let root: ConfigJSON
        do {
            root = try JSONDecoder().decode(ConfigJSON.self, from: Data(bytes))
        } catch {
            throw AppFlipError(.malformedJSON, context: file, reason: "not valid JSON (\(Self.describe(error)))")
        }
        guard case .object(let object) = root else {
            throw AppFlipError(
                .notAnObject,
                context: file,
                reason: "the top level must be a JSON object, not \(root.kind)"
            )
        }
        for key in object.keys.sorted() where !keys.contains(key) {
            throw AppFlipError(
                .unknownKey,
                context: "\(file): \(key)",
                reason: "unknown key; the keys are \(keys.joined(separator: ", "))"
            )
        }
        let reader = FieldReader(file: file, object: object)
        let appFlipURL = try reader.requiredString("appFlipURL")
        let clientID = try reader.requiredString("clientID")
        let scopes = try reader.optionalStrings("scopes") ?? []
        for (index, scope) in scopes.enumerated() where !isScopeToken(scope) {
            throw AppFlipError(
                .invalidValue,
                context: "\(file): scopes[\(index)]",
                reason: "\"\(scope)\" is not one OAuth scope token (RFC 6749 §3.3: printable ASCII, no spaces, "
                    + "quotes or backslashes); list each scope separately"
            )
        }
        var googleApps = defaultGoogleApps
        if let bundleIDs = try reader.optionalStrings("googleApps") {
            googleApps = []
            for (index, bundleID) in bundleIDs.enumerated() {
                guard let app = GoogleApp.named(bundleID) else {
                    throw AppFlipError(
                        .invalidValue,
                        context: "\(file): googleApps[\(index)]",
                        reason: "\"\(bundleID)\" is not a Google app that starts App Flip; known: "
                            + GoogleApp.all.map(\.bundleID).joined(separator: ", ")
                    )
                }
                if !googleApps.contains(app) { googleApps.append(app) }
            }
            guard !googleApps.isEmpty else {
                throw AppFlipError(.invalidValue, context: "\(file): googleApps", reason: "must name at least one app")
            }
        }
        let sandbox = try reader.optionalBool("sandbox") ?? false
        let redirectURIs = try reader.optionalStrings("redirectURIs")
        return AppFlipConfig(
            appFlipURL: appFlipURL,
            clientID: clientID,
            scopes: scopes,
            googleApps: googleApps,
            sandbox: sandbox,
            redirectURIs: redirectURIs
        )
    }

    /// Encodes the file's own schema (Google apps as bundle IDs), so a parsed config prints back as it was written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appFlipURL, forKey: .appFlipURL)
        try container.encode(clientID, forKey: .clientID)
        try container.encode(scopes, forKey: .scopes)
        try container.encode(googleApps.map(\.bundleID), forKey: .googleApps)
        try container.encode(sandbox, forKey: .sandbox)
        try container.encodeIfPresent(redirectURIs, forKey: .redirectURIs)
    }

    private enum CodingKeys: String, CodingKey {
        case appFlipURL, clientID, scopes, googleApps, sandbox, redirectURIs
    }

    /// Whether `scope` is one RFC 6749 scope token: `%x21 / %x23-5B / %x5D-7E`, at least one character.
    static func isScopeToken(_ scope: String) -> Bool {
        !scope.isEmpty
            && scope.unicodeScalars.allSatisfy { scalar in
                let value = scalar.value
                return value == 0x21 || (0x23...0x5B).contains(value) || (0x5D...0x7E).contains(value)
            }
    }

    private static func describe(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            if let underlying = context.underlyingError { return "\(underlying.localizedDescription)" }
            return context.debugDescription
        }
        return "\(error)"
    }
}

/// Reads typed fields out of a config object, naming the file and key in every error.
private struct FieldReader {
    let file: String
    let object: [String: ConfigJSON]

    func requiredString(_ key: String) throws(AppFlipError) -> String {
        guard let value = object[key] else {
            throw AppFlipError(.missingKey, context: "\(file): \(key)", reason: "required key is missing")
        }
        guard case .string(let string) = value else {
            throw AppFlipError(.wrongType, context: "\(file): \(key)", reason: "must be a string, not \(value.kind)")
        }
        guard !string.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw AppFlipError(.invalidValue, context: "\(file): \(key)", reason: "must not be empty")
        }
        return string
    }

    func optionalBool(_ key: String) throws(AppFlipError) -> Bool? {
        guard let value = object[key], value != .null else { return nil }
        guard case .bool(let bool) = value else {
            throw AppFlipError(
                .wrongType,
                context: "\(file): \(key)",
                reason: "must be true or false, not \(value.kind)"
            )
        }
        return bool
    }

    func optionalStrings(_ key: String) throws(AppFlipError) -> [String]? {
        guard let value = object[key], value != .null else { return nil }
        guard case .array(let elements) = value else {
            throw AppFlipError(
                .wrongType,
                context: "\(file): \(key)",
                reason: "must be an array of strings, not \(value.kind)"
            )
        }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let string) = element else {
                throw AppFlipError(
                    .wrongType,
                    context: "\(file): \(key)[\(index)]",
                    reason: "must be a string, not \(element.kind)"
                )
            }
            strings.append(string)
        }
        return strings
    }
}

/// A JSON value decoded strictly (a number is never a Boolean), so type errors can name what was found.
private enum ConfigJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ConfigJSON])
    case object([String: ConfigJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let array = try? container.decode([ConfigJSON].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: ConfigJSON].self))
        }
    }

    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
