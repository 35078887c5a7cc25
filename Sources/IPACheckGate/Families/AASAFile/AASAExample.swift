import IPACheckAASA
/// The AASA documents rule examples are written in, built around what each example is about rather than pasted
/// whole: most examples are one `applinks` detail for the sample app, and differ only in its other keys.
enum AASAExample {
    /// The sample app every example's detail is for.
    static let appID = "A1B2C3D4E5.com.acme.shop"

    /// A document with one `applinks` detail, laid out as the examples are printed: `appIDs` is the JSON of its
    /// `appIDs` value (the sample app by default), `keys` the detail's other keys, one or more lines as they appear
    /// inside the detail (without its indentation).
    static func detail(appIDs: String = #"["\#(appID)"]"#, _ keys: String) -> String {
        let indented = keys.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.isEmpty ? "" : "      " + $0
        }
        return """
            {
              "applinks": {
                "details": [{
                  "appIDs": \(appIDs),
            \(indented.joined(separator: "\n"))
                }]
              }
            }
            """
    }
}
