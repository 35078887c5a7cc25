public import IPACheckReport

/// Why an AASA file could not be read at all: Apple would reject it, so there is nothing to match or lint.
public struct AASAParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; each maps to a stable rule ID.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The file is empty (or only a BOM and white space).
        case empty
        /// The bytes are not valid UTF-8.
        case invalidUTF8
        /// The text is not strict JSON (RFC 8259): trailing comma, comment, single quotes, bad escape …
        case invalidJSON
        /// The JSON is valid but its top level is not an object.
        case rootNotObject
        /// Nesting deeper than ``AASADocument/Limits/maximumDepth``.
        case tooDeep
        /// More bytes than ``AASADocument/Limits/hardByteCap``; not read further.
        case tooLarge
        /// It starts like a CMS (PKCS#7) signed file but its structure is broken.
        case malformedCMS
    }

    /// The kind of failure.
    public var code: Code
    /// What is wrong, in one sentence that names the place.
    public var message: String
    /// Where in the JSON text (or the CMS envelope, as a byte offset) it went wrong, if known.
    public var position: AASASourcePosition?

    /// Creates an error.
    public init(_ code: Code, _ message: String, at position: AASASourcePosition? = nil) {
        self.code = code
        self.message = message
        self.position = position
    }

    /// The message with its position: `invalid JSON at line 3, column 5: trailing comma before '}'`.
    public var description: String {
        if let position { return "\(message) (\(position), byte \(position.offset))" }
        return message
    }

    /// The rule this failure reports under.
    public var rule: Rule {
        switch code {
        case .empty: AASARules.emptyFile
        case .invalidUTF8: AASARules.invalidUTF8
        case .invalidJSON: AASARules.invalidJSON
        case .rootNotObject: AASARules.rootNotObject
        case .tooDeep: AASARules.tooDeep
        case .tooLarge: AASARules.tooLarge
        case .malformedCMS: AASARules.malformedCMS
        }
    }

    /// This failure as a finding, for reports that list it beside other problems.
    public func finding(domain: String? = nil) -> Finding {
        rule.finding(description, domain: domain, location: position.map { "\($0)" })
    }
}

/// The catalogue of every rule the AASA engine raises, for `ipacheck rules`, the README table and SARIF.
///
/// Each rule is declared once, in an extension beside the code that raises it.
public enum AASARules {
    /// Every AASA rule, ordered by ID.
    public static var all: [Rule] {
        let rules: [Rule] = [
            emptyFile, invalidUTF8, invalidJSON, rootNotObject, tooDeep, tooLarge, malformedCMS,
            byteOrderMark, duplicateKey, overSizeLimit, signedFile, brokenSignature,
            mixedPathsAndComponents, appIDBesideAppIDs, legacyAppsNotEmpty, unreachableRule, duplicateRule,
            repeatedAppID, unknownComponentKey, excludesEverything, questionMarkInPath, hashInPath,
            trailingExclude, malformedAppID, placeholderAppID, undefinedVariable, unterminatedVariable,
            nonStringQueryValue, wrongType, unknownKey, legacyDetailsDictionary, badSubstitutionVariable,
            detailWithoutRules, detailWithoutAppIDs, emptyAppsArray, starQueryItem, ignoredExtraKey,
            singleAppDetailsDictionary, appIDLostBesideAppIDs, excludeBroaderThanItLooks, misspelledKeyCatchAll,
        ]
        return rules.sorted { $0.id < $1.id }
    }

    static let emptyFile = Rule(
        "AASA001",
        .error,
        "empty AASA file",
        summary: "The file has no content, so the domain associates with no app.",
        fix: "Serve the JSON document itself at /.well-known/apple-app-site-association."
    )
    static let invalidUTF8 = Rule(
        "AASA002",
        .error,
        "AASA file is not UTF-8",
        summary: "JSON must be UTF-8; Apple cannot read a file with invalid byte sequences.",
        fix: "Save the file as UTF-8 (without a byte order mark)."
    )
    static let invalidJSON = Rule(
        "AASA003",
        .error,
        "AASA file is not valid JSON",
        summary: "Apple parses the file as strict JSON: trailing commas, comments, single quotes, unquoted keys or "
            + "junk after the document make the whole file unusable.",
        fix: "Fix the syntax at the reported position; validate with a strict JSON parser (python3 -m json.tool)."
    )
    static let rootNotObject = Rule(
        "AASA004",
        .error,
        "AASA root is not a JSON object",
        summary: "The document must be an object with service keys such as \"applinks\" and \"webcredentials\".",
        fix: "Wrap the content in { \"applinks\": { \"details\": [ … ] } }."
    )
    static let tooDeep = Rule(
        "AASA005",
        .error,
        "AASA JSON nested too deeply",
        summary: "No real AASA document nests this deep; the file is refused to protect the reader.",
        fix: "Flatten the document; AASA files need at most six levels."
    )
    static let tooLarge = Rule(
        "AASA006",
        .error,
        "AASA file far too large to read",
        summary: "The file exceeds the reader's hard cap, many times Apple's 128 KB limit.",
        fix: "Serve a file under 128 KB; use wildcards and substitution variables instead of listing every path."
    )
    static let malformedCMS = Rule(
        "AASA007",
        .error,
        "malformed signed (CMS) AASA file",
        summary: "The file starts like a DER SignedData structure but it is truncated or not SignedData with "
            + "embedded content, so no JSON payload can be extracted.",
        fix: "Serve the plain JSON file with Content-Type application/json; signing is obsolete since iOS 9."
    )
}
