import IPACheckBundle
import IPACheckPlist
import IPACheckReport
import IPACheckSigning

/// The signed entitlements of two builds of a bundle, the XML and the DER blob each compared on its own.
///
/// A difference both blobs show alike is reported once; one only a single blob shows (a domain re-signed into the
/// XML entitlements only, say) is reported naming that blob, since iOS obeys the DER blob and older tools the XML
/// one.
extension BuildDiff {
    /// An entitlements blob of a code signature, as messages name it.
    enum Blob: String, CaseIterable, Sendable {
        /// The XML property list: `CSSLOT_ENTITLEMENTS`, `CSMAGIC_EMBEDDED_ENTITLEMENTS` (`0xfade7171`).
        case xml = "XML"
        /// The DER encoding iOS 15 and later enforce: `CSSLOT_DER_ENTITLEMENTS`,
        /// `CSMAGIC_EMBEDDED_DER_ENTITLEMENTS` (`0xfade7172`).
        case der = "DER"

        /// Whether one slice's signature carries this blob (readable or not).
        func isPresent(in entitlements: SignedEntitlements) -> Bool {
            switch self {
            case .xml: entitlements.hasXMLBlob
            case .der: entitlements.hasDERBlob
            }
        }

        /// This blob's dictionary in one slice's signature, when the blob is there and reads as a dictionary.
        func dictionary(in entitlements: SignedEntitlements) -> [String: PlistValue]? {
            guard isPresent(in: entitlements) else { return nil }
            return switch self {
            case .xml: entitlements.xml?.dictionaryValue
            case .der: entitlements.der?.dictionaryValue
            }
        }
    }

    /// Whether each blob is present and readable in every slice: one the new build lacks is a regression.
    static func compareBlobs(_ old: BundleFacts, _ new: BundleFacts, into comparison: inout Comparison) {
        for blob in Blob.allCases {
            let name = "\(blob.rawValue) entitlements"
            let before = !old.slices.isEmpty && old.slices.allSatisfy { blob.dictionary(in: $0.entitlements) != nil }
            let after = !new.slices.isEmpty && new.slices.allSatisfy { blob.dictionary(in: $0.entitlements) != nil }
            if before && !after {
                let unreadable = new.slices.contains { blob.isPresent(in: $0.entitlements) }
                comparison.add(
                    Change(kind: .removed, subject: .signature, name: name, old: "present", new: nil),
                    rules.entitlementBlobRemoved,
                    unreadable
                        ? "the signature no longer carries readable \(name) (the blob is there but cannot be read)"
                        : "the signature no longer carries \(name)"
                )
            }
            if after && !before {
                comparison.add(
                    Change(kind: .added, subject: .signature, name: name, old: nil, new: "present"),
                    rules.added,
                    "the signature now carries \(name)"
                )
            }
        }
    }

    /// One difference as one blob shows it, before the blobs' differences are merged.
    private struct BlobEvent: Hashable {
        let kind: Change.Kind
        let subject: Change.Subject
        let name: String
        let old: String?
        let new: String?
    }

    /// The first slice's entitlements, each blob that both builds carry readably compared on its own.
    static func compareEntitlements(_ old: BundleFacts, _ new: BundleFacts, into comparison: inout Comparison) {
        guard let oldSigned = old.slices.first?.entitlements, let newSigned = new.slices.first?.entitlements else {
            return
        }
        var compared: [Blob] = []
        var events: [(event: BlobEvent, blobs: [Blob])] = []
        for blob in Blob.allCases {
            guard let before = blob.dictionary(in: oldSigned), let after = blob.dictionary(in: newSigned) else {
                continue
            }
            compared.append(blob)
            for event in differences(before, after) {
                if let index = events.firstIndex(where: { $0.event == event }) {
                    events[index].blobs.append(blob)
                } else {
                    events.append((event, [blob]))
                }
            }
        }
        let ordered = events.enumerated().sorted { lhs, rhs in
            let left = (rank(lhs.element.event.subject), lhs.element.event.name, lhs.offset)
            let right = (rank(rhs.element.event.subject), rhs.element.event.name, rhs.offset)
            return left < right
        }
        for (_, (event, blobs)) in ordered {
            // Named only when the other compared blob does not show the same difference.
            let only = blobs.count < compared.count ? blobs.first : nil
            add(event, only: only, into: &comparison)
        }
    }

    /// The application identifier first, then the domains, then the other entitlements.
    private static func rank(_ subject: Change.Subject) -> Int {
        switch subject {
        case .appID: 0
        case .associatedDomain: 1
        default: 2
        }
    }

    /// What differs between one blob's dictionaries in the old and the new build.
    private static func differences(_ old: [String: PlistValue], _ new: [String: PlistValue]) -> [BlobEvent] {
        var events: [BlobEvent] = []
        let appIDKey = "application-identifier"
        let domainsKey = BundleFacts.associatedDomainsKey
        let oldDomains = domainEntries(old[domainsKey])
        let newDomains = domainEntries(new[domainsKey])
        for entry in oldDomains where !newDomains.contains(entry) {
            events.append(BlobEvent(kind: .removed, subject: .associatedDomain, name: entry, old: entry, new: nil))
        }
        for entry in newDomains where !oldDomains.contains(entry) {
            events.append(BlobEvent(kind: .added, subject: .associatedDomain, name: entry, old: nil, new: entry))
        }
        for key in Set(old.keys).union(new.keys).sorted() where key != domainsKey {
            let before = old[key]
            let after = new[key]
            guard before != after else { continue }
            let kind: Change.Kind = after == nil ? .removed : before == nil ? .added : .changed
            events.append(
                BlobEvent(
                    kind: kind,
                    subject: key == appIDKey ? .appID : .entitlement,
                    name: key,
                    old: before?.oneLine,
                    new: after?.oneLine
                )
            )
        }
        return events
    }

    /// The associated-domains entries as signed: each string of the array, or the lone string a wildcard
    /// profile leaves (`*`).
    private static func domainEntries(_ value: PlistValue?) -> [String] {
        switch value {
        case .array(let values)?: values.compactMap(\.stringValue)
        case .string(let value)?: [value]
        default: []
        }
    }

    /// Records one difference with its finding; `only` names the blob when it is the only one to show it.
    private static func add(_ event: BlobEvent, only blob: Blob?, into comparison: inout Comparison) {
        let change = Change(
            kind: event.kind,
            subject: event.subject,
            name: event.name,
            old: event.old,
            new: event.new,
            blob: blob?.rawValue
        )
        let prefix = blob.map { "\($0.rawValue) entitlements blob: " } ?? ""
        let was = event.old.map { " (was \($0))" } ?? ""
        let new = event.new ?? ""
        switch (event.kind, event.subject) {
        case (.added, .associatedDomain):
            let message = "\(prefix)associated domain \(event.name) is new"
            comparison.add(change, rules.added, message, location: BundleFacts.associatedDomainsKey)
        case (_, .associatedDomain):
            let message = "\(prefix)\(event.name) is no longer signed"
            comparison.add(change, rules.domainRemoved, message, location: BundleFacts.associatedDomainsKey)
        case (.added, _):
            let message = "\(prefix)entitlement \(event.name) = \(new) is new"
            comparison.add(change, rules.added, message, location: event.name)
        case (.removed, .appID):
            let message = "\(prefix)\(event.name) is gone\(was)"
            comparison.add(change, rules.appIDChanged, message, location: event.name)
        case (.changed, .appID):
            let message = "\(prefix)\(event.name) is now \(new)\(was)"
            comparison.add(change, rules.appIDChanged, message, location: event.name)
        case (.removed, _):
            let message = "\(prefix)\(event.name) is no longer signed\(was)"
            comparison.add(change, rules.entitlementRemoved, message, location: event.name)
        case (.changed, _):
            let message = "\(prefix)\(event.name) is \(new)\(was)"
            comparison.add(change, rules.entitlementChanged, message, location: event.name)
        }
    }
}
