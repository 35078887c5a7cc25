import Foundation
import IPACheckAASA
import IPACheckFuzzSupport
import IPACheckGate

/// apple-app-site-association files: the strict JSON parser and the document model (plain or CMS-signed), the
/// linter, and every app's compiled patterns matched against URLs, as `lint` and `match` run them.
///
/// Input: the file, then optionally a NUL byte and URLs to match, one per line. URLs built from the document's
/// own patterns and a few fixed ones are matched too, so plain AASA seeds reach the matcher's deep paths.
enum AASAHarness {
    /// A fixed clock, so that a signed file's certificate validity depends on the input alone.
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    /// Bounds on the work one input may ask for (the matcher's own cost per URL is what is being tested).
    static let maximumAppIDs = 8
    static let maximumURLs = 64

    static let fixedURLs = [
        "https://example.com/", "https://example.com/path/to/page?query=1&b=2#fragment",
        "https://example.com/%E2%9C%93/%2F?x=%00", "https://EXAMPLE.com:443/a/b/c/d/e/f/g/h?q#",
        "http://user@example.com/ünïcode", "example.com/no-scheme", "",
    ]

    static func run(_ bytes: [UInt8]) {
        let document = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let fileBytes = Array(document.first ?? [])
        let givenURLs = document.count > 1 ? String(decoding: document[1], as: UTF8.self).split(separator: "\n") : []
        guard let parsed = try? AASADocument.parse(fileBytes, now: now) else { return }
        _ = AASAFileReading.findings(of: parsed)
        _ = AASALinter.lint(parsed, domain: "example.com")
        _ = parsed.differences(to: parsed)

        var patternURLs: [String] = []
        for detail in parsed.applinks?.details.prefix(maximumAppIDs) ?? [] {
            for rule in detail.rules.prefix(maximumURLs) {
                let fields = rule.fields.overlaid(on: detail.defaults)
                patternURLs.append("https://example.com\(fields.path ?? "/")#\(fields.fragment ?? "")")
            }
        }
        let urls = Array((fixedURLs + patternURLs + givenURLs.map(String.init)).prefix(maximumURLs))
        let appIDs = parsed.applinks?.details.flatMap(\.appIDs).prefix(maximumAppIDs) ?? []
        for appID in appIDs {
            let matcher = parsed.matcher(for: appID, domain: "*.example.com")
            for url in urls {
                _ = matcher.evaluate(url)
                _ = matcher.explain(url)
            }
            for service in AASAService.allCases where service != .applinks {
                _ = parsed.matcher(for: appID, service: service).evaluate(fixedURLs[0])
            }
            _ = parsed.effectiveRules(for: appID)
        }
        for url in urls { _ = try? LinkURL.universalLink(url) }
    }
}

/// Fuzzes with libFuzzer in a fuzz build, replays the files named on the command line otherwise.
@main
enum Main {
    static func main() { FuzzMain.run(AASAHarness.run) }
}
