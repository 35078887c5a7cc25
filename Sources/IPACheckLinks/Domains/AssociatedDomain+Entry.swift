extension AssociatedDomain {
    /// Whether this entry claims `candidate` (case-insensitive): exactly for plain entries, subdomains only (never
    /// the apex) for `*.`.
    package func covers(host candidate: String) -> Bool {
        let candidate = candidate.lowercased()
        if wildcard { return candidate.hasSuffix("." + host) && candidate.count > host.count + 1 }
        return candidate == host
    }

    /// Whether the entry is usable on every user's device (no alternate mode).
    package var isPublic: Bool { mode == nil }

    /// The host findings about this entry name as their `domain` (so a suppression for `example.com` covers
    /// them), or the raw entry when it has no host.
    package var findingDomain: String {
        host.isEmpty ? entry : host
    }
}

extension AssociatedDomain {
    /// Where findings about this entry point: `com.apple.developer.associated-domains[i]`, `i` the entry's index in
    /// the signed array (``index``), or `fallback` for an entry parsed on its own.
    package func location(fallback: Int? = nil) -> String {
        guard let position = index ?? fallback else { return AssociatedDomains.key }
        return AssociatedDomains.location(of: position)
    }
}
