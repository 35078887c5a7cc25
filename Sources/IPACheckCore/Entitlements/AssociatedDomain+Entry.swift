extension AssociatedDomain {
    /// The entry in the small shape the App Flip and Firebase checks take, with the normalized host (A-labels).
    public var entryValue: AssociatedDomainEntry {
        AssociatedDomainEntry(entry: entry, service: service.name, host: host, wildcard: wildcard, mode: mode?.rawValue)
    }

    /// Whether this entry claims `candidate`: exactly for plain entries, subdomains only (never the apex) for `*.`.
    public func covers(host candidate: String) -> Bool {
        entryValue.covers(host: candidate)
    }

    /// The host findings about this entry name as their `domain` (so a suppression for `example.com` covers
    /// them), or the raw entry when it has no host.
    var findingDomain: String {
        host.isEmpty ? entry : host
    }
}
