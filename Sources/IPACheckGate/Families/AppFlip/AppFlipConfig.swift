import Foundation
import IPACheckReport

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
package struct AppFlipConfig: Hashable, Sendable, Encodable {
    /// The App Flip universal link, without query (`https://example.com/appflip`).
    package var appFlipURL: String
    /// The OAuth client ID Google sends as `client_id`.
    package var clientID: String
    /// The scopes Google sends, space-separated, as `scope`.
    package var scopes: [String]
    /// The Google apps expected to start the flip.
    package var googleApps: [GoogleApp]
    /// Whether the sandbox redirect host is in use too.
    package var sandbox: Bool
    /// The redirect URIs the user's authorization server accepts, when given.
    package var redirectURIs: [String]?

    /// The Google apps used when the file names none: both production apps the documentation lists.
    package static let defaultGoogleApps: [GoogleApp] = [.googleHome, .googleAssistant]

    /// The largest config file accepted; real ones are a few hundred bytes.
    package static let maximumSize = 64 * 1024

    /// The keys the schema defines.
    package static let keys: [String] = ["appFlipURL", "clientID", "scopes", "googleApps", "sandbox", "redirectURIs"]

    /// Creates a config in code (tests, CLI flags).
    package init(
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
    package static func parse(_ bytes: some Collection<UInt8>, file: String) throws(AppFlipError) -> AppFlipConfig {
        guard !bytes.isEmpty else { throw AppFlipError(.unreadable, context: file, reason: "empty file, not JSON") }
        guard bytes.count <= maximumSize else {
            throw AppFlipError(
                .unreadable,
                context: file,
                reason: "\(bytes.count) bytes is larger than the \(maximumSize)-byte limit for an App Flip config"
            )
        }
        let tree: ConfigTree
        do {
            tree = try ConfigTree.parse(Array(bytes), yaml: false, file: file)
        } catch {
            throw AppFlipError(.malformedJSON, context: file, reason: "not valid JSON (\(error.message))")
        }
        return try AppFlipConfig(tree: tree, file: file)
    }

    /// Decodes a config already read strictly (the file above, or the `appFlip` object of `.ipacheck.yml`).
    ///
    /// - Throws: ``AppFlipError`` naming `file`, the key and what is wrong.
    init(tree: ConfigTree, file: String) throws(AppFlipError) {
        guard case .object(let members) = tree.value else {
            throw AppFlipError(
                .notAnObject,
                context: file,
                reason: "must be a JSON object, not \(tree.kindName)"
            )
        }
        for key in members.map(\.key).sorted() where !Self.keys.contains(key) {
            throw AppFlipError(
                .unknownKey,
                file: file,
                key: key,
                reason: "unknown key; the keys are \(Self.keys.joined(separator: ", "))"
            )
        }
        let written: WrittenFile
        do {
            written = try JSONDecoder().decode(WrittenFile.self, from: try JSONEncoder().encode(tree.json))
        } catch let error as DecodingError {
            throw Self.describe(error, tree: tree, file: file)
        } catch {
            throw AppFlipError(.malformedJSON, context: file, reason: "\(error)")
        }
        for (key, value) in [("appFlipURL", written.appFlipURL), ("clientID", written.clientID)]
        where value.trimmingCharacters(in: .whitespaces).isEmpty {
            throw AppFlipError(.invalidValue, file: file, key: key, reason: "must not be empty")
        }
        let scopes = written.scopes ?? []
        for (index, scope) in scopes.enumerated() where !Self.isScopeToken(scope) {
            throw AppFlipError(
                .invalidValue,
                file: file,
                key: "scopes[\(index)]",
                reason: "\"\(scope)\" is not one OAuth scope token (RFC 6749 §3.3: printable ASCII, no spaces, "
                    + "quotes or backslashes); list each scope separately"
            )
        }
        var googleApps = Self.defaultGoogleApps
        if let bundleIDs = written.googleApps {
            googleApps = []
            for (index, bundleID) in bundleIDs.enumerated() {
                guard let app = GoogleApp.named(bundleID) else {
                    throw AppFlipError(
                        .invalidValue,
                        file: file,
                        key: "googleApps[\(index)]",
                        reason: "\"\(bundleID)\" is not a Google app that starts App Flip; known: "
                            + GoogleApp.all.map(\.bundleID).joined(separator: ", ")
                    )
                }
                if !googleApps.contains(app) { googleApps.append(app) }
            }
            guard !googleApps.isEmpty else {
                throw AppFlipError(.invalidValue, file: file, key: "googleApps", reason: "must name at least one app")
            }
        }
        self.init(
            appFlipURL: written.appFlipURL,
            clientID: written.clientID,
            scopes: scopes,
            googleApps: googleApps,
            sandbox: written.sandbox ?? false,
            redirectURIs: written.redirectURIs
        )
    }

    /// The file as written, decoded once its keys are known to be the schema's (an absent or null optional key is
    /// its default).
    private struct WrittenFile: Decodable {
        let appFlipURL: String
        let clientID: String
        let scopes: [String]?
        let googleApps: [String]?
        let sandbox: Bool?
        let redirectURIs: [String]?
    }

    /// Encodes the file's own schema (Google apps as bundle IDs), so a parsed config prints back as it was written.
    package func encode(to encoder: any Encoder) throws {
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

    /// A decoding error as the key it is about, what was expected there and what the file holds.
    private static func describe(_ error: DecodingError, tree: ConfigTree, file: String) -> AppFlipError {
        func path(_ codingPath: [any CodingKey]) -> (shown: String, node: ConfigTree?) {
            var shown = ""
            var node: ConfigTree? = tree
            for key in codingPath {
                if let index = key.intValue {
                    shown += "[\(index)]"
                    if case .array(let elements)? = node?.value, elements.indices.contains(index) {
                        node = elements[index]
                    } else {
                        node = nil
                    }
                } else {
                    shown += shown.isEmpty ? key.stringValue : ".\(key.stringValue)"
                    node = node?[key.stringValue]
                }
            }
            return (shown, node)
        }
        func expected(_ type: Any.Type) -> String {
            if type == Bool.self { return "true or false" }
            if type == [String].self { return "an array of strings" }
            return "a string"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let (shown, _) = path(context.codingPath + [key])
            return AppFlipError(.missingKey, file: file, key: shown, reason: "required key is missing")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let (shown, node) = path(context.codingPath)
            return AppFlipError(
                .wrongType,
                file: file,
                key: shown,
                reason: "must be \(expected(type)), not \(node?.kindName ?? "null")"
            )
        case .dataCorrupted(let context):
            return AppFlipError(.malformedJSON, context: file, reason: context.debugDescription)
        @unknown default:
            return AppFlipError(.malformedJSON, context: file, reason: "\(error)")
        }
    }
}
