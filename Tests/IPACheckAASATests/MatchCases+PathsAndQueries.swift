import IPACheckAASA
import Testing

/// M1–M11: rule order, components, wildcards, slashes and queries.
let pathAndQueryCases: [MatchCase] = [
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
]
