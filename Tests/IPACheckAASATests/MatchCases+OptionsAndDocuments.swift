import IPACheckAASA
import Testing

/// M12–M25: value types, fragments, options, defaults, variables and the document's shape.
let optionAndDocumentCases: [MatchCase] = [
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
