import IPACheckFetching
import IPACheckLinks
import IPACheckReport

/// The problems about how the connection itself went: transport failures, each blamed on what was observed, and
/// the TLS version.
extension AASASiteFetcher {
    /// The problem for a request that got no usable answer, with advice for what was observed (DNS is blamed
    /// only when the name did not resolve).
    func transportProblem(_ failure: FetchFailure, target: AASAFetchTarget, url: String) -> SiteProblem {
        let host = target.fetchHost
        switch failure.kind {
        case .tlsUntrusted, .tlsHostnameMismatch, .tlsExpired, .tlsHandshake:
            let what =
                switch failure.kind {
                case .tlsUntrusted: "the certificate chain is not trusted"
                case .tlsHostnameMismatch: "the certificate does not name \(host)"
                case .tlsExpired: "the certificate has expired or is not yet valid"
                default: "the TLS handshake fails"
                }
            if target.mode == .developer || target.mode == .developerAndManaged {
                return SiteProblem(
                    .developerModeTLS,
                    "\(url): \(what) (\(failure.detail)); devices in developer mode accept any certificate, "
                        + "but ipacheck could not read the file",
                    domain: host,
                    url: url
                )
            }
            return SiteProblem(.tls, "\(url): \(what) (\(failure.detail))", domain: host, url: url)
        case .timeout:
            return SiteProblem(
                .timeout,
                "\(url) did not answer within \(Self.format(options.timeout.seconds)) s (\(failure.detail))",
                domain: host,
                url: url
            )
        case .tooLarge:
            return SiteProblem(.exceedsFetchLimit, "\(url): \(failure.detail)", domain: host, url: url)
        case .invalidRequest:
            return SiteProblem(.invalidHost, "\(url): \(failure.detail)", domain: host, url: url)
        case .dnsFailure:
            return SiteProblem(
                .unreachable,
                "\(host) could not be resolved from this machine (\(failure.detail))",
                domain: host,
                url: url,
                fix: "Check the host's DNS records (A or AAAA) from the internet; if the name resolves elsewhere, "
                    + "check this machine's DNS and proxy."
            )
        case .networkUnreachable:
            return SiteProblem(
                .unreachable,
                "\(url) could not be reached from this machine: \(failure.detail)",
                domain: host,
                url: url,
                fix: "Check this machine's network, routes and proxy; the host itself may be fine."
            )
        case .connectionRefused:
            return SiteProblem(
                .unreachable,
                "\(url): the connection is refused (\(failure.detail))",
                domain: host,
                url: url,
                fix: "Make an HTTPS server listen on port 443 for this host, reachable from the internet (check "
                    + "firewalls and security groups)."
            )
        case .connectionReset, .truncatedBody, .oversizeHeaders, .malformedResponse:
            return SiteProblem(
                .brokenAnswer,
                "\(url): \(failure.kind.summary): \(failure.detail)",
                domain: host,
                url: url
            )
        case .offline, .other:
            return SiteProblem(.unreachable, "\(url): \(failure.detail)", domain: host, url: url)
        }
    }

    /// SERVE009 when the answer came over TLS older than 1.2.
    func tlsVersionProblem(_ response: FetchResponse, host: String, url: String) -> SiteProblem? {
        guard let version = response.tlsVersion, version < .tlsv12 else { return nil }
        return SiteProblem(
            .oldTLS,
            "\(url) was served over \(version.rawValue); Apple requires TLS 1.2 or later",
            domain: host,
            url: url
        )
    }
}
