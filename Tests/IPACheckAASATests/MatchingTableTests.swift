import IPACheckAASA
import Testing

/// One expectation: under `document`, would iOS open `url` in `appID`? Every expected verdict comes from Apple's
/// documentation or from the recorded `swcutil` behaviour in ../shared/docs/aasa.md §2.4 (the row is in the name).
struct MatchCase: CustomTestStringConvertible, Sendable {
    var name: String
    var document: String
    var url: String
    var appID = MatchCase.app
    var verdict: AASAVerdict
    var rule: AASARuleReference? = nil
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

private func c(
    _ components: String,
    defaults: String? = nil,
    detailDefaults: String? = nil,
    variables: String? = nil
)
    -> String
{
    MatchCase.components(components, defaults: defaults, detailDefaults: detailDefaults, variables: variables)
}

private func p(_ paths: String) -> String { MatchCase.paths(paths) }
private let site = "https://example.com"

let matchCases: [MatchCase] = [
    // M1: first match wins; an exclude stops scanning.
    MatchCase(
        name: "M1 exclude first blocks",
        document: c(##"[{"/": "/buy/*", "exclude": true}, {"/": "*"}]"##),
        url: "\(site)/buy/42",
        verdict: .block,
        rule: .init(detail: 0, component: 0)
    ),
    MatchCase(
        name: "M1 later rule accepts the rest",
        document: c(##"[{"/": "/buy/*", "exclude": true}, {"/": "*"}]"##),
        url: "\(site)/other",
        verdict: .match,
        rule: .init(detail: 0, component: 1)
    ),
    MatchCase(
        name: "M1 exclude after catch-all is never reached",
        document: c(##"[{"/": "*"}, {"/": "/buy/*", "exclude": true}]"##),
        url: "\(site)/buy/42",
        verdict: .match,
        rule: .init(detail: 0, component: 0)
    ),
    MatchCase(
        name: "M1 no rule matches",
        document: c(##"[{"/": "/a"}, {"/": "/b"}]"##),
        url: "\(site)/c",
        verdict: .none
    ),
    // M2: all specified keys must match (Apple's {"/": "abc", "?": "def", "#": "*"} example).
    MatchCase(
        name: "M2 Apple example matches /abc?def",
        document: c(##"[{"/": "abc", "?": "def", "#": "*"}]"##),
        url: "https://www.example.com/abc?def",
        verdict: .match
    ),
    MatchCase(
        name: "M2 Apple example rejects /abc",
        document: c(##"[{"/": "abc", "?": "def", "#": "*"}]"##),
        url: "https://www.example.com/abc",
        verdict: .none
    ),
    MatchCase(
        name: "M2 Apple example rejects ?def without path",
        document: c(##"[{"/": "abc", "?": "def", "#": "*"}]"##),
        url: "https://www.example.com?def",
        verdict: .none
    ),
    MatchCase(
        name: "M2 unspecified path defaults to *",
        document: c(##"[{"?": "a=1"}]"##),
        url: "\(site)/any/where?a=1",
        verdict: .match
    ),
    // M3: an absent component is the empty string.
    MatchCase(name: "M3 # * matches no fragment", document: c(##"[{"#": "*"}]"##), url: "\(site)/x", verdict: .match),
    MatchCase(
        name: "M3 # empty matches no fragment",
        document: c(##"[{"#": ""}]"##),
        url: "\(site)/x",
        verdict: .match
    ),
    MatchCase(name: "M3 # ?* needs a fragment", document: c(##"[{"#": "?*"}]"##), url: "\(site)/x", verdict: .none),
    MatchCase(name: "M3 # ?* with fragment", document: c(##"[{"#": "?*"}]"##), url: "\(site)/x#top", verdict: .match),
    // M4: wildcards.
    MatchCase(
        name: "M4 * crosses slashes",
        document: c(##"[{"/": "/buy/*"}]"##),
        url: "\(site)/buy/42/x",
        verdict: .match
    ),
    MatchCase(
        name: "M4 ? is exactly one character",
        document: c(##"[{"/": "/id/???"}]"##),
        url: "\(site)/id/481",
        verdict: .match
    ),
    MatchCase(
        name: "M4 ? does not match two",
        document: c(##"[{"/": "/id/???"}]"##),
        url: "\(site)/id/4812",
        verdict: .none
    ),
    MatchCase(
        name: "M4 ?* needs one or more",
        document: c(##"[{"/": "/foo/?*"}]"##),
        url: "\(site)/foo/",
        verdict: .none
    ),
    MatchCase(
        name: "M4 ?* with one character",
        document: c(##"[{"/": "/foo/?*"}]"##),
        url: "\(site)/foo/a",
        verdict: .match
    ),
    MatchCase(
        name: "M4 patterns are anchored at the end",
        document: c(##"[{"/": "/buy"}]"##),
        url: "\(site)/buy/42",
        verdict: .none
    ),
    MatchCase(
        name: "M4 patterns are anchored at the start",
        document: c(##"[{"/": "buy"}]"##),
        url: "\(site)/xbuy",
        verdict: .none
    ),
    MatchCase(
        name: "M4 Apple-archived combined wildcards",
        document: p(##"["/foo/*/bar/201?/mypage"]"##),
        url: "\(site)/foo/x/y/bar/2015/mypage",
        verdict: .match
    ),
    // M5: the leading slash is optional.
    MatchCase(name: "M5 abc matches /abc", document: c(##"[{"/": "abc"}]"##), url: "\(site)/abc", verdict: .match),
    MatchCase(
        name: "M5 buy/* matches /buy/42",
        document: c(##"[{"/": "buy/*"}]"##),
        url: "\(site)/buy/42",
        verdict: .match
    ),
    MatchCase(name: "M5 //abc matches /abc", document: c(##"[{"/": "//abc"}]"##), url: "\(site)/abc", verdict: .match),
    // M6: trailing slashes.
    MatchCase(name: "M6 /buy matches /buy/", document: c(##"[{"/": "/buy"}]"##), url: "\(site)/buy/", verdict: .match),
    MatchCase(name: "M6 /buy/ matches /buy", document: c(##"[{"/": "/buy/"}]"##), url: "\(site)/buy", verdict: .match),
    MatchCase(
        name: "M6 /buy/* matches the parent /buy",
        document: c(##"[{"/": "/buy/*"}]"##),
        url: "\(site)/buy",
        verdict: .match
    ),
    MatchCase(
        name: "M6 /id/???? does not match /id/481",
        document: c(##"[{"/": "/id/????"}]"##),
        url: "\(site)/id/481",
        verdict: .none
    ),
    // M7: an empty path is /.
    MatchCase(name: "M7 / matches the bare host", document: c(##"[{"/": "/"}]"##), url: site, verdict: .match),
    MatchCase(name: "M7 / matches host with slash", document: c(##"[{"/": "/"}]"##), url: "\(site)/", verdict: .match),
    MatchCase(name: "M7 / does not match /x", document: c(##"[{"/": "/"}]"##), url: "\(site)/x", verdict: .none),
    // M8: "?" string matches the whole raw query.
    MatchCase(name: "M8 a=1 matches ?a=1", document: c(##"[{"?": "a=1"}]"##), url: "\(site)/?a=1", verdict: .match),
    MatchCase(
        name: "M8 a=1 does not match ?a=1&b=2",
        document: c(##"[{"?": "a=1"}]"##),
        url: "\(site)/?a=1&b=2",
        verdict: .none
    ),
    MatchCase(name: "M8 ?* needs a query", document: c(##"[{"?": "?*"}]"##), url: "\(site)/x", verdict: .none),
    MatchCase(name: "M8 ?* with a query", document: c(##"[{"?": "?*"}]"##), url: "\(site)/x?y", verdict: .match),
    // M9: "?" dictionary constrains named items only.
    MatchCase(
        name: "M9 unnamed items are ignored",
        document: c(##"[{"?": {"key": "value"}}]"##),
        url: "\(site)/?key=value&extra=value",
        verdict: .match
    ),
    MatchCase(
        name: "M9 Apple articleNumber ???? example",
        document: c(##"[{"?": {"articleNumber": "????"}}]"##),
        url: "\(site)/?articleNumber=1234",
        verdict: .match
    ),
    MatchCase(
        name: "M9 articleNumber with five digits",
        document: c(##"[{"?": {"articleNumber": "????"}}]"##),
        url: "\(site)/?articleNumber=12345",
        verdict: .none
    ),
    MatchCase(
        name: "M9 every named predicate must hold",
        document: c(##"[{"?": {"a": "1", "b": "2"}}]"##),
        url: "\(site)/?a=1",
        verdict: .none
    ),
    // M10: a missing named item counts as empty.
    MatchCase(
        name: "M10 b * matches without b",
        document: c(##"[{"?": {"b": "*"}}]"##),
        url: "\(site)/x",
        verdict: .match
    ),
    MatchCase(
        name: "M10 b empty matches without b",
        document: c(##"[{"?": {"b": ""}}]"##),
        url: "\(site)/x?a=1",
        verdict: .match
    ),
    MatchCase(
        name: "M10 b ?* does not match without b",
        document: c(##"[{"?": {"b": "?*"}}]"##),
        url: "\(site)/x?a=1",
        verdict: .none
    ),
    MatchCase(
        name: "M10 element-call * exclude blocks every URL",
        document: c(##"[{"?": {"no_universal_links": "*"}, "exclude": true}, {"/": "*"}]"##),
        url: "\(site)/room/1",
        verdict: .block,
        rule: .init(detail: 0, component: 0)
    ),
    MatchCase(
        name: "M10 element-call fix with ?* lets plain URLs through",
        document: c(##"[{"?": {"no_universal_links": "?*"}, "exclude": true}, {"/": "*"}]"##),
        url: "\(site)/room/1",
        verdict: .match,
        rule: .init(detail: 0, component: 1)
    ),
    MatchCase(
        name: "M10 element-call fix still blocks flagged URLs",
        document: c(##"[{"?": {"no_universal_links": "?*"}, "exclude": true}, {"/": "*"}]"##),
        url: "\(site)/room/1?no_universal_links=1",
        verdict: .block
    ),
    // M11: repeated names must all match.
    MatchCase(
        name: "M11 id 42 does not match id=7&id=42",
        document: c(##"[{"?": {"id": "42"}}]"##),
        url: "\(site)/?id=7&id=42",
        verdict: .none
    ),
    MatchCase(
        name: "M11 id 7 matches id=7&id=7",
        document: c(##"[{"?": {"id": "7"}}]"##),
        url: "\(site)/?id=7&id=7",
        verdict: .match
    ),
    // M12: any non-string value voids the dictionary.
    MatchCase(
        name: "M12 boolean voids the dictionary",
        document: c(##"[{"?": {"a": "1", "flag": true}}]"##),
        url: "\(site)/?a=2",
        verdict: .match
    ),
    MatchCase(
        name: "M12 number voids the dictionary",
        document: c(##"[{"?": {"a": "1", "n": 5}}]"##),
        url: "\(site)/?a=2",
        verdict: .match
    ),
    MatchCase(
        name: "M12 null voids the dictionary",
        document: c(##"[{"?": {"a": "1", "n": null}}]"##),
        url: "\(site)/?a=2",
        verdict: .match
    ),
    MatchCase(
        name: "M12 array voids the dictionary",
        document: c(##"[{"?": {"a": "1", "n": ["1"]}}]"##),
        url: "\(site)/?a=2",
        verdict: .match
    ),
    MatchCase(
        name: "M12 object voids the dictionary",
        document: c(##"[{"?": {"a": "1", "n": {"x": "1"}}}]"##),
        url: "\(site)/?a=2",
        verdict: .match
    ),
    MatchCase(
        name: "M12 all-string dictionary still applies",
        document: c(##"[{"?": {"a": "1"}}]"##),
        url: "\(site)/?a=2",
        verdict: .none
    ),
    // M13: fragments, SPA routes.
    MatchCase(
        name: "M13 # pattern matches a hash route",
        document: c(##"[{"/": "/", "#": "/market/*"}]"##),
        url: "\(site)/#/market/btc",
        verdict: .match
    ),
    MatchCase(
        name: "M13 hash route in path never matches",
        document: c(##"[{"/": "/#/market/*"}]"##),
        url: "\(site)/#/market/btc",
        verdict: .none
    ),
    // M14: caseSensitive.
    MatchCase(
        name: "M14 case-sensitive by default",
        document: c(##"[{"/": "/Search"}]"##),
        url: "\(site)/search",
        verdict: .none
    ),
    MatchCase(
        name: "M14 caseSensitive false folds the path",
        document: c(##"[{"/": "/Search", "caseSensitive": false}]"##),
        url: "\(site)/search",
        verdict: .match
    ),
    MatchCase(
        name: "M14 caseSensitive false folds query values",
        document: c(##"[{"?": {"q": "ABC"}, "caseSensitive": false}]"##),
        url: "\(site)/?q=abc",
        verdict: .match
    ),
    MatchCase(
        name: "M14 caseSensitive false folds the fragment",
        document: c(##"[{"#": "Top", "caseSensitive": false}]"##),
        url: "\(site)/#TOP",
        verdict: .match
    ),
    MatchCase(
        name: "M14 query values are case-sensitive by default",
        document: c(##"[{"?": {"q": "ABC"}}]"##),
        url: "\(site)/?q=abc",
        verdict: .none
    ),
    MatchCase(
        name: "M14 upper accepts a when folding",
        document: c(##"[{"/": "/$(upper)", "caseSensitive": false}]"##),
        url: "\(site)/a",
        verdict: .match
    ),
    MatchCase(
        name: "M14 upper rejects a when case-sensitive",
        document: c(##"[{"/": "/$(upper)"}]"##),
        url: "\(site)/a",
        verdict: .none
    ),
    // M15: percentEncoded.
    MatchCase(
        name: "M15 encoded pattern matches encoded URL",
        document: c(##"[{"/": "/a%20b"}]"##),
        url: "\(site)/a%20b",
        verdict: .match
    ),
    MatchCase(
        name: "M15 unencoded pattern misses encoded URL",
        document: c(##"[{"/": "/a b"}]"##),
        url: "\(site)/a%20b",
        verdict: .none
    ),
    MatchCase(
        name: "M15 hex case matters",
        document: c(##"[{"/": "/caf%C3%A9"}]"##),
        url: "\(site)/caf%c3%a9",
        verdict: .none
    ),
    MatchCase(
        name: "M15 %2F is not a separator",
        document: c(##"[{"/": "/a/b"}]"##),
        url: "\(site)/a%2Fb",
        verdict: .none
    ),
    MatchCase(
        name: "M15 percentEncoded false decodes the URL",
        document: c(##"[{"/": "/a b", "percentEncoded": false}]"##),
        url: "\(site)/a%20b",
        verdict: .match
    ),
    MatchCase(
        name: "M15 percentEncoded false matches Unicode patterns",
        document: c(##"[{"/": "/café/*", "percentEncoded": false}]"##),
        url: "\(site)/caf%C3%A9/x",
        verdict: .match
    ),
    MatchCase(
        name: "M15 percentEncoded false decodes %2F",
        document: c(##"[{"/": "/a/b", "percentEncoded": false}]"##),
        url: "\(site)/a%2Fb",
        verdict: .match
    ),
    MatchCase(
        name: "M15 percentEncoded false leaves the pattern encoded",
        document: c(##"[{"/": "/a%20b", "percentEncoded": false}]"##),
        url: "\(site)/a%20b",
        verdict: .none
    ),
    // M16: defaults hierarchy.
    MatchCase(
        name: "M16 domain defaults apply",
        document: c(##"[{"/": "/Search"}]"##, defaults: ##"{"caseSensitive": false}"##),
        url: "\(site)/search",
        verdict: .match
    ),
    MatchCase(
        name: "M16 detail defaults override domain defaults",
        document: c(
            ##"[{"/": "/Search"}]"##,
            defaults: ##"{"caseSensitive": false}"##,
            detailDefaults: ##"{"caseSensitive": true}"##
        ),
        url: "\(site)/search",
        verdict: .none
    ),
    MatchCase(
        name: "M16 component overrides defaults",
        document: c(##"[{"/": "/Search", "caseSensitive": true}]"##, defaults: ##"{"caseSensitive": false}"##),
        url: "\(site)/search",
        verdict: .none
    ),
    // M17: defaults carry /, ?, #, exclude.
    MatchCase(
        name: "M17 defaults path restricts components without /",
        document: c(##"[{"?": "a=1"}]"##, defaults: ##"{"/": "/foo/*"}"##),
        url: "\(site)/bar?a=1",
        verdict: .none
    ),
    MatchCase(
        name: "M17 defaults path allows its paths",
        document: c(##"[{"?": "a=1"}]"##, defaults: ##"{"/": "/foo/*"}"##),
        url: "\(site)/foo/1?a=1",
        verdict: .match
    ),
    MatchCase(
        name: "M17 defaults exclude blocks everything",
        document: c(##"[{"/": "*"}]"##, defaults: ##"{"exclude": true}"##),
        url: "\(site)/x",
        verdict: .block
    ),
    MatchCase(
        name: "M17 detail defaults query applies",
        document: c(##"[{"/": "/x"}]"##, detailDefaults: ##"{"?": {"ref": "?*"}}"##),
        url: "\(site)/x",
        verdict: .none
    ),
    // M18: unknown keys are ignored.
    MatchCase(
        name: "M18 empty component matches everything",
        document: c(##"[{}]"##),
        url: "\(site)/anything?x#y",
        verdict: .match
    ),
    MatchCase(
        name: "M18 unknown key is ignored",
        document: c(##"[{"totallyUnknownKey": "x"}]"##),
        url: "\(site)/y",
        verdict: .match
    ),
    MatchCase(name: "M18 path key is not /", document: c(##"[{"path": "/x/*"}]"##), url: "\(site)/y", verdict: .match),
    MatchCase(
        name: "M18 casesensitive is not caseSensitive",
        document: c(##"[{"/": "/Search", "casesensitive": false}]"##),
        url: "\(site)/search",
        verdict: .none
    ),
    // M19: substitution variables.
    MatchCase(
        name: "M19 region matches GB",
        document: c(##"[{"/": "/$(region)"}]"##),
        url: "\(site)/GB",
        verdict: .match
    ),
    MatchCase(
        name: "M19 region does not match UK",
        document: c(##"[{"/": "/$(region)"}]"##),
        url: "\(site)/UK",
        verdict: .none
    ),
    MatchCase(
        name: "M19 Apple food example",
        document: c(
            ##"[{"/": "/$(lang)_$(region)/$(food)/"}]"##,
            variables: ##"{"food": ["burrito", "pizza", "sushi", "samosa"]}"##
        ),
        url: "\(site)/en_US/pizza/",
        verdict: .match
    ),
    MatchCase(
        name: "M19 food example rejects other food",
        document: c(
            ##"[{"/": "/$(lang)_$(region)/$(food)/"}]"##,
            variables: ##"{"food": ["burrito", "pizza", "sushi", "samosa"]}"##
        ),
        url: "\(site)/en_US/pasta/",
        verdict: .none
    ),
    MatchCase(
        name: "M19 literal $(food) in URL does not match",
        document: c(##"[{"/": "/$(food)"}]"##, variables: ##"{"food": ["pizza"]}"##),
        url: "\(site)/$(food)",
        verdict: .none
    ),
    MatchCase(
        name: "M19 digit is one character",
        document: c(##"[{"/": "/$(digit)"}]"##),
        url: "\(site)/12",
        verdict: .none
    ),
    MatchCase(
        name: "M19 digit matches one digit",
        document: c(##"[{"/": "/$(digit)"}]"##),
        url: "\(site)/7",
        verdict: .match
    ),
    MatchCase(name: "M19 xdigit rejects g", document: c(##"[{"/": "/$(xdigit)"}]"##), url: "\(site)/g", verdict: .none),
    MatchCase(
        name: "M19 values may contain wildcards",
        document: c(##"[{"/": "/$(v)"}]"##, variables: ##"{"v": ["a*"]}"##),
        url: "\(site)/abc",
        verdict: .match
    ),
    MatchCase(
        name: "M19 custom values fold when case-insensitive",
        document: c(##"[{"/": "/$(food)", "caseSensitive": false}]"##, variables: ##"{"food": ["Pizza"]}"##),
        url: "\(site)/PIZZA",
        verdict: .match
    ),
    // M20: appIDs wins over appID, even when empty.
    MatchCase(
        name: "M20 empty appIDs hides appID",
        document:
            ##"{"applinks": {"details": [{"appID": "A1B2C3D4E5.com.acme.app", "appIDs": [], "components": [{"/": "*"}]}]}}"##,
        url: "\(site)/x",
        verdict: .none
    ),
    MatchCase(
        name: "M20 appIDs wins over appID",
        document:
            ##"{"applinks": {"details": [{"appID": "A1B2C3D4E5.com.acme.app", "appIDs": ["A1B2C3D4E5.com.acme.other"], "components": [{"/": "*"}]}]}}"##,
        url: "\(site)/x",
        verdict: .none
    ),
    MatchCase(
        name: "M20 the appIDs app matches",
        document:
            ##"{"applinks": {"details": [{"appID": "A1B2C3D4E5.com.acme.app", "appIDs": ["A1B2C3D4E5.com.acme.other"], "components": [{"/": "*"}]}]}}"##,
        url: "\(site)/x",
        appID: MatchCase.other,
        verdict: .match
    ),
    // M21: components over paths, even empty.
    MatchCase(
        name: "M21 empty components hides paths",
        document:
            ##"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [], "paths": ["*"]}]}}"##,
        url: "\(site)/x",
        verdict: .none
    ),
    MatchCase(
        name: "M21 paths ignored beside components",
        document:
            ##"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/a"}], "paths": ["*"]}]}}"##,
        url: "\(site)/b",
        verdict: .none
    ),
    MatchCase(
        name: "M21 paths used without components",
        document: ##"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "paths": ["/b"]}]}}"##,
        url: "\(site)/b",
        verdict: .match
    ),
    // M22: only the first entry per app ID applies.
    MatchCase(
        name: "M22 second entry for the app is ignored",
        document:
            ##"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/a"}]}, {"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "*"}]}]}}"##,
        url: "\(site)/b",
        verdict: .none
    ),
    MatchCase(
        name: "M22 first entry decides",
        document:
            ##"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.other"], "components": [{"/": "*"}]}, {"appIDs": ["A1B2C3D4E5.com.acme.app"], "components": [{"/": "/a"}]}]}}"##,
        url: "\(site)/a",
        verdict: .match,
        rule: .init(detail: 1, component: 0)
    ),
    // M23: host equality, case-insensitive.
    MatchCase(
        name: "M23 other host does not match",
        document: c(##"[{"/": "*"}]"##),
        url: "https://evil.test/x",
        verdict: .none,
        domain: "example.com"
    ),
    MatchCase(
        name: "M23 host compare ignores case",
        document: c(##"[{"/": "*"}]"##),
        url: "https://EXAMPLE.com/x",
        verdict: .match,
        domain: "example.com"
    ),
    // M24: undocumented details keys do not disturb matching.
    MatchCase(
        name: "M24 relativeOrder is tolerated",
        document:
            ##"{"applinks": {"details": [{"appIDs": ["A1B2C3D4E5.com.acme.app"], "relativeOrder": 1, "components": [{"/": "/a"}]}]}}"##,
        url: "\(site)/a",
        verdict: .match
    ),
    // M25: legacy paths.
    MatchCase(
        name: "M25 NOT blocks",
        document: p(##"["NOT /videos/wwdc/2010/*", "/videos/wwdc/*"]"##),
        url: "\(site)/videos/wwdc/2010/x",
        verdict: .block,
        rule: .init(detail: 0, component: 0)
    ),
    MatchCase(
        name: "M25 later path accepts",
        document: p(##"["NOT /videos/wwdc/2010/*", "/videos/wwdc/*"]"##),
        url: "\(site)/videos/wwdc/2015/x",
        verdict: .match,
        rule: .init(detail: 0, component: 1)
    ),
    MatchCase(name: "M25 query is ignored", document: p(##"["/a"]"##), url: "\(site)/a?x=1#y", verdict: .match),
    MatchCase(name: "M25 paths are case-sensitive", document: p(##"["/A"]"##), url: "\(site)/a", verdict: .none),
    MatchCase(
        name: "M25 legacy details dictionary is matched",
        document: ##"{"applinks": {"apps": [], "details": {"A1B2C3D4E5.com.acme.app": {"paths": ["/wwdc/news/"]}}}}"##,
        url: "\(site)/wwdc/news",
        verdict: .match
    ),
]

@Suite("AASA matching, M1–M25")
struct MatchingTableTests {
    @Test(arguments: matchCases)
    func verdict(_ testCase: MatchCase) throws {
        let (document, _) = try AASADocument.parse(Array(testCase.document.utf8))
        let result = document.matcher(for: testCase.appID, domain: testCase.domain).evaluate(testCase.url)
        #expect(result.verdict == testCase.verdict, "\(result.why)")
        if let rule = testCase.rule {
            #expect(result.rule == rule)
        }
        #expect((result.rule == nil) == (result.verdict == .none))
    }

    @Test("every M row has at least one case")
    func coverage() {
        for row in 1...25 {
            #expect(matchCases.contains { $0.name.hasPrefix("M\(row) ") }, "no case for M\(row)")
        }
    }
}
