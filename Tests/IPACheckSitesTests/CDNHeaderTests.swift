import Foundation
import IPACheckReport
import Testing

@testable import IPACheckFetching
@testable import IPACheckSites

/// Apple's CDN cache headers come from a server, so any value may arrive: extreme, negative or malformed ones are
/// decoded without trapping, as RFC 9111 §1.2.2 reads `delta-seconds`.
@Suite struct CDNHeaderTests {
    private static let url = "https://app-site-association.cdn-apple.com/a/v1/example.com"

    private func observe(cacheControl: String?, age: String?) -> CDNObservation {
        var headers: [HTTPHeaderField] = []
        if let cacheControl { headers.append(HTTPHeaderField("Cache-Control", cacheControl)) }
        if let age { headers.append(HTTPHeaderField("Age", age)) }
        return CDNObservation(url: Self.url, outcome: .response(FetchResponse(status: 404, headers: headers, body: [])))
    }

    @Test(
        "Extreme and malformed max-age and Age values decode without trapping",
        arguments: [
            ("max-age=\(Int.max)", "-1"),
            ("max-age=\(Int.max)", "-\(Int.max)"),
            ("max-age=\(Int.max)", "\(Int.min)"),
            ("max-age=9223372036854775808", "0"),
            ("max-age=\(String(repeating: "9", count: 10_000))", String(repeating: "9", count: 10_000)),
            ("max-age=-\(Int.max)", "\(Int.max)"),
            ("max-age=\(Int.min)", "\(Int.max)"),
            ("max-age=+3600", "+60"),
            ("max-age=1e9", "0x10"),
            ("max-age=", ""),
            ("max-age=\"\"", " "),
            ("max-age=٣٦٠٠", "٦٠"),
        ]
    )
    func extremeValuesDoNotTrap(cacheControl: String, age: String) {
        let observation = observe(cacheControl: cacheControl, age: age)
        for value in [observation.maxAgeSeconds, observation.ageSeconds, observation.freshForSeconds] {
            if let value { #expect((0...CDNObservation.deltaSecondsCeiling).contains(value)) }
        }
        _ = observation.summary
    }

    @Test func valuesBeyondTheCeilingCountAsTheCeiling() {
        let observation = observe(cacheControl: "public, max-age=\(Int.max)", age: "99999999999999999999999")
        #expect(observation.maxAgeSeconds == CDNObservation.deltaSecondsCeiling)
        #expect(observation.ageSeconds == CDNObservation.deltaSecondsCeiling)
        #expect(observation.freshForSeconds == 0)
    }

    @Test func aNegativeAgeIsNoAge() {
        let observation = observe(cacheControl: "max-age=3600", age: "-60")
        #expect(observation.maxAgeSeconds == 3600)
        #expect(observation.ageSeconds == nil)
        #expect(observation.freshForSeconds == 3600)
    }

    @Test func signsFractionsAndOtherDigitsAreNoValue() {
        for value in ["+60", "-0", "1.5", "1e3", " ", "", "٦٠", "60s"] {
            #expect(CDNObservation.deltaSeconds(value) == nil, "\(value)")
        }
        #expect(CDNObservation.deltaSeconds(" 60 ") == 60)
        #expect(CDNObservation.deltaSeconds("0") == 0)
        #expect(CDNObservation.maxAge("max-age=\"21600\", public") == 21600)
    }

    @Test func ordinaryValuesKeepTheirMeaning() {
        let observation = observe(cacheControl: "max-age=21600,public", age: "600")
        #expect(observation.maxAgeSeconds == 21600)
        #expect(observation.ageSeconds == 600)
        #expect(observation.freshForSeconds == 21000)
        #expect(observation.summary.contains("cached for 21600 s, 600 s old"))
    }
}

/// `aasa`'s text names each user agent asked without cutting a word ("…AppleWebKit/605.1" mid-token).
struct UserAgentTextTests {
    @Test func aLongAgentIsCutAtAWordsEnd() {
        let browser = AASASiteFetcher.browserUserAgent
        let shown = AASASiteReport.shortened(browser)
        #expect(shown == "Mozilla/5.0 (Macintosh; Intel Mac OS X …")
        #expect(browser.hasPrefix(String(shown.dropLast(2))))
        #expect(AASASiteReport.shortened(AASASiteFetcher.arbitraryUserAgent) == "MyAgent-Bot/1.0")
        #expect(AASASiteReport.shortened(String(repeating: "x", count: 50)) == String(repeating: "x", count: 40) + " …")
    }
}
