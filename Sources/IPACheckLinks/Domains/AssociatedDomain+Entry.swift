extension AssociatedDomain {
    /// Whether this entry claims `candidate` (case-insensitive): exactly for plain entries, subdomains only (never
    /// the apex) for `*.`.
    public func covers(host candidate: String) -> Bool {
        let candidate = candidate.lowercased()
        if wildcard { return candidate.hasSuffix("." + host) && candidate.count > host.count + 1 }
        return candidate == host
    }

    /// Whether the entry is usable on every user's device (no alternate mode).
    public var isPublic: Bool { mode == nil }

    /// The host findings about this entry name as their `domain` (so a suppression for `example.com` covers
    /// them), or the raw entry when it has no host.
    package var findingDomain: String {
        host.isEmpty ? entry : host
    }
}
