package import IPACheckLinks

/// One host to check, as an associated-domain entry names it: the host (maybe `*.`-prefixed) and its mode.
package struct AASAFetchTarget: Hashable, Sendable, Codable {
    /// The entry's alternate mode (`?mode=`), which decides whether devices use Apple's CDN: the entitlement's.
    package typealias Mode = AssociatedDomain.Mode

    /// The host as the entitlement writes it (`example.com`, `*.example.com`).
    package var host: String
    /// The alternate mode, or `nil` for a normal entry served through Apple's CDN.
    package var mode: Mode?

    /// Whether the MDM lets devices read a managed entry's file from the origin
    /// (`AssociatedDomainsEnableDirectDownloads`, `--mdm-direct-downloads`); without it they read Apple's CDN copy.
    package var mdmDirectDownloads: Bool

    /// Creates a target.
    package init(host: String, mode: Mode? = nil, mdmDirectDownloads: Bool = false) {
        self.host = host
        self.mode = mode
        self.mdmDirectDownloads = mode == .managed && mdmDirectDownloads
    }

    /// Whether a link to `host` is claimed by this entry: the host itself, or a subdomain of a `*.` entry's apex.
    package func serves(host: String) -> Bool {
        let asked = host.lowercased()
        return self.host.hasPrefix("*.") ? asked.hasSuffix("." + fetchHost) : asked == fetchHost
    }

    /// The host whose file serves this entry: lowercased, without a trailing dot, and for `*.example.com` the
    /// apex `example.com` (TN3155: a wildcard entry is served by the apex's file).
    package var fetchHost: String {
        var name = host.lowercased()
        if name.hasPrefix("*.") { name.removeFirst(2) }
        while name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// Whether devices get this entry's file from Apple's CDN rather than from the origin.
    ///
    /// Per docs/ios-model.md#copy: every entry but a developer-mode one (the device fetches the origin) and a
    /// managed one whose MDM enables direct downloads. Apple documents `AssociatedDomainsEnableDirectDownloads` as
    /// "perform claimed site association verification directly at the domain instead of on Apple's servers".
    package var usesCDN: Bool {
        switch mode {
        case nil: true
        case .developer?, .developerAndManaged?: false
        case .managed?: !mdmDirectDownloads
        }
    }

    /// Why devices read the copy they read, in a few words: what every command says beside the verdict.
    package var copyCondition: String {
        switch mode {
        case nil: "devices read Apple's CDN copy"
        case .developer?, .developerAndManaged?:
            "devices in developer mode read the origin's file directly"
        case .managed?:
            mdmDirectDownloads
                ? "assumed: the MDM enables direct downloads (AssociatedDomainsEnableDirectDownloads), so devices "
                    + "read the origin's file"
                : "assumed: the MDM does not enable direct downloads (AssociatedDomainsEnableDirectDownloads), so "
                    + "devices read Apple's CDN copy; pass --mdm-direct-downloads for devices whose MDM does"
        }
    }
}
