import Foundation
import IPACheckAASA
import IPACheckFetching
import IPACheckLinks
import IPACheckReport

/// The same URL with the other Apple user agent and a browser's, to expose blocking by user agent.
extension AASASiteFetcher {
    func compareUserAgents(
        primaryAgent: String,
        primary: FetchResponse,
        url: URL,
        host: String,
        fetcher: any HTTPFetching
    ) async -> (observations: [UserAgentObservation], findings: [Finding]) {
        let otherApple = primaryAgent == Self.cdnUserAgent ? Self.deviceUserAgent : Self.cdnUserAgent
        async let appleOutcome = fetcher.fetch(request(url, userAgent: otherApple))
        async let browserOutcome = fetcher.fetch(request(url, userAgent: Self.browserUserAgent))
        let apple = await appleOutcome
        let browser = await browserOutcome

        func observe(_ agent: String, isApple: Bool, _ outcome: FetchOutcome) -> UserAgentObservation {
            switch outcome {
            case .response(let response):
                UserAgentObservation(
                    userAgent: agent,
                    isApple: isApple,
                    status: response.status,
                    bodyBytes: response.body.count
                )
            case .failure(let failure):
                UserAgentObservation(userAgent: agent, isApple: isApple, failure: failure)
            }
        }
        let observations = [
            observe(otherApple, isApple: true, apple), observe(Self.browserUserAgent, isApple: false, browser),
        ]
        guard case .response(let browserResponse) = browser, browserResponse.status == 200 else {
            return (observations, [])
        }
        var findings: [Finding] = []
        for (agent, outcome) in [(primaryAgent, FetchOutcome.response(primary)), (otherApple, apple)] {
            switch outcome {
            case .failure(let failure):
                findings.append(
                    ServingRules.rules.userAgentBlocked.finding(
                        "\(url.absoluteString): a browser gets 200 but user agent '\(agent)' fails "
                            + "(\(failure.detail))",
                        domain: host,
                        url: url.absoluteString
                    )
                )
            case .response(let response) where response.status != 200:
                findings.append(
                    ServingRules.rules.userAgentBlocked.finding(
                        "\(url.absoluteString): a browser gets 200 but user agent '\(agent)' gets \(response.status)",
                        domain: host,
                        url: url.absoluteString
                    )
                )
            case .response(let response):
                if !AASABody.sameMeaning(response.body, browserResponse.body) {
                    findings.append(
                        ServingRules.rules.userAgentBodyDiffers.finding(
                            "\(url.absoluteString): user agent '\(agent)' gets a different document than a browser "
                                + "(\(response.body.count) vs \(browserResponse.body.count) bytes)",
                            domain: host,
                            url: url.absoluteString
                        )
                    )
                }
            }
        }
        return (observations, findings)
    }
}
