package import IPACheckFetching
package import IPACheckReport
package import IPACheckSites

extension SiteProblem {
    /// The rule this problem breaks: a serving rule, or a CDN rule.
    package var rule: Rule {
        switch kind {
        case .notFound: ServingRules.rules.notFound
        case .rootOnly: ServingRules.rules.rootOnly
        case .redirect: ServingRules.rules.redirect
        case .badStatus: ServingRules.rules.badStatus
        case .tls: ServingRules.rules.tls
        case .timeout: ServingRules.rules.timeout
        case .unreachable: ServingRules.rules.unreachable
        case .oldTLS: ServingRules.rules.oldTLS
        case .htmlContentType: ServingRules.rules.htmlContentType
        case .looseContentType: ServingRules.rules.looseContentType
        case .signedMismatch: ServingRules.rules.signedMismatch
        case .tooLarge: ServingRules.rules.tooLarge
        case .compressed: ServingRules.rules.compressed
        case .exceedsFetchLimit: ServingRules.rules.exceedsFetchLimit
        case .brokenAnswer: ServingRules.rules.brokenAnswer
        case .userAgentBlocked: ServingRules.rules.userAgentBlocked
        case .arbitraryAgentRefused: ServingRules.rules.arbitraryAgentRefused
        case .userAgentBodyDiffers: ServingRules.rules.userAgentBodyDiffers
        case .slow: ServingRules.rules.slow
        case .notJSON: ServingRules.rules.notJSON
        case .offlineMissing: ServingRules.rules.offlineMissing
        case .invalidHost: ServingRules.rules.invalidHost
        case .developerModeTLS: ServingRules.rules.developerModeTLS
        case .noCopy: CDNRules.rules.noCopy
        case .stale: CDNRules.rules.stale
        case .current: CDNRules.rules.current
        case .unavailable: CDNRules.rules.unavailable
        case .skippedForMode: CDNRules.rules.skippedForMode
        case .servingDespiteOriginFailure: CDNRules.rules.servingDespiteOriginFailure
        case .fetchedElsewhere: CDNRules.rules.fetchedElsewhere
        }
    }

    /// The problem as a finding of its rule.
    package var finding: Finding {
        rule.finding(message, domain: domain, url: url, location: location, fix: fix)
    }
}

extension AASASiteFetcher {
    /// Fetches every target's files and judges what was found: each report's findings are its problems as the
    /// serving and CDN rules judge them, worst first.
    package func checkAndJudge(_ targets: [AASAFetchTarget]) async -> [AASASiteResult] {
        await check(targets).map { result in
            var judged = result
            judged.report.findings = result.report.problems.map(\.finding).sorted()
            return judged
        }
    }

    /// Records which serving and CDN rules a run with `options` carries out, and why the others are not.
    package static func recordCoverage(options: FetchOptions, into coverage: inout RuleCoverage) {
        if options.isOffline {
            coverage.ran(ServingRules.offline)
            coverage.skip(
                ServingRules.rules.all,
                because: "offline (--offline): files were read from --aasa-dir, so how each host serves its file "
                    + "was not checked"
            )
            coverage.skip(CDNRules.rules.all, because: "offline (--offline): Apple's CDN was not asked")
            return
        }
        coverage.ran(ServingRules.rules.all.filter { $0 != ServingRules.rules.offlineMissing })
        coverage.skip([ServingRules.rules.offlineMissing], because: "only with --offline")
        if options.skipCDN {
            coverage.skip(CDNRules.rules.all, because: "--no-cdn: Apple's CDN was not asked")
        } else {
            coverage.ran(CDNRules.rules.all)
        }
    }
}
