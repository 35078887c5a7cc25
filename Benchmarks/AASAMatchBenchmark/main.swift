// Matches N sitemap-like URLs against a realistic AASA document and reports URLs/second for the compiled matcher,
// next to two baselines measured in the same run: (1) a naive translation of every pattern to NSRegularExpression
// with Foundation URL parsing, and (2) recompiling the document's patterns for every URL.
//
//     swift run -c release AASAMatchBenchmark [N] [--compiled-only]     (default N = 1,000,000)
//
// `--compiled-only` skips the baselines (for profiling the matcher alone).
//
// Performance claims about the matcher come from this program only; the tests never time anything.
import Foundation
import IPACheckAASA

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
let appID = "368M544MTT.com.chat.expensify.chat"

/// Expensify's components (corpus expensify-components.json) plus excludes, a query dictionary and a `?` wildcard.
let document = #"""
    {"applinks": {"details": [{"appIDs": ["368M544MTT.com.chat.expensify.chat"], "components": [
      {"/": "/r/*/admin/*", "exclude": true},
      {"/": "/settings/security/*", "exclude": true},
      {"/": "/r/*", "comment": "Reports"},
      {"/": "/settings/*"},
      {"/": "/setpassword/*"},
      {"/": "/details/*"},
      {"/": "/v/*"},
      {"/": "/bank-account/*"},
      {"/": "/iou/*"},
      {"/": "/enable-payments/*"},
      {"/": "/partners/plaid/oauth_ios"},
      {"/": "/statements/*"},
      {"/": "/concierge/*"},
      {"/": "/search/*", "?": {"q": "?*", "page": "*"}},
      {"/": "/id/????/*"}
    ]}]}}
    """#

/// Deterministic sitemap-like URLs: a mix of matching, excluded and unmatched paths, some with queries.
func makeURLs(_ n: Int) -> [String] {
    let sections = [
        "r", "settings", "setpassword", "details", "v", "bank-account", "iou", "enable-payments", "statements",
        "concierge", "search", "id", "blog", "about", "careers", "pricing", "partners/plaid",
    ]
    var urls: [String] = []
    urls.reserveCapacity(n)
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next() -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % 1_000_003)
    }
    for _ in 0..<n {
        let section = sections[next() % sections.count]
        var url = "https://new.expensify.com/\(section)/\(next())"
        switch next() % 8 {
        case 0: url += "/admin/\(next() % 100)"
        case 1: url += "?q=term\(next() % 50)&page=\(next() % 9)"
        case 2: url += "/oauth_ios"
        case 3: url += "/security/two-factor"
        default: break
        }
        urls.append(url)
    }
    return urls
}

/// The naive approach: each pattern translated to an anchored NSRegularExpression, URLs parsed with URLComponents.
struct RegexMatcher {
    struct Rule {
        var path: NSRegularExpression
        var query: [(String, NSRegularExpression)]
        var exclude: Bool
    }

    var rules: [Rule] = []

    init(_ document: AASADocument) throws {
        for rule in document.effectiveRules(for: appID) {
            var query: [(String, NSRegularExpression)] = []
            if case .items(let items)? = rule.query {
                for item in items { query.append((item.name, try Self.regex(item.pattern, parent: false))) }
            }
            rules.append(
                Rule(path: try Self.regex(rule.path ?? "*", parent: true), query: query, exclude: rule.exclude)
            )
        }
    }

    static func regex(_ pattern: String, parent: Bool) throws -> NSRegularExpression {
        var body = ""
        var text = Substring(pattern)
        var optionalTail = false
        if parent, text.hasSuffix("/*") {
            text = text.dropLast(2)
            optionalTail = true
        }
        for character in text {
            switch character {
            case "*": body += ".*"
            case "?": body += "."
            default: body += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        return try NSRegularExpression(
            pattern: "^" + body + (optionalTail ? "(/.*)?" : "") + "$",
            options: [.dotMatchesLineSeparators]
        )
    }

    static func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    func evaluate(_ url: String) -> AASAVerdict {
        guard let components = URLComponents(string: url) else { return .none }
        let path = components.percentEncodedPath.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let items = components.percentEncodedQueryItems ?? []
        for rule in rules {
            guard Self.matches(rule.path, path) else { continue }
            let queryHolds = rule.query.allSatisfy { name, regex in
                let values = items.filter { $0.name == name }.map { $0.value ?? "" }
                return values.isEmpty ? Self.matches(regex, "") : values.allSatisfy { Self.matches(regex, $0) }
            }
            if queryHolds { return rule.exclude ? .block : .match }
        }
        return .none
    }
}

func measure(
    _ label: String,
    urls: ArraySlice<String>,
    _ body: (String) -> AASAVerdict
) -> (rate: Double, verdicts: [AASAVerdict]) {
    var verdicts: [AASAVerdict] = []
    verdicts.reserveCapacity(urls.count)
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        for url in urls { verdicts.append(body(url)) }
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = Double(urls.count) / seconds
    let tally = Dictionary(grouping: verdicts, by: { $0 }).mapValues(\.count)
    print(
        "\(label): \(urls.count) URLs in \(String(format: "%.3f", seconds)) s = \(Int(rate)) URLs/s "
            + "(match \(tally[.match] ?? 0), block \(tally[.block] ?? 0), none \(tally[.none] ?? 0))"
    )
    return (rate, verdicts)
}

do {
    let parsed = try AASADocument.parse(Array(document.utf8))
    let urls = makeURLs(count)
    let sample = urls.prefix(max(1, min(count, 50_000)))
    print("AASA match benchmark: \(count) URLs, \(parsed.effectiveRules(for: appID).count) rules")

    let matcher = parsed.matcher(for: appID)
    let compiled = measure("compiled matcher, decide (verdict + rule)", urls: urls[...]) { matcher.decide($0).verdict }
    if CommandLine.arguments.contains("--compiled-only") { exit(0) }
    let explained = measure("compiled matcher, evaluate (with why text)", urls: urls[...]) {
        matcher.evaluate($0).verdict
    }
    let regex = try RegexMatcher(parsed)
    let naive = measure("baseline NSRegularExpression (first \(sample.count))", urls: sample) { regex.evaluate($0) }
    let recompiled = measure("baseline recompile per URL (first \(sample.count))", urls: sample) {
        parsed.matcher(for: appID).evaluate($0).verdict
    }

    let disagreements =
        zip(compiled.verdicts.prefix(sample.count), naive.verdicts).filter { $0 != $1 }.count
        + zip(compiled.verdicts, explained.verdicts).filter { $0 != $1 }.count
    print("verdicts differing (regex baseline on the sample, decide vs evaluate on all): \(disagreements)")
    print(String(format: "speed-up over NSRegularExpression baseline: %.1fx", compiled.rate / naive.rate))
    print(String(format: "speed-up over recompiling per URL: %.1fx", compiled.rate / recompiled.rate))
    print(String(format: "evaluate (with why) over NSRegularExpression baseline: %.1fx", explained.rate / naive.rate))
    if disagreements > 0 { exit(1) }
} catch {
    print("benchmark setup failed: \(error)")
    exit(2)
}
