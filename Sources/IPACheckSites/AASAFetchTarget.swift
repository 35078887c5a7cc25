package import IPACheckLinks

/// One host to check, as an associated-domain entry names it: the host (maybe `*.`-prefixed) and its mode.
package struct AASAFetchTarget: Hashable, Sendable, Codable {
    /// The entry's alternate mode (`?mode=`), which decides whether devices use Apple's CDN: the entitlement's.
    package typealias Mode = AssociatedDomain.Mode

    /// The host as the entitlement writes it (`example.com`, `*.example.com`).
    package var host: String
    /// The alternate mode, or `nil` for a normal entry served through Apple's CDN.
    package var mode: Mode?

    /// Creates a target.
    package init(host: String, mode: Mode? = nil) {
        self.host = host
        self.mode = mode
    }

    /// The host whose file serves this entry: lowercased, without a trailing dot, and for `*.example.com` the
    /// apex `example.com` (TN3155: a wildcard entry is served by the apex's file).
    package var fetchHost: String {
        var name = host.lowercased()
        if name.hasPrefix("*.") { name.removeFirst(2) }
        while name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// Whether devices get this entry's file from Apple's CDN (normal entries) rather than from the origin.
    package var usesCDN: Bool { mode == nil }
}
