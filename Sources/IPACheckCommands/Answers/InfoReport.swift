import IPACheckArchive
import IPACheckBinary
package import IPACheckBundle
import IPACheckGate
package import IPACheckReport

/// What `ipacheck info` reports about one bundle: its identity (the ``AppBundle``), the executable's
/// architectures and a signing summary.
///
/// Encodes flat: the bundle's identity keys, then `architectures` and `signing`.
@dynamicMemberLookup
package struct BundleInfo: Encodable, Sendable, Hashable {
    /// The bundle.
    package let bundle: AppBundle
    /// The executable's architectures, one per slice (`armv7`, `arm64`).
    package let architectures: [String]
    /// A summary of the code signature, from the Mach-O itself.
    package let signing: SigningSummary

    /// The bundle's own facts (`path`, `bundleID`, `version`, …), read through to ``AppBundle``.
    package subscript<Value>(dynamicMember keyPath: KeyPath<AppBundle, Value>) -> Value {
        bundle[keyPath: keyPath]
    }

    private enum CodingKeys: String, CodingKey {
        case architectures, signing
    }

    /// Writes the bundle's identity keys and this summary's into one object.
    package func encode(to encoder: any Encoder) throws {
        try bundle.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(architectures, forKey: .architectures)
        try container.encode(signing, forKey: .signing)
    }
}

/// The code signature at a glance, read from the executable's `LC_CODE_SIGNATURE` (every slice).
package struct SigningSummary: Encodable, Sendable, Hashable {
    /// Whether every slice carries a code signature.
    package let signed: Bool
    /// Whether the signature is ad hoc (no certificate).
    package let adHoc: Bool
    /// The signing identifier (normally the bundle ID).
    package let identifier: String?
    /// The team ID embedded in the CodeDirectory.
    package let teamID: String?
    /// The CodeDirectory hash types (`sha1`, `sha256`).
    package let hashTypes: [String]
    /// Whether the signature embeds XML entitlements.
    package let xmlEntitlements: Bool
    /// Whether the signature embeds DER entitlements (what iOS 15+ enforces).
    package let derEntitlements: Bool
    /// Whether the signature carries a CMS blob with content (not ad hoc).
    package let cmsSigned: Bool
    /// Whether any slice is FairPlay-encrypted (an App Store download, not an export).
    package let encrypted: Bool
    /// The embedded provisioning profile's path, if any.
    package let provisioningProfile: String?
    /// Whether `_CodeSignature/CodeResources` is present.
    package let sealedResources: Bool
    /// Why the executable could not be read, if it could not.
    package let problem: String?
    /// The distribution the build itself shows, when it is unmistakable: `App Store (FairPlay-encrypted)` for an
    /// app as the App Store delivers it (see ``appStoreDistribution``); `nil` otherwise (a profile tells the rest).
    package let distribution: String?

    /// What ``distribution`` says of an app as the App Store delivers it.
    package static let appStoreDistribution = "App Store (FairPlay-encrypted)"

    /// The common name of the certificate the App Store signs the apps it delivers with.
    package static let appStoreSignerName = "Apple iPhone OS Application Signing"

    /// Summarises a parsed executable.
    init(container: MachOContainer?, bundle: AppBundle, problem: String?) {
        let slices = container?.slices ?? []
        let signatures = slices.compactMap(\.signature)
        let directories = signatures.flatMap(\.codeDirectories)
        let primary = signatures.first?.primaryCodeDirectory
        signed = !slices.isEmpty && signatures.count == slices.count
        adHoc = !signatures.isEmpty && signatures.allSatisfy(\.isAdHoc)
        identifier = primary?.identifier
        teamID = primary?.teamID
        var seen: [String] = []
        for name in directories.map({ $0.hashType?.name ?? "type \($0.rawHashType)" }) where !seen.contains(name) {
            seen.append(name)
        }
        hashTypes = seen
        xmlEntitlements = signatures.contains { $0.xmlEntitlements != nil }
        derEntitlements = signatures.contains { $0.derEntitlements != nil }
        cmsSigned = signatures.contains { ($0.cmsSignature?.payload.count ?? 0) > 0 }
        encrypted = slices.contains(where: \.isEncrypted)
        provisioningProfile = bundle.provisioningProfile
        sealedResources = bundle.codeResources != nil
        self.problem = problem
        distribution =
            Self.isAppStoreDelivery(slices: slices, profile: bundle.provisioningProfile)
            ? Self.appStoreDistribution : nil
    }

    /// Whether the executable is an App Store delivery: no embedded profile, every slice signed, some slice still
    /// FairPlay-encrypted, and every slice's CMS signer named Apple iPhone OS Application Signing (Apple Inc.).
    ///
    /// A listing reads the signer's name only; `check` and `verify` verify the message and judge its chain.
    static func isAppStoreDelivery(slices: [MachOSlice], profile: String?) -> Bool {
        guard profile == nil, !slices.isEmpty, slices.contains(where: \.isEncrypted) else { return false }
        return slices.allSatisfy { slice in
            guard let cms = slice.signature?.cmsSignature?.payload, !cms.isEmpty,
                let signer = CMSSignerSubject.read(cms)
            else { return false }
            return signer.commonName == appStoreSignerName && signer.organization == "Apple Inc."
        }
    }
}

/// The whole `ipacheck info` answer.
package struct InfoReport: Encodable, Sendable {
    /// The ipa, as the user named it.
    package let file: String
    /// Every bundle, the main app first.
    package let bundles: [BundleInfo]
    /// Problems found while reading (archive structure, unreadable nested bundles).
    package let findings: [Finding]

    /// The rules `info` applies: the archive's.
    package static let rules = ArchiveRules.raisedWhenOpened

    /// Reads the bundle tree of an ipa.
    ///
    /// - Throws: ``InputError`` when the ipa, its main app or the main executable cannot be read.
    package static func make(for ipa: IPAFile) throws(InputError) -> InfoReport {
        var findings = ipa.findings
        var infos: [BundleInfo] = []
        for bundle in ipa.bundles {
            var container: MachOContainer? = nil
            var problem: String? = nil
            if bundle.executable != nil {
                do {
                    container = try ipa.machO(of: bundle)
                } catch {
                    if bundle.parent == nil { throw error }
                    problem = error.message
                    findings.append(
                        ArchiveRules.rules.unreadableExecutable.finding(error.message, bundle: bundle.path)
                    )
                }
            }
            infos.append(
                BundleInfo(
                    bundle: bundle,
                    architectures: container?.architectureNames ?? [],
                    signing: SigningSummary(container: container, bundle: bundle, problem: problem)
                )
            )
        }
        return InfoReport(file: ipa.path, bundles: infos, findings: findings.sorted())
    }
}
