/// Reads Firebase's `GOOGLE_APP_ID` (`1:PROJECT_NUMBER:ios:HEX`, FirebaseCore `validateAppID`).
enum GoogleAppID {
    /// The project number of a well-formed iOS app ID (version 1, digits, `ios`, lowercase hex); `nil` otherwise.
    static func projectNumber(of appID: String) -> String? {
        let parts = appID.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "1", parts[2] == "ios",
            !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
            !parts[3].isEmpty, parts[3].allSatisfy({ $0.isASCII && $0.isHexDigit && !$0.isUppercase })
        else { return nil }
        return String(parts[1])
    }
}
