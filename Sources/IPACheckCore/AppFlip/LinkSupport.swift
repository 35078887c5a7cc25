import Foundation
import IPACheckReport

/// Plain substring search over a binary's bytes, for the string heuristics.
///
/// Swift stores string literals of up to 15 UTF-8 bytes inline in instructions, so only longer literals (and every
/// Objective-C literal) are found; callers use absence of a short string only where that errs on the quiet side.
enum ByteSearch {
    /// Whether `needle`'s UTF-8 bytes occur contiguously in `haystack`.
    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first, haystack.count >= pattern.count else { return pattern.isEmpty }
        let lastStart = haystack.count - pattern.count
        var index = 0
        while index <= lastStart {
            guard let found = haystack[index...lastStart].firstIndex(of: first) else { return false }
            var offset = 1
            while offset < pattern.count, haystack[found + offset] == pattern[offset] { offset += 1 }
            if offset == pattern.count { return true }
            index = found + 1
        }
        return false
    }
}

/// Recognises hosts that cannot be anyone's real associated domain.
enum PlaceholderHost {
    /// Words sample projects put where the real domain belongs.
    static let placeholderWords = ["your-domain", "yourdomain", "your_domain", "domain-here", "your-site", "yoursite"]

    /// Why `host` is a placeholder, reserved or not fully qualified (a phrase after "… is"); `nil` if it may be real.
    ///
    /// `localhost` and `.local` names under `?mode=developer` are left alone: they are development entries.
    static func reason(_ host: String, mode: String?) -> String? {
        judge(host, mode: mode)?.reason
    }

    /// The reason and how bad it is: template domains copied from documentation are errors, while hosts under the
    /// reserved test TLDs (`.example`, `.test`, `.invalid`) are left alone: only fixtures and samples use them, and
    /// a shipped app with one fails the AASA checks anyway.
    static func judge(_ host: String, mode: String?) -> (reason: String, severity: Severity)? {
        let reservedTLD = ["example", "test", "invalid"].contains { host.lowercased().hasSuffix("." + $0) }
        guard !reservedTLD, let reason = rawReason(host, mode: mode) else { return nil }
        return (reason, .error)
    }

    private static func rawReason(_ host: String, mode: String?) -> String? {
        let host = host.lowercased()
        if let word = placeholderWords.first(where: { host.contains($0) }) {
            return "is a sample placeholder (\"\(word)\"), not a real domain"
        }
        let developer = mode?.contains("developer") == true
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

/// URL pieces read with `URLComponents`, tolerant of anything.
enum LinkURL {
    /// The host of `url`, when it parses and has one.
    static func host(of url: String) -> String? {
        URLComponents(string: url)?.host
    }
}
