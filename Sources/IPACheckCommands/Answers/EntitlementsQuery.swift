package import IPACheckArchive
import IPACheckBinary
import IPACheckBundle
import IPACheckGate
package import IPACheckPlist
package import IPACheckReport
import IPACheckSigning

/// Where `ipacheck entitlements` takes the entitlements from.
package enum EntitlementSource: String, Sendable, CaseIterable {
    /// The signature's XML blob, or its DER blob decoded where there is no XML (what `codesign -d` shows).
    case signature
    /// The signature's DER blob, decoded (what iOS 15 and later enforce).
    case der
    /// The embedded provisioning profile's `Entitlements` (what the signature may claim).
    case profile
}

/// The answer to `ipacheck entitlements`: a dictionary and anything the user should know about where it came from.
package struct EntitlementsAnswer: Sendable {
    /// The entitlements.
    package let value: PlistValue
    /// Caveats for stderr (slices that disagree, DER and XML that disagree, no entitlements at all).
    package let notes: [String]

    /// Reads the entitlements of `path` (an ipa or a bare Mach-O).
    ///
    /// - Parameters:
    ///   - bundle: Selects a bundle of an ipa by path, folder name or bundle ID; nil is the main app.
    ///   - limits: What an ipa may hold (members, sizes).
    /// - Throws: ``InputError`` when the target, bundle or requested blob cannot be read.
    package static func read(
        path: String,
        bundle selector: String?,
        source: EntitlementSource,
        limits: ArchiveLimits = .standard
    ) throws(InputError) -> EntitlementsAnswer {
        switch try TargetKind.of(path: path) {
        case .propertyList:
            throw InputError(
                "not-a-build",
                file: path,
                "is a property list, not a build: its entitlements are what it says (domains and check read it)"
            )
        case .machO:
            if source == .profile {
                throw InputError("no-profile", file: path, "a bare Mach-O has no provisioning profile; pass the ipa")
            }
            if selector != nil {
                throw InputError("not-an-ipa", file: path, "--bundle selects a bundle of an ipa; this is a Mach-O")
            }
            return try fromSignature(MachOFile.scan(path: path), source: source, file: path, subject: nil)
        case .archive:
            let ipa = try IPAFile(path: path, limits: limits)
            let bundle = try ipa.bundle(matching: selector)
            if source == .profile {
                guard let member = bundle.provisioningProfile else {
                    throw InputError("no-profile", file: path, "\(bundle.path) has no embedded.mobileprovision")
                }
                do {
                    let profile = try ProvisioningProfile.parse(try ipa.read(member), allowingUnsigned: true)
                    return EntitlementsAnswer(value: .dictionary(profile.entitlements), notes: [])
                } catch let error as InputError {
                    throw error
                } catch {
                    throw InputError("bad-profile", file: path, "\(member): \(error)")
                }
            }
            return try fromSignature(ipa.machO(of: bundle), source: source, file: path, subject: bundle.path)
        }
    }

    private static func fromSignature(
        _ container: MachOContainer,
        source: EntitlementSource,
        file: String,
        subject: String?
    ) throws(InputError) -> EntitlementsAnswer {
        let signed = container.slices.compactMap { slice in
            slice.signature.map {
                (slice.architecture.name, SignedEntitlements.read($0, context: slice.architecture.name))
            }
        }
        guard let (architecture, first) = signed.first else {
            // A bundle is named after the file; a bare Mach-O is the file itself, named once.
            throw InputError("unsigned", file: file, (subject.map { "\($0) " } ?? "") + "has no code signature")
        }
        // "Payload/App.app's signature …", or for a bare Mach-O (the file itself) "the signature …".
        let owner = subject.map { "\($0)'s " } ?? "the "
        var notes: [String] = []
        if signed.count > 1 && !SignedEntitlements.compareSlices(signed).isEmpty {
            notes.append("the slices carry different entitlements; showing \(architecture)'s")
        }
        if first.agree == false {
            notes.append("the XML and DER entitlements differ; iOS 15 and later obey the DER ones (--source der)")
        }
        for finding in first.findings where finding.rule != SignedEntitlements.rules.noDER.id {
            notes.append(finding.message)
        }
        switch source {
        case .der:
            guard first.hasDERBlob else {
                throw InputError("no-der", file: file, "\(owner)signature has no DER entitlements blob")
            }
            guard let der = first.der else {
                throw InputError("bad-der", file: file, "\(owner)DER entitlements blob cannot be decoded")
            }
            return EntitlementsAnswer(value: der, notes: notes)
        case .signature, .profile:
            if let xml = first.xml { return EntitlementsAnswer(value: xml, notes: notes) }
            if let der = first.der {
                return EntitlementsAnswer(value: der, notes: notes + ["no XML blob; showing DER"])
            }
            if first.hasXMLBlob || first.hasDERBlob {
                throw InputError("bad-entitlements", file: file, "\(owner)entitlements blob cannot be decoded")
            }
            return EntitlementsAnswer(value: .dictionary([:]), notes: notes + ["the signature carries no entitlements"])
        }
    }
}
