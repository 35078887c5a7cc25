/// Which copy of an AASA file a match question is about.
package enum AASACopy: String, Hashable, Sendable, Codable, CaseIterable {
    /// The file served by the host itself (`https://HOST/.well-known/apple-app-site-association`).
    case origin
    /// Apple's CDN copy (`https://app-site-association.cdn-apple.com/a/v1/HOST`), the one devices fetch.
    case cdn
}
