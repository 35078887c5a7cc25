package import IPACheckReport
import IPACheckSites

extension RuleFamily {
    /// SERVE: How a host serves its apple-app-site-association file: HTTPS, status, redirects, content type, user agents.
    package static let serving = RuleFamily("SERVE", sets: [ServingRules.rules])
}
