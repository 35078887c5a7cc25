import Foundation
import IPACheckAASA

/// The universal link a Google app opens to start App Flip: your link plus `client_id`, `scope`, `state` and
/// `redirect_uri`, so a developer can test the app (App Flip Test Tool, `xcrun simctl openurl`) and ipacheck can ask
/// the AASA about the exact URL iOS will see.
package struct AppFlipLink: Hashable, Sendable, Codable {
    /// The full link, query included.
    package let url: String
    /// The `client_id` value.
    package let clientID: String
    /// The `scope` value: the scopes joined by single spaces.
    package let scope: String
    /// The `state` value your app must echo back unchanged.
    package let state: String
    /// The `redirect_uri` value: the Google app's universal link your app answers on.
    package let redirectURI: String

    /// Builds the link Google would open.
    ///
    /// The query items come in the order the App Flip Test Tool sends them (`client_id`, `scope`, `state`,
    /// `redirect_uri`). Values are percent-encoded except RFC 3986 unreserved characters, so `URLComponents`
    /// (which keeps `+` literal) and form decoders (which read `+` as a space) decode the same values: a space in
    /// `scope` is `%20`, and `redirect_uri`'s `:` and `/` are `%3A` and `%2F`.
    ///
    /// - Parameters:
    ///   - link: The App Flip universal link (https, no query or fragment).
    ///   - state: The nonce; a fresh random one when `nil`.
    /// - Throws: ``AppFlipError`` with code `invalidLink` when `link` cannot be an App Flip link.
    package static func make(
        link: String,
        clientID: String,
        scopes: [String],
        googleApp: GoogleApp = .googleHome,
        sandbox: Bool = false,
        state: String? = nil
    ) throws(AppFlipError) -> AppFlipLink {
        let problems = AppFlipLinkShape.problems(of: link)
        if let first = problems.first {
            throw AppFlipError(.invalidLink, context: link, reason: first)
        }
        let state = state ?? randomState()
        let scope = scopes.joined(separator: " ")
        let redirectURI = googleApp.redirectURI(sandbox: sandbox)
        let items = [("client_id", clientID), ("scope", scope), ("state", state), ("redirect_uri", redirectURI)]
        let query = items.map { "\($0.0)=\(percentEncode($0.1))" }.joined(separator: "&")
        return AppFlipLink(
            url: "\(link)?\(query)",
            clientID: clientID,
            scope: scope,
            state: state,
            redirectURI: redirectURI
        )
    }

    /// A fresh nonce: 128 random bits as 32 lowercase hex digits.
    package static func randomState() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).leftPadded(to: 2)
        }.joined()
    }

    /// Percent-encodes every byte outside RFC 3986's unreserved set (`A-Z a-z 0-9 - . _ ~`), hex in upper case.
    static func percentEncode(_ value: String) -> String {
        var encoded = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }
}

/// What makes a URL usable as the App Flip universal link (Google appends the query, iOS matches https only).
enum AppFlipLinkShape {
    /// Why `link` cannot be the App Flip universal link, one sentence each; empty when it can.
    static func problems(of link: String) -> [String] {
        let url = LinkURL(link)
        guard let scheme = url.scheme else { return ["is not an absolute URL"] }
        var problems: [String] = []
        if scheme != "https" {
            problems.append("uses \(scheme):, but universal links (and so App Flip links) must be https")
        }
        if (url.host ?? "").isEmpty { problems.append("has no host") }
        if url.userInfo != nil { problems.append("must not contain user info") }
        if let port = url.port {
            problems.append("carries port \(port); associated domains cannot name a port, so it never opens the app")
        }
        if url.query != nil {
            problems.append("has a query; Google appends ?client_id=…&scope=…&state=…&redirect_uri=… itself")
        }
        if url.fragment != nil { problems.append("has a #fragment; Google appends the query after the link") }
        return problems
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
