import IPACheckAASA
import Testing

/// One expectation: under `document`, would iOS open `url` in `appID`? Every expected verdict comes from Apple's
/// documentation or from recorded `swcutil` behaviour, as docs/matching.md cites it (the row is in the name).
struct MatchCase: CustomTestStringConvertible, Sendable {
    var name: String
    var document: String
    var url: String
    var appID = MatchCase.app
    var verdict: AASAVerdict
    var rule: AASAPathRuleReference? = nil
    var domain: String? = nil

    static let app = "A1B2C3D4E5.com.acme.app"
    static let other = "A1B2C3D4E5.com.acme.other"

    var testDescription: String { name }

    /// A modern document with one details entry for ``app`` holding `components` (JSON array text).
    static func components(
        _ components: String,
        defaults: String? = nil,
        detailDefaults: String? = nil,
        variables: String? = nil
    ) -> String {
        var applinks: [String] = []
        if let defaults { applinks.append("\"defaults\": \(defaults)") }
        if let variables { applinks.append("\"substitutionVariables\": \(variables)") }
        let detailDefaultsText = detailDefaults.map { ", \"defaults\": \($0)" } ?? ""
        applinks.append(
            "\"details\": [{\"appIDs\": [\"\(app)\"], \"components\": \(components)\(detailDefaultsText)}]"
        )
        return "{\"applinks\": {\(applinks.joined(separator: ", "))}}"
    }

    /// A legacy document with one details entry for ``app`` holding `paths`.
    static func paths(_ paths: String) -> String {
        "{\"applinks\": {\"apps\": [], \"details\": [{\"appID\": \"\(app)\", \"paths\": \(paths)}]}}"
    }
}

/// An applinks document of one details entry with these components (and optional defaults and variables).
func c(
    _ components: String,
    defaults: String? = nil,
    detailDefaults: String? = nil,
    variables: String? = nil
)
    -> String
{
    MatchCase.components(components, defaults: defaults, detailDefaults: detailDefaults, variables: variables)
}

/// An applinks document of one details entry with these legacy paths.
func p(_ paths: String) -> String { MatchCase.paths(paths) }
/// The host every case asks about.
let site = "https://example.com"
