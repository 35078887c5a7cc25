import Foundation

/// Recognises hosts that cannot be anyone's real associated domain.
package enum PlaceholderHost {
    /// Words sample projects put where the real domain belongs.
    static let placeholderWords = ["your-domain", "yourdomain", "your_domain", "domain-here", "your-site", "yoursite"]

    /// Why `host` is a placeholder, reserved or not fully qualified (a phrase after "… is"); `nil` if it may be real.
    ///
    /// `localhost` and `.local` names under `?mode=developer` are left alone: they are development entries. So
    /// are hosts under the reserved test TLDs (`.example`, `.test`, `.invalid`): only fixtures and samples use
    /// them, and a shipped app with one fails the AASA checks anyway.
    package static func reason(_ host: String, mode: AssociatedDomain.Mode?) -> String? {
        let reservedTLD = ["example", "test", "invalid"].contains { host.lowercased().hasSuffix("." + $0) }
        guard !reservedTLD else { return nil }
        return rawReason(host, mode: mode)
    }

    private static func rawReason(_ host: String, mode: AssociatedDomain.Mode?) -> String? {
        let host = host.lowercased()
        if let word = placeholderWords.first(where: { host.contains($0) }) {
            return "is a sample placeholder (\"\(word)\"), not a real domain"
        }
        let developer = mode?.requiresDevelopmentSigning == true
        if developer && (host == "localhost" || host.hasSuffix(".local")) { return nil }
        for reserved in ["example.com", "example.net", "example.org"]
        where host == reserved || host.hasSuffix("." + reserved) {
            return "is under \(reserved), a domain reserved for documentation (RFC 2606)"
        }
        for suffix in ["localhost"] where host == suffix || host.hasSuffix("." + suffix) {
            return "is a loopback name (RFC 6761), which never serves an AASA to other devices"
        }
        if !host.contains(".") {
            return "is not a fully qualified domain name"
        }
        return nil
    }
}
