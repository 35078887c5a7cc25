import IPACheckFetching

/// Tells a machine without network from sites that are down: when every origin and Apple's CDN failed to resolve
/// or connect, the environment is at fault, and the run says so once instead of blaming every domain.
package struct NetworkUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// How many distinct hosts were asked (a host asked for several services or modes counts once).
    package let hosts: Int
    /// One failure, as an example of what happened.
    package let example: String

    /// `no network: none of 3 hosts nor Apple's CDN could be reached (example.com could not be resolved: …);
    /// check this machine's network, or run with --offline --aasa-dir DIR`.
    package var description: String {
        "no network: none of the \(hosts) host\(hosts == 1 ? "" : "s") nor Apple's CDN could be reached from this "
            + "machine (\(example)); check its network, DNS and proxy, or run with --offline --aasa-dir DIR"
    }

    /// Why the checks of the hosts' files did not run, for a report's "not checked" list.
    package var notCheckedReason: String {
        "no network (none of the \(hosts) host\(hosts == 1 ? "" : "s") nor Apple's CDN could be reached)"
    }

    /// The verdict on a run's fetches: `nil` when anything was reached (or the CDN was never asked, so a site's
    /// failure cannot be told from the machine's).
    package static func diagnose(_ results: [AASASiteResult]) -> NetworkUnavailable? {
        guard !results.isEmpty else { return nil }
        var example: String?
        var cdnAsked = false
        for result in results {
            guard let origin = result.report.origin else { return nil }
            guard let failure = origin.failure, isEnvironmental(failure.kind) else { return nil }
            // The fetcher's details name the host (`connection refused by example.com:443: …`); say it once.
            let host = result.report.fetchHost
            example = example ?? (failure.detail.contains(host) ? failure.detail : "\(host): \(failure.detail)")
            if let cdn = result.report.cdn {
                cdnAsked = true
                guard let cdnFailure = cdn.failure, isEnvironmental(cdnFailure.kind) else { return nil }
            }
        }
        guard cdnAsked, let example else { return nil }
        return NetworkUnavailable(hosts: Set(results.map(\.report.fetchHost)).count, example: example)
    }

    /// Failures that say nothing about the site when everything fails the same way.
    private static func isEnvironmental(_ kind: FetchFailure.Kind) -> Bool {
        switch kind {
        case .dnsFailure, .networkUnreachable, .connectionRefused: true
        default: false
        }
    }
}
