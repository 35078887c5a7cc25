/// What an entry's `Error` means, in words a developer can act on, with where that is known from.
///
/// The codes are those a device records after a failed check of the site's file (docs/device.md, "Errors").
/// A code not listed is said to be unknown rather than guessed.
package struct SwcutilErrorMeaning: Sendable, Equatable {
    /// What happened, in words.
    package let words: String
    /// Where this reading comes from (a page of docs/device.md and its source).
    package let source: String

    /// The meaning of `error` on an entry for `host`; an unknown code says it is unknown.
    package init(_ error: SwcutilError, host: String) {
        let cdn = " (docs/device.md, \"Errors\": CDN failure reasons recorded from Apple's CDN)"
        if let reason = error.cdnReason {
            if reason.hasPrefix("SWCERR00101") {
                let status = error.httpStatus.map { " (HTTP \($0))" } ?? ""
                words =
                    "Apple's CDN could not get the file from the site\(status): \(reason). "
                    + (error.httpStatus == 404
                        ? "It is missing at https://\(host)/.well-known/apple-app-site-association."
                        : "The site refused Apple's crawler (a firewall, geo or bot rule, a user-agent filter); "
                            + "TN3155 asks sites to accept all IP addresses and user agents.")
                source = "SWCERR00101" + cdn
                return
            }
            if reason.hasPrefix("SWCERR00202") {
                words =
                    "Apple's CDN will not fetch from this host: it resolves to a private or reserved address "
                    + "(\(reason)). Internal test hosts need `?mode=developer` on a development build."
                source = "SWCERR00202" + cdn
                return
            }
            if reason.hasPrefix("SWCERR00301") {
                words =
                    "Apple's CDN timed out fetching the file from the site (\(reason)): the site was too slow or "
                    + "unreachable from Apple's network."
                source = "SWCERR00301" + cdn
                return
            }
        }
        switch (error.domain, error.code) {
        case ("SWCErrorDomain", 7):
            words =
                "Apple's CDN refused to serve the file"
                + (error.httpStatus.map { " (HTTP \($0))" } ?? "")
                + "; the CDN's Apple-Failure-Reason header (`ipacheck aasa \(host)` shows it) says why."
            source =
                "SWCErrorDomain 7 (docs/device.md, \"Errors\": recorded swcutil dl output, forum threads 835728, 821908)"
        case ("HTTP", let status?):
            words =
                "the site answered HTTP \(status) to the device itself (the direct route of `?mode=developer` or "
                + "`managed`, which skips Apple's CDN): an intranet, VPN or login wall in the way?"
            source = "HTTP status on the direct route (docs/device.md, \"Errors\")"
        case ("NSCocoaErrorDomain", 3840):
            words =
                "the file the device got is not JSON (an HTML page, an empty body, a login page, a byte-order mark)"
            source = "NSCocoaErrorDomain 3840 (docs/device.md, \"Errors\": Stripe's recorded entry)"
        case ("SWCErrorDomain", 104):
            words = "the file could not be read as an apple-app-site-association document (not valid AASA JSON)"
            source = "SWCErrorDomain 104 (docs/device.md, \"Errors\")"
        case ("NSURLErrorDomain", -1103):
            words = "the file is larger than 128 KB (131,072 bytes), the most a device downloads"
            source = "NSURLErrorDomain -1103 (docs/device.md, \"Errors\"; Apple's Associated Domains page)"
        case ("NSURLErrorDomain", -1001):
            words = "the device's request timed out"
            source = "NSURLErrorDomain -1001, NSURLErrorTimedOut (Apple's URL Loading System error codes)"
        case ("NSURLErrorDomain", -1003):
            words = "the device could not find the host (DNS)"
            source = "NSURLErrorDomain -1003, NSURLErrorCannotFindHost (Apple's URL Loading System error codes)"
        case ("NSURLErrorDomain", -1200):
            words = "the TLS connection failed"
            source = "NSURLErrorDomain -1200, NSURLErrorSecureConnectionFailed (Apple's URL Loading System error codes)"
        case ("NSURLErrorDomain", -1202):
            words =
                "the site's certificate is not trusted (a self-signed certificate works only on the direct route of "
                + "developer mode)"
            source =
                "NSURLErrorDomain -1202, NSURLErrorServerCertificateUntrusted (Apple's URL Loading System error codes)"
        case ("SWCErrorDomain", -1):
            words = "a generic failure, or the device gave up after its retries"
            source = "SWCErrorDomain -1 (docs/device.md, \"Errors\")"
        default:
            words = "an error ipacheck has no documented meaning for: read it as printed"
            source = "unknown (docs/device.md lists the codes with a source)"
        }
    }
}
