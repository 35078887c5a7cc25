import Foundation
package import IPACheckFetching

/// An `Apple-Failure-Reason` header, split into its SWCERR code and text, with advice a person can act on.
package struct AppleFailureReason: Hashable, Sendable, Codable {
    /// The header as sent (`SWCERR00101 Bad HTTP Response: 403 Forbidden`).
    package var raw: String
    /// The `SWCERR…` code, if the header starts with one.
    package var code: String?
    /// The text after the code (`Bad HTTP Response: 403 Forbidden`).
    package var text: String
    /// What it means and what to do.
    package var advice: String

    /// Decodes a header value.
    package init(header: String) {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        raw = trimmed
        let firstWord = trimmed.prefix { !$0.isWhitespace }
        if firstWord.hasPrefix("SWCERR") {
            code = String(firstWord)
            text = String(trimmed.dropFirst(firstWord.count)).trimmingCharacters(in: .whitespaces)
        } else {
            code = nil
            text = trimmed
        }
        advice = Self.advice(code: code, text: text)
    }

    /// The advice table for the SWCERR codes seen in captured CDN responses.
    static func advice(code: String?, text: String) -> String {
        let lower = text.lowercased()
        switch code {
        case "SWCERR00101":
            if lower.contains("403") {
                return "Apple's fetcher got 403 Forbidden from your server: a WAF, bot protection (e.g. Cloudflare "
                    + "Bot Fight Mode), geo-blocking or an IP allowlist blocks it. Serve "
                    + "/.well-known/apple-app-site-association to every user agent from any IP address (TN3155: "
                    + "\"accept all user agent requests\"), not to an allow-list of Apple's agents."
            }
            if lower.contains("404") || lower.contains("410") {
                return "Apple's fetcher got Not Found: the file is not at "
                    + "https://HOST/.well-known/apple-app-site-association (check that the .well-known folder is "
                    + "deployed)."
            }
            if lower.contains(": 3") {
                return "Apple's fetcher got a redirect, which it never follows: serve the file directly with 200."
            }
            if lower.contains(": 5") {
                return "Your server answered Apple's fetcher with a server error: check its logs for requests with "
                    + "user agent AASA-Bot."
            }
            return "Apple's fetcher got a status other than 200 from your server: serve the file with 200."
        case "SWCERR00301":
            if lower.contains("timeout") || lower.contains("timed out") {
                return "Your server did not answer Apple's fetcher in time (about 5 s): serve the file as a fast "
                    + "static asset; the failure stays cached for the Cache-Control max-age."
            }
            if lower.contains("json") {
                return "Apple could not parse the file as JSON: run `ipacheck lint` on it."
            }
            return "Apple could not fetch or read the file; Apple-Failure-Details may say more."
        case "SWCERR00202":
            return "The host resolves to a private or reserved IP address, which Apple's CDN refuses to contact. "
                + "Publish the file on a publicly routable address, or for internal hosts use ?mode=managed with "
                + "MDM direct downloads (AssociatedDomainsEnableDirectDownloads) or ?mode=developer while developing."
        case .some(let other):
            return "\(other) is not in ipacheck's table of known CDN errors; read the text and Apple-Failure-Details."
        case .none:
            return "The failure reason carries no SWCERR code; read its text and Apple-Failure-Details."
        }
    }
}

/// What Apple's CDN answered for one host, decoded from its headers (status, failure reason and details,
/// origin URL, format, try-direct hint, cache age).
package struct CDNObservation: Hashable, Sendable, Codable {
    /// The lookup URL (`https://app-site-association.cdn-apple.com/a/v1/example.com`).
    package var url: String
    /// The HTTP status, if the CDN answered.
    package var status: Int?
    /// Why the CDN could not be asked, if it could not.
    package var failure: FetchFailure?
    /// `Apple-Failure-Reason`, decoded.
    package var failureReason: AppleFailureReason?
    /// `Apple-Failure-Details`: its JSON object members as text, or the raw value under `raw` if not JSON.
    package var failureDetails: [String: String]?
    /// `Apple-From`: the origin URL the CDN fetched.
    package var from: String?
    /// `Apple-Origin-Format` (`json` on success).
    package var originFormat: String?
    /// `Apple-Try-Direct`: whether devices may fetch from the origin directly.
    package var tryDirect: Bool?
    /// `Cache-Control` max-age in seconds.
    package var maxAgeSeconds: Int?
    /// `Age` in seconds: how long the CDN's edge has held this answer.
    package var ageSeconds: Int?
    /// Seconds until this answer expires at the edge (`max-age − Age`, not below 0).
    package var freshForSeconds: Int?
    /// The size of the copy the CDN returned, for a 200.
    package var bodyBytes: Int?

    /// Decodes a CDN answer.
    init(url: String, outcome: FetchOutcome) {
        self.url = url
        switch outcome {
        case .failure(let failure):
            self.failure = failure
        case .response(let response):
            status = response.status
            failureReason = response.header("Apple-Failure-Reason").map(AppleFailureReason.init(header:))
            failureDetails = response.header("Apple-Failure-Details").map(Self.decodeDetails)
            from = response.header("Apple-From")
            originFormat = response.header("Apple-Origin-Format")
            tryDirect = response.header("Apple-Try-Direct").flatMap(Self.decodeBool)
            maxAgeSeconds = response.header("Cache-Control").flatMap(Self.maxAge)
            ageSeconds = response.header("Age").flatMap(Self.deltaSeconds)
            if let maxAgeSeconds {
                // Both values lie in 0...deltaSecondsCeiling, so the difference cannot overflow.
                freshForSeconds = max(0, maxAgeSeconds - (ageSeconds ?? 0))
            }
            if response.status == 200 { bodyBytes = response.body.count }
        }
    }

    /// `max-age=N` from a Cache-Control value (`public, max-age=3600`, `max-age=21600,public`).
    static func maxAge(_ cacheControl: String) -> Int? {
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            guard parts.count == 2,
                parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "max-age"
            else { continue }
            return deltaSeconds(parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""]))
        }
        return nil
    }

    /// The largest number of seconds a header value stands for: RFC 9111 §1.2.2 has caches treat any larger
    /// `delta-seconds` (or one that overflows) as 2^31.
    static let deltaSecondsCeiling = 1 << 31

    /// An RFC 9111 `delta-seconds` value (`Age`, `max-age`): ASCII digits only, so a sign, a fraction or an empty
    /// value is no value; anything above ``deltaSecondsCeiling`` is read as the ceiling.
    static func deltaSeconds(_ text: some StringProtocol) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces).utf8
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        var value = 0
        for digit in digits {
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
            if value >= deltaSecondsCeiling { return deltaSecondsCeiling }
        }
        return value
    }

    static func decodeBool(_ value: String) -> Bool? {
        switch value.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "1", "yes": true
        case "false", "0", "no": false
        default: nil
        }
    }

    /// `{"status":"404 Not Found"}` → `["status": "404 Not Found"]`; anything else → `["raw": value]`.
    static func decodeDetails(_ value: String) -> [String: String] {
        guard value.utf8.count <= 16_384,
            let object = try? JSONSerialization.jsonObject(with: Data(value.utf8)) as? [String: Any]
        else { return ["raw": value] }
        var details: [String: String] = [:]
        for (key, member) in object {
            switch member {
            case let string as String: details[key] = string
            case let number as NSNumber: details[key] = number.stringValue
            default:
                if let data = try? JSONSerialization.data(withJSONObject: member, options: [.sortedKeys]) {
                    details[key] = String(decoding: data, as: UTF8.self)
                }
            }
        }
        return details
    }

    /// One line for messages: `404, SWCERR00101 Bad HTTP Response: 404 Not Found (status: 404 Not Found)`.
    var summary: String {
        var parts: [String] = []
        if let status { parts.append("HTTP \(status)") }
        if let failureReason { parts.append(failureReason.raw) }
        if let failureDetails, !failureDetails.isEmpty {
            let text = failureDetails.keys.sorted().map { "\($0): \(failureDetails[$0] ?? "")" }
            parts.append("details: " + text.joined(separator: ", "))
        }
        if let from { parts.append("fetched from \(from)") }
        if let tryDirect { parts.append("Apple-Try-Direct: \(tryDirect)") }
        if let maxAgeSeconds {
            parts.append("cached for \(maxAgeSeconds) s" + (ageSeconds.map { ", \($0) s old" } ?? ""))
        }
        return parts.joined(separator: "; ")
    }
}
