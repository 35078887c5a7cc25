package import IPACheckReport

/// The `SERVE` rules: how the origin serves `/.well-known/apple-app-site-association` (Apple's "Supporting associated domains" and TN3155).
package enum ServingRules {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .hostFiles }

        /// The set, its rules as declared below.
        package init() {}

        /// How the host serves its file.
        package var linkPath: LinkPathPlace { .hostFile }

        /// The file is missing: 404/410 at `.well-known` and at the root.
        package let notFound = Rule(
            "SERVE001",
            .error,
            "AASA file not found",
            summary:
                "Neither /.well-known/apple-app-site-association nor /apple-app-site-association returns the file, "
                + "so Apple's CDN has nothing to give devices and no associated domain works for this host.",
            fix: "Publish the file (no extension) at https://HOST/.well-known/apple-app-site-association. Static site "
                + "generators and upload actions often drop dot-folders: check that .well-known is deployed.",
            needs: [.liveHost]
        )

        /// The file is served only at the legacy root path.
        package let rootOnly = Rule(
            "SERVE002",
            .warning,
            "AASA file served only at the root path",
            summary: "The file is at /apple-app-site-association but not at /.well-known/. Apple documents only the "
                + ".well-known location today; whether the CDN still falls back to the root is disputed.",
            fix: "Serve the same file at https://HOST/.well-known/apple-app-site-association.",
            needs: [.liveHost]
        )

        /// The AASA URL answers with a redirect.
        package let redirect = Rule(
            "SERVE003",
            .error,
            "AASA URL redirects",
            summary: "Apple's fetchers never follow redirects for the AASA file (TN3155): a 3xx means no association, "
                + "even when the target serves a good file.",
            fix: "Serve the file directly with status 200 on this exact host: exempt /.well-known/ from apex↔www, "
                + "http→https and trailing-slash rewrites.",
            needs: [.liveHost]
        )

        /// The AASA URL answers with a status other than 200, 3xx or 404.
        package let badStatus = Rule(
            "SERVE004",
            .error,
            "AASA URL does not answer 200",
            summary: "Apple's CDN accepts only status 200; anything else is cached as a failure "
                + "(SWCERR00101 Bad HTTP Response) for up to an hour or more.",
            fix: "Make https://HOST/.well-known/apple-app-site-association return 200 to every client, from every "
                + "country and IP range (Apple does not publish its fetchers' addresses).",
            needs: [.liveHost]
        )

        /// The TLS handshake fails: untrusted chain, wrong host name, expired certificate.
        package let tls = Rule(
            "SERVE005",
            .error,
            "TLS certificate not accepted",
            summary: "The AASA file must be served over HTTPS with a certificate the system trusts, valid now and "
                + "naming this host; otherwise Apple's fetchers refuse the connection.",
            fix:
                "Install a publicly trusted certificate whose names cover this host, with the full intermediate chain.",
            needs: [.liveHost]
        )

        /// The request timed out.
        package let timeout = Rule(
            "SERVE006",
            .error,
            "AASA request timed out",
            summary: "The origin did not answer within the timeout. Apple's CDN gives up after about 5 seconds and "
                + "caches the failure (SWCERR00301 Timeout) for 30–60 minutes.",
            fix: "Serve the file as a static asset from a fast path (no application server, no cold start), and "
                + "check that the host answers from outside your network.",
            needs: [.liveHost]
        )

        /// The host could not be reached (DNS, refused, no route).
        package let unreachable = Rule(
            "SERVE007",
            .error,
            "host unreachable",
            summary: "From the machine ipacheck ran on, the host name did not resolve, nothing accepted connections on "
                + "its HTTPS port, or its network could not be reached. When Apple's CDN was reached in the same run, the "
                + "problem is the host's, and the CDN's own answer (CDN findings) says whether it could fetch the file.",
            fix: "Follow the advice for the observed failure: DNS records for a name that does not resolve, an HTTPS "
                + "server on port 443 for a refused connection, this machine's network and proxy for no route.",
            needs: [.liveHost]
        )

        /// The server's TLS is older than 1.2.
        package let oldTLS = Rule(
            "SERVE009",
            .warning,
            "TLS older than 1.2",
            summary: "The server negotiated TLS 1.0 or 1.1 although ipacheck offered up to TLS 1.3, so it offers "
                + "nothing newer. App Transport Security, Apple's baseline for HTTPS connections, requires TLS 1.2 or "
                + "later, so Apple's fetchers may refuse a connection that ipacheck accepted in order to read the file.",
            fix: "Enable TLS 1.2 and 1.3 on the server, and on any load balancer or CDN in front of it.",
            needs: [.liveHost]
        )

        /// The file is served as HTML.
        package let htmlContentType = Rule(
            "SERVE010",
            .error,
            "AASA served as text/html",
            summary: "A text/html response almost always means a single-page-app fallback or an error page was served "
                + "instead of the file.",
            fix: "Serve the file itself with Content-Type: application/json (e.g. nginx: "
                + "`location = /.well-known/apple-app-site-association { default_type application/json; }`).",
            needs: [.liveHost]
        )

        /// The file is served with a lenient but not recommended Content-Type.
        package let looseContentType = Rule(
            "SERVE011",
            .warning,
            "AASA not served as application/json",
            summary: "Apple's CDN currently accepts application/octet-stream, text/plain or a missing Content-Type, "
                + "but Apple's documentation asks for application/json and older clients required it.",
            fix: "Serve the file with Content-Type: application/json.",
            needs: [.liveHost]
        )

        /// `application/pkcs7-mime` without a CMS body.
        package let signedMismatch = Rule(
            "SERVE012",
            .error,
            "pkcs7-mime Content-Type without a signed body",
            summary: "application/pkcs7-mime announces a CMS-signed file (iOS 8), but the body is not CMS.",
            fix: "Serve the JSON file with Content-Type: application/json; signing has been unnecessary since iOS 9.",
            needs: [.liveHost]
        )

        /// The decompressed file is larger than 128 KB.
        package let tooLarge = Rule(
            "SERVE020",
            .error,
            "AASA larger than 128 KB",
            summary: "Since iOS 9.3.1 the uncompressed file must be no greater than 128 KB (131072 bytes) (archived "
                + "App Search Programming Guide); larger files are ignored. The same limit is AASA010 when `lint` "
                + "reads the file; a served file reports it here only.",
            fix: "Shrink the file: merge paths with wildcards or components, drop apps that no longer ship, and remove "
                + "whitespace."
        )

        /// The body is compressed on the wire.
        package let compressed = Rule(
            "SERVE021",
            .note,
            "AASA served compressed",
            summary: "The server compressed the file (Content-Encoding); the 128 KB limit applies to the decompressed "
                + "size, which is what ipacheck measured.",
            fix: "Nothing to do if the decompressed size is within 128 KB.",
            needs: [.liveHost]
        )

        /// The body exceeds the fetch cap, so the file could not be read whole.
        package let exceedsFetchLimit = Rule(
            "SERVE022",
            .error,
            "AASA body exceeds the fetch limit",
            summary: "The server sent more bytes than ipacheck reads (reading stopped at the cap); the file is far "
                + "beyond Apple's 128 KB limit or the server streams without end.",
            fix: "Serve the AASA file itself (a static file under 128 KB), not a stream or a large page."
        )

        /// The server answered, but its answer is broken: reset, cut short, flooded with headers or not HTTP.
        package let brokenAnswer = Rule(
            "SERVE023",
            .error,
            "broken HTTP answer",
            summary: "The host accepted the connection, but its answer could not be read: the connection was reset or "
                + "closed before the answer was complete, the body was shorter than its Content-Length, the headers "
                + "were a flood, or the bytes were not valid HTTP/1.1. The file could not be checked, and Apple's fetchers "
                + "get the same broken answer.",
            fix:
                "Fetch the URL with `curl -v` to see the raw answer, then fix the server, proxy or WAF that produces it; "
                + "serve the file as a plain static asset.",
            needs: [.liveHost]
        )

        /// Apple's user agents get a different answer from a browser's.
        package let userAgentBlocked = Rule(
            "SERVE030",
            .error,
            "Apple's fetchers are blocked",
            summary: "The server answers Apple's user agents (AASA-Bot for the CDN, CFNetwork/swcd for devices) "
                + "differently from a browser: a WAF or bot protection blocks them, and the CDN then reports "
                + "SWCERR00101 Bad HTTP Response: 403 Forbidden.",
            fix: "Serve /.well-known/apple-app-site-association to every user agent, from any IP address: TN3155 asks "
                + "that the server \"accept all user agent requests\" (an allow-list of Apple's agents breaks when "
                + "they change). Exempt the path from WAF, bot-fight and challenge rules; verify with "
                + "curl -A \"MyAgent-Bot/1.0\" https://HOST/.well-known/apple-app-site-association.",
            needs: [.liveHost]
        )

        /// An agent no allow-list names is refused while Apple's get the file.
        package let arbitraryAgentRefused = Rule(
            "SERVE032",
            .warning,
            "AASA refused to other user agents",
            summary: "The server gives the file to a browser and to Apple's fetchers but refuses an arbitrary user "
                + "agent: an allow-list by user agent. TN3155 (2025-05-15): \"your server should accept all user "
                + "agent requests\"; Apple's fetchers work today and stop when their agent string changes.",
            fix: "Remove the user-agent allow-list for /.well-known/apple-app-site-association and serve it to every "
                + "client; verify with curl -A \"MyAgent-Bot/1.0\" https://HOST/.well-known/apple-app-site-association.",
            needs: [.liveHost]
        )

        /// Apple's user agents get a different body than a browser.
        package let userAgentBodyDiffers = Rule(
            "SERVE031",
            .warning,
            "AASA differs by user agent",
            summary: "The same URL returns a different document to Apple's user agents than to a browser, so what you "
                + "see in a browser is not what Apple gets.",
            fix: "Serve one static file to every client; remove user-agent based rewriting for this path.",
            needs: [.liveHost]
        )

        /// The origin answered, but slower than Apple's CDN waits.
        package let slow = Rule(
            "SERVE040",
            .warning,
            "AASA served slowly",
            summary: "The origin took longer than about 5 seconds, the CDN's observed fetch timeout; the CDN would "
                + "record SWCERR00301 Timeout and cache that failure.",
            fix: "Serve the file as a static asset close to the edge.",
            needs: [.liveHost]
        )

        /// The body is not a JSON object (nor a CMS-signed one).
        package let notJSON = Rule(
            "SERVE050",
            .error,
            "AASA body is not a JSON object",
            summary: "The 200 response does not parse as a JSON object (and is not CMS-signed), so Apple rejects it "
                + "(SWCERR00301 Bad JSON).",
            fix: "Serve valid JSON whose root is an object; run `ipacheck lint` on the file for the exact position."
        )

        /// The offline folder has no file for this host.
        package let offlineMissing = Rule(
            "SERVE060",
            .error,
            "no offline AASA for this host",
            summary: "In offline mode the file is read from DIR/HOST/apple-app-site-association, and it is absent or "
                + "unreadable.",
            fix: "Save the host's file at DIR/HOST/apple-app-site-association, or run without --offline."
        )

        /// The host name cannot be fetched at all.
        package let invalidHost = Rule(
            "SERVE061",
            .error,
            "not a fetchable host name",
            summary: "The associated-domain host is empty or contains characters that cannot appear in a URL host.",
            fix: "Use a fully qualified domain name without scheme, port, path or query."
        )

        /// A developer-mode host's certificate is not accepted here, which developer-mode devices tolerate.
        package let developerModeTLS = Rule(
            "SERVE008",
            .warning,
            "TLS certificate not accepted (developer mode)",
            summary: "The host is claimed with ?mode=developer, where devices accept any certificate, but ipacheck "
                + "verifies certificates and so could not read the file to check it.",
            fix: "Pass the test CA with --ca-file, or serve a certificate the system trusts.",
            needs: [.liveHost]
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// The rules judged on a file read from `--aasa-dir` (the others need the host itself).
    package static let offline = rules.all.filter { !$0.needs.contains(.liveHost) }

}
