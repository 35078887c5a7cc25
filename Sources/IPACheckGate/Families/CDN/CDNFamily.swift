package import IPACheckReport
import IPACheckSites

extension RuleFamily {
    /// CDN: Apple's CDN copy of a host's file, and how it differs from the host's own.
    package static let cdn = RuleFamily("CDN", sets: [CDNRules.rules])
}
