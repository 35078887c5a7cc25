import IPACheckAASA
/// Judges whether a string can be an app ID (`PREFIX.bundle.id`) and whether it looks like a template value.
enum AppIDCheck {
    enum Verdict: Equatable {
        case valid
        case malformed(String)
        case placeholder(String)
    }

    private static let placeholderPrefixes: Set<String> = [
        "FAKETEAMID", "ABCDE12345", "ABCDEFGHIJ", "ABCDEF1234", "ABC123DEF4", "1234567890", "0123456789",
        "XXXXXXXXXX", "YOURTEAMID", "TEAMID1234", "AAAAAAAAAA",
    ]

    /// The longest prefix (in UTF-8 bytes) a typo suggestion is looked for: twice a real one, so a hostile app ID
    /// of a megabyte is not searched once for each of the file's known prefixes.
    static let maximumSuggestionPrefixLength = 20

    static func check(_ appID: String, knownPrefixes: [String]) -> Verdict {
        guard let dot = appID.firstIndex(of: ".") else {
            return .malformed("no dot between the App ID prefix and the bundle ID")
        }
        let prefix = String(appID[..<dot])
        let bundle = String(appID[appID.index(after: dot)...])
        let isPrefixCharacter: (Character) -> Bool = { $0.isASCII && ($0.isUppercase || $0.isNumber) }
        guard prefix.count == 10, prefix.allSatisfy(isPrefixCharacter) else {
            var reason =
                "the App ID prefix \"\(prefix)\" has \(prefix.count) characters; it must be 10 upper-case "
                + "letters or digits"
            if prefix.allSatisfy({ $0.isLetter || $0.isNumber }), prefix.count == 10 {
                reason = "the App ID prefix \"\(prefix)\" must be upper-case"
            }
            let isSuggestible = !prefix.isEmpty && prefix.utf8.count <= maximumSuggestionPrefixLength
            let suggestions = knownPrefixes.filter { known in
                isSuggestible && known != prefix && (known.contains(prefix) || prefix.contains(known))
            }
            if let suggestion = suggestions.sorted().first {
                reason += "; did you mean \(suggestion), used elsewhere in this file?"
            }
            return .malformed(reason)
        }
        let bundleCharacter: (Character) -> Bool = {
            $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".")
        }
        guard !bundle.isEmpty, bundle.allSatisfy(bundleCharacter), !bundle.hasPrefix("."), !bundle.hasSuffix("."),
            !bundle.contains("..")
        else {
            return .malformed(
                "the bundle ID \"\(bundle)\" must be non-empty and use only letters, digits, hyphens and dots"
            )
        }
        let distinct = Set(prefix)
        if placeholderPrefixes.contains(prefix) || prefix.contains("TEAM") || prefix.contains("FAKE")
            || prefix.contains("XXXX") || distinct.count == 1
        {
            return .placeholder("the prefix \(prefix) is a template value, not a real App ID prefix")
        }
        let lowerBundle = bundle.lowercased()
        if lowerBundle.hasPrefix("com.example.") || lowerBundle.hasPrefix("com.yourcompany.")
            || lowerBundle.hasPrefix("com.mycompany.") || lowerBundle == "com.example"
        {
            return .placeholder("the bundle ID \(bundle) is a template value")
        }
        return .valid
    }
}
