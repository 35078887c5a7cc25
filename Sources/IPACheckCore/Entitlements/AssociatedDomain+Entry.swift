extension AssociatedDomain {
    /// The entry in the small shape the App Flip and Firebase checks take, with the normalized host (A-labels).
    public var entryValue: AssociatedDomainEntry {
        AssociatedDomainEntry(entry: entry, service: service.name, host: host, wildcard: wildcard, mode: mode?.rawValue)
    }
}
