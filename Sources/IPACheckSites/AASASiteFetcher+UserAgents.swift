import Foundation
import IPACheckAASA
import IPACheckFetching
import IPACheckLinks
import IPACheckReport

/// The same URL with the other Apple user agent, an arbitrary one and a browser's, to expose blocking by user agent:
/// TN3155 (2025-05-15) asks that the server "accept all user agent requests", not an allow-list of Apple's.
///
/// One answer is one problem: the user agents that get the same answer (the same status, the same failure, the
/// same other document) are named together in one problem, and when the agent the file was fetched with is among
/// them, that problem also stands for the status problem of its answer (``UserAgentComparison/coversPrimaryStatus``).
/// An answer only the arbitrary agent gets is SERVE032: Apple's fetchers are served today, but the site breaks
/// TN3155's rule and the next change of Apple's agent breaks the links.
extension AASASiteFetcher {
    /// What asking with the other user agents showed.
    struct UserAgentComparison {
        /// Each other user agent's answer.
        var observations: [UserAgentObservation]
        /// One problem per distinct answer Apple's or the arbitrary user agent got that a browser did not.
        var problems: [SiteProblem]
        /// Whether a problem says that the primary agent's answer (not 200) is a block by user agent: the status
        /// problem for that same answer (SERVE001, SERVE003, SERVE004) would repeat it.
        var coversPrimaryStatus: Bool
    }

    /// How an Apple user agent's answer differs from the browser's 200; equal values are the same answer.
    private enum Difference: Hashable {
        case failed(detail: String)
        case status(Int, location: String?)
        case otherDocument(body: [UInt8])

        /// What the agents named before it got, for `"user agent 'X' " + text`.
        func text(agents count: Int, browserBytes: Int) -> String {
            let verb = count == 1 ? "gets" : "get"
            switch self {
            case .failed(let detail):
                return (count == 1 ? "fails" : "fail") + " (\(detail))"
            case .status(let status, let location?) where (300..<400).contains(status):
                return "\(verb) \(status), redirecting to \(location); Apple does not follow redirects"
            case .status(let status, _):
                return "\(verb) \(status): " + AASASiteFetcher.explain(status: status)
            case .otherDocument(let body):
                return "\(verb) a different document than a browser (\(body.count) vs \(browserBytes) bytes)"
            }
        }
    }

    func compareUserAgents(
        primaryAgent: String,
        primary: FetchResponse,
        url: URL,
        host: String,
        fetcher: any HTTPFetching
    ) async -> UserAgentComparison {
        let otherApple = primaryAgent == Self.cdnUserAgent ? Self.deviceUserAgent : Self.cdnUserAgent
        async let appleOutcome = fetcher.fetch(request(url, userAgent: otherApple))
        async let arbitraryOutcome = fetcher.fetch(request(url, userAgent: Self.arbitraryUserAgent))
        async let browserOutcome = fetcher.fetch(request(url, userAgent: Self.browserUserAgent))
        let apple = await appleOutcome
        let arbitrary = await arbitraryOutcome
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
            observe(otherApple, isApple: true, apple), observe(Self.arbitraryUserAgent, isApple: false, arbitrary),
            observe(Self.browserUserAgent, isApple: false, browser),
        ]
        guard case .response(let browserResponse) = browser, browserResponse.status == 200 else {
            return UserAgentComparison(observations: observations, problems: [], coversPrimaryStatus: false)
        }

        // The agents grouped by the answer they got, in the order they were asked.
        var differences: [Difference] = []
        var agents: [Difference: [String]] = [:]
        let asked = [
            (primaryAgent, FetchOutcome.response(primary)), (otherApple, apple), (Self.arbitraryUserAgent, arbitrary),
        ]
        for (agent, outcome) in asked {
            let difference: Difference
            switch outcome {
            case .failure(let failure):
                difference = .failed(detail: failure.detail)
            case .response(let response) where response.status != 200:
                difference = .status(response.status, location: response.header("Location"))
            case .response(let response):
                guard !AASABody.sameMeaning(response.body, browserResponse.body, now: options.now) else { continue }
                difference = .otherDocument(body: response.body)
            }
            if agents[difference] == nil { differences.append(difference) }
            agents[difference, default: []].append(agent)
        }

        var problems: [SiteProblem] = []
        var coversPrimaryStatus = false
        for difference in differences {
            let named = agents[difference] ?? []
            let who =
                named.count == 1
                ? "user agent '\(named.joined())'"
                : "user agents " + named.map { "'\($0)'" }.joined(separator: " and ")
            let text = difference.text(agents: named.count, browserBytes: browserResponse.body.count)
            if named == [Self.arbitraryUserAgent] {
                problems.append(
                    SiteProblem(
                        .arbitraryAgentRefused,
                        "\(url.absoluteString): a browser and Apple's fetchers get the file but \(who) " + text,
                        domain: host,
                        url: url.absoluteString
                    )
                )
                continue
            }
            switch difference {
            case .failed, .status:
                if case .status = difference, named.contains(primaryAgent) { coversPrimaryStatus = true }
                problems.append(
                    SiteProblem(
                        .userAgentBlocked,
                        "\(url.absoluteString): a browser gets 200 but \(who) " + text,
                        domain: host,
                        url: url.absoluteString
                    )
                )
            case .otherDocument:
                problems.append(
                    SiteProblem(
                        .userAgentBodyDiffers,
                        "\(url.absoluteString): \(who) " + text,
                        domain: host,
                        url: url.absoluteString
                    )
                )
            }
        }
        return UserAgentComparison(
            observations: observations,
            problems: problems,
            coversPrimaryStatus: coversPrimaryStatus
        )
    }
}
