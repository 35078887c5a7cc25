extension AssociatedDomain {
    /// Whether this entry claims `candidate` (case-insensitive): exactly for plain entries, subdomains only (never
    /// the apex) for `*.`.
    package func covers(host candidate: String) -> Bool {
        let candidate = candidate.lowercased()
        if wildcard { return candidate.hasSuffix("." + host) && candidate.count > host.count + 1 }
        return candidate == host
    }

    /// How specifically this entry claims `candidate`, or `nil` when it does not.
    ///
    /// The length of the part of the name the entry spells out: iOS picks the entry with the longest (the
    /// archived App Search guide: "Domain matching is based on the longest substring in the applinks entries"),
    /// so `sub.example.com` wins over `*.example.com`, and `*.users.example.com` over `*.example.com`
    /// (docs/ios-model.md#host I29).
    package func specificity(for candidate: String) -> Int? {
        guard covers(host: candidate) else { return nil }
        // An exact entry spells the whole name, which is always longer than any wildcard suffix covering it.
        return host.count + (wildcard ? 0 : 1)
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
