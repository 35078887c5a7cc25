import Foundation
import IPACheckBinary
import IPACheckBundle
import IPACheckCMS
import IPACheckPlist
import IPACheckReport
import IPACheckSigning

/// The embedded profiles, the signers and the Info.plist facts (version, build, platform, minimum OS) of two
/// builds of a bundle.
extension BuildDiff {
    /// The profile's kind, team, App ID, UUID, expiry and the entitlements it grants.
    static func compareProfiles(_ old: BundleFacts, _ new: BundleFacts, into comparison: inout Comparison) {
        let oldKind = old.profile?.kind.rawValue ?? "none"
        let newKind = new.profile?.kind.rawValue ?? "none"
        if oldKind != newKind {
            let now = newKind == "none" ? "the build has no embedded profile" : "the embedded profile is \(newKind)"
            comparison.add(
                Change(kind: .changed, subject: .profile, name: "kind", old: oldKind, new: newKind),
                rules.profileChanged,
                "\(now) (was \(oldKind))"
            )
        }
        guard let before = old.profile, let after = new.profile else { return }

        let oldTeam = before.teamIdentifiers.joined(separator: ", ")
        let newTeam = after.teamIdentifiers.joined(separator: ", ")
        if oldTeam != newTeam {
            comparison.add(
                Change(kind: .changed, subject: .profile, name: "TeamIdentifier", old: oldTeam, new: newTeam),
                rules.profileTeamChanged,
                "the embedded profile is of team \(newTeam.isEmpty ? "(none)" : newTeam) (was team \(oldTeam))"
            )
        }
        compareProfileAppIDs(before, after, into: &comparison)
        if before.uuid != after.uuid {
            comparison.add(
                Change(kind: .changed, subject: .profile, name: "UUID", old: before.uuid, new: after.uuid),
                rules.profileRenewed,
                "the embedded profile is another one: UUID \(after.uuid ?? "(none)") (was \(before.uuid ?? "none"))"
            )
        }
        compareExpiry(before, after, into: &comparison)
        compareGrants(before.entitlements, after.entitlements, into: &comparison)
    }

    /// The application-identifier the profiles grant: another one, or none, is a regression.
    private static func compareProfileAppIDs(
        _ before: ProvisioningProfile,
        _ after: ProvisioningProfile,
        into comparison: inout Comparison
    ) {
        let key = "application-identifier"
        let oldAppID = before.entitlements[key]?.stringValue
        let newAppID = after.entitlements[key]?.stringValue
        guard oldAppID != newAppID else { return }
        switch (oldAppID, newAppID) {
        case (let oldAppID?, let newAppID?):
            comparison.add(
                Change(kind: .changed, subject: .profile, name: key, old: oldAppID, new: newAppID),
                rules.profileAppIDChanged,
                "the embedded profile is for App ID \(newAppID) (was \(oldAppID))",
                location: key
            )
        case (let oldAppID?, nil):
            comparison.add(
                Change(kind: .removed, subject: .profile, name: key, old: oldAppID, new: nil),
                rules.profileAppIDChanged,
                "the embedded profile grants no application-identifier (was \(oldAppID))",
                location: key
            )
        case (nil, let newAppID?):
            comparison.add(
                Change(kind: .added, subject: .profile, name: key, old: nil, new: newAppID),
                rules.added,
                "the embedded profile now grants application-identifier \(newAppID)",
                location: key
            )
        case (nil, nil): break
        }
    }

    /// The profiles' expiry: sooner (or none) is a warning, later a renewal.
    private static func compareExpiry(
        _ before: ProvisioningProfile,
        _ after: ProvisioningProfile,
        into comparison: inout Comparison
    ) {
        guard before.expirationDate != after.expirationDate else { return }
        let old = before.expirationDate.map { PlistValue.date($0).oneLine }
        let new = after.expirationDate.map { PlistValue.date($0).oneLine }
        let change = Change(kind: .changed, subject: .profile, name: "ExpirationDate", old: old, new: new)
        let was = " (was \(old ?? "no expiry"))"
        if let oldDate = before.expirationDate, let newDate = after.expirationDate, newDate > oldDate {
            comparison.add(change, rules.profileRenewed, "the embedded profile now expires \(new ?? "")\(was)")
        } else {
            let now = new.map { "expires \($0)" } ?? "names no expiry"
            comparison.add(change, rules.profileExpiresSooner, "the embedded profile \(now)\(was)")
        }
    }

    /// What the profiles grant, key by key (the application identifier apart).
    private static func compareGrants(
        _ old: [String: PlistValue],
        _ new: [String: PlistValue],
        into comparison: inout Comparison
    ) {
        for key in Set(old.keys).union(new.keys).sorted() where key != "application-identifier" {
            let before = old[key]?.oneLine
            let after = new[key]?.oneLine
            guard old[key] != new[key] else { continue }
            switch (before, after) {
            case (let before?, nil):
                comparison.add(
                    Change(kind: .removed, subject: .profileEntitlement, name: key, old: before, new: nil),
                    rules.profileGrantChanged,
                    "the embedded profile no longer grants \(key) (was \(before))",
                    location: key
                )
            case (nil, let after?):
                comparison.add(
                    Change(kind: .added, subject: .profileEntitlement, name: key, old: nil, new: after),
                    rules.added,
                    "the embedded profile now grants \(key) = \(after)",
                    location: key
                )
            default:
                comparison.add(
                    Change(kind: .changed, subject: .profileEntitlement, name: key, old: before, new: after),
                    rules.profileGrantChanged,
                    "the embedded profile grants \(key) = \(after ?? "") (was \(before ?? ""))",
                    location: key
                )
            }
        }
    }

    /// Who signed the code.
    static func compareSigners(_ old: BundleFacts, _ new: BundleFacts, into comparison: inout Comparison) {
        let oldSigner = signer(old)
        let newSigner = signer(new)
        guard oldSigner != newSigner else { return }
        let now =
            switch newSigner {
            case "unsigned": "the code is not signed"
            case "ad hoc": "the code is signed ad hoc"
            default: "the code is signed by \(newSigner)"
            }
        comparison.add(
            Change(kind: .changed, subject: .signature, name: "signer", old: oldSigner, new: newSigner),
            rules.signerChanged,
            "\(now) (was \(oldSigner))"
        )
    }

    /// Who signed the code: the CodeDirectory's team and the CMS signer's certificate, or ad hoc, or unsigned.
    private static func signer(_ facts: BundleFacts) -> String {
        guard let signature = facts.container?.slices.first?.signature else { return "unsigned" }
        if signature.isAdHoc { return "ad hoc" }
        let team = signature.primaryCodeDirectory?.teamID.map { "team \($0)" } ?? "no team"
        guard let cms = signature.cmsSignature else { return "\(team), no CMS signature" }
        do {
            let check = try CMSSignatureCheck.check(cms: cms.payload, codeDirectories: signature.codeDirectories)
            guard let certificate = check.signer else { return "\(team), no signer certificate" }
            return "\(team), certificate \"\(certificate.displayName)\""
        } catch {
            // Why it cannot be read is `verify`'s to say; here it only tells the signers apart.
            return "\(team), unreadable CMS signature"
        }
    }

    /// The Info.plist's version, build, platform and minimum OS.
    static func compareVersions(_ old: AppBundle, _ new: AppBundle, into comparison: inout Comparison) {
        for (key, before, after) in [
            ("CFBundleShortVersionString", old.version, new.version), ("CFBundleVersion", old.build, new.build),
        ] where before != after {
            let change = Change(
                kind: after == nil ? .removed : before == nil ? .added : .changed,
                subject: .version,
                name: key,
                old: before,
                new: after
            )
            let was = before.map { " (was \($0))" } ?? ""
            switch (before, after) {
            case (_, nil):
                comparison.add(change, rules.versionLowered, "\(key) is gone\(was)", location: key)
            case (let before?, let after?) where order(after, before) == .orderedAscending:
                comparison.add(change, rules.versionLowered, "\(key) is \(after), lower than \(before)", location: key)
            case (_, let after?):
                comparison.add(change, rules.versionChanged, "\(key) is \(after)\(was)", location: key)
            }
        }
        if old.platform != new.platform {
            comparison.add(
                Change(kind: .changed, subject: .platform, name: "platform", old: old.platform, new: new.platform),
                rules.platformChanged,
                "the bundle is built for \(new.platform ?? "no named platform") (was \(old.platform ?? "none"))",
                location: "DTPlatformName"
            )
        }
        if old.minimumOSVersion != new.minimumOSVersion {
            let key = "MinimumOSVersion"
            let before = old.minimumOSVersion
            let after = new.minimumOSVersion
            let change = Change(kind: .changed, subject: .version, name: key, old: before, new: after)
            let message = "\(key) is \(after ?? "gone") (was \(before ?? "none"))"
            // Lowered (or written another way): devices gained, none lost.
            if let before, let after, let direction = order(after, before), direction != .orderedDescending {
                comparison.add(change, rules.versionChanged, message, location: key)
            } else {
                comparison.add(change, rules.minimumOSRaised, message, location: key)
            }
        }
    }

    /// Orders two dotted version numbers (`2.10` after `2.9`, `16` equal to `16.0`); `nil` when either is not one.
    private static func order(_ lhs: String, _ rhs: String) -> ComparisonResult? {
        func parts(_ text: String) -> [Int]? {
            let numbers = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else { return nil }
            return numbers.compactMap { $0 }
        }
        guard let left = parts(lhs), let right = parts(rhs) else { return nil }
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            if a != b { return a < b ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }
}
